"""The game page's model: everything the page needs that does not need a browser.

Plain Python, run by MicroPython on the page's main thread and by CPython in the tests:
:mod:`~yinsh.page.session` (the game at the page), :mod:`~yinsh.page.status` (what the page
shows, as plain values), :mod:`~yinsh.page.computer` (the computer player as the page sees it),
:mod:`~yinsh.page.links` (the page's URL: the game it opens, the links it writes),
:mod:`~yinsh.page.settings`, :mod:`~yinsh.page.saved` and :mod:`~yinsh.page.records` (what the
page keeps and exchanges), and the parts of teaching and access (:mod:`~yinsh.page.guide`,
:mod:`~yinsh.page.access`, :mod:`~yinsh.page.preview`, :mod:`~yinsh.page.sounds`, …).
:mod:`yinsh.web` draws and wires it in the browser; nothing here imports it.
"""
