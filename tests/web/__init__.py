"""Tests of the page's browser glue that run without a browser, one file per module of yinsh/web."""
