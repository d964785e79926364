"""The MicroPython lane: the shared modules run under the page's MicroPython and answer as CPython does."""
