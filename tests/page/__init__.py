"""Tests of the page's model, one file per module of yinsh/page."""
