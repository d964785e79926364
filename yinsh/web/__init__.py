"""The game page in the browser (PyScript): the DOM and the workers, and nothing else.

:mod:`yinsh.web.main` wires the game page (``index.html``), :mod:`yinsh.web.embed` the
embeddable diagram (``embed.html``), :mod:`yinsh.web.worker` is the computer player in its web
worker. What the page knows without a browser — the session, its status, links, settings,
records — is :mod:`yinsh.page`.
"""
