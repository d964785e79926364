"""The little the page's parts need from the browser, the same on Pyodide and MicroPython.

``window`` is JavaScript's (``js.window``): on MicroPython, calling a method of
``pyscript.window`` itself throws "Illegal invocation". PyScript's ``pyscript.ffi`` works on
both interpreters (``create_proxy``, ``to_js``, which
makes a dict a JavaScript object, and ``is_none``, true for ``None`` and JavaScript's
``null``). :func:`listen` is the one way the page attaches a handler: a handler never lets
an exception escape (a warning in the console, ``data-yinsh-error`` on ``<html>``, never a
traceback on the page), and a function given as ``after`` runs once it is done, so that
every input ends the same way — with the page drawn again.

Outside the browser (pytest imports every module) the names are ``None``.
"""

from __future__ import annotations

try:
    import js
    from pyscript import document
    from pyscript.ffi import create_proxy, is_none, to_js

    window = js.window  # on MicroPython, pyscript.window's own methods (addEventListener) fail
except ImportError:
    create_proxy = document = is_none = to_js = window = None

__all__ = ["document", "window", "create_proxy", "to_js", "find", "element", "warn", "listen", "guarded", "load",
           "store", "ERROR_FLAG"]

ERROR_FLAG = "data-yinsh-error"
"""Set on ``<html>`` once a handler failed (the tests fail on it)."""
_proxies: list = []  # every handler handed to JavaScript, kept alive


def element(found):
    """``found``, or ``None`` where JavaScript answered ``null``."""
    return None if found is None or is_none(found) else found


def find(target, selector: str):
    """``target.closest(selector)``, or ``None``."""
    target = element(target)
    return None if target is None or not hasattr(target, "closest") else element(target.closest(selector))


def pressed_action(event) -> str:
    """The ``data-action`` of the button a click came from, or ``""`` (not from such a button)."""
    button = find(event.target, "button[data-action]")
    return "" if button is None else str(button.getAttribute("data-action"))


def load(key: str) -> str | None:
    """What ``localStorage`` keeps under ``key``, or ``None`` (nothing, or storage switched off)."""
    value = element(_storage().get(key))
    return None if value is None else str(value)


def store(key: str, value: str | None) -> bool:
    """Keep ``value`` under ``key`` in ``localStorage`` (``None``: remove it); whether the
    browser did (storage can be full or switched off)."""
    return str(_storage().set(key, value)) == ""


def _storage():
    """The page's ``yinshStorage`` (index.html): on MicroPython, ``except`` does not see an
    exception thrown by a JavaScript call such as ``localStorage.setItem`` on a full storage:
    it unwinds through the Python code to the event loop, so each such call goes through a
    JavaScript function that answers instead of throwing."""
    return window.yinshStorage


def warn(what: str, exc: BaseException | None = None) -> None:
    """A bug report in the console (a warning: the page itself shows a short notice)."""
    detail = ""
    if exc is not None:
        try:
            import sys
            from io import StringIO

            out = StringIO()
            if hasattr(sys, "print_exception"):  # MicroPython
                sys.print_exception(exc, out)
            else:
                import traceback

                traceback.print_exception(type(exc), exc, exc.__traceback__, file=out)
            detail = "\n" + out.getvalue()
        except Exception:
            detail = f"\n{exc!r}"
    window.console.warn(f"yinsh: {what}{detail}")


def listen(target, event: str, handler, after=None, on_error=None) -> None:
    """Call ``handler(event)`` on each ``event`` of ``target``, then ``after()`` unless the
    handler returned ``False`` (it changed nothing ``after`` would draw: a listener on the whole
    document that had nothing to do, so a click does not redraw the page once a listener). An
    exception is reported (:func:`warn`, :data:`ERROR_FLAG`) and ``on_error()`` is called instead
    of ``after``; nothing escapes to the page."""

    def guarded(js_event):
        try:
            acted = handler(js_event)
        except Exception as exc:
            _failed(exc, on_error)
            return
        if after is not None and acted is not False:
            try:
                after()
            except Exception as exc:
                _failed(exc, None)

    proxy = create_proxy(guarded)
    _proxies.append(proxy)
    target.addEventListener(event, proxy)


def guarded(call, on_error=None):  # type: ignore[no-untyped-def]
    """``call()`` made safe to be called back by JavaScript: an exception is reported as a
    handler's is, and ``on_error()`` called; nothing escapes to the page."""

    def run(*_args) -> None:  # type: ignore[no-untyped-def]
        try:
            call()
        except Exception as exc:
            _failed(exc, on_error)

    return run


def _failed(exc: BaseException, on_error) -> None:
    warn("a handler failed", exc)
    document.documentElement.setAttribute(ERROR_FLAG, "1")
    if on_error is not None:
        try:
            on_error()
        except Exception as again:
            warn("recovering from a failed handler failed too", again)
