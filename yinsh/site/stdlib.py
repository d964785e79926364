"""Pyodide's standard library without the packages the site never imports.

``python_stdlib.zip`` is the largest file a first visit downloads after the interpreter itself
(2.5 MB, already deflated, so a host's gzip cannot shrink it). Much of it serves programs a
browser game is not: mail and XML servers, test runners, debuggers, profilers. The site ships
the zip without the packages of :data:`NEVER_IMPORTED`, unless anything could import them: the
*import closure* of the shipped code (every ``import`` statement, at any depth, of the site's
Python files, of the runtime's own Python code and of every standard module they reach,
followed transitively) keeps each of its modules whatever this list says. The closure
over-approximates (an import inside a function that never runs still counts; only a module's
``if __name__ == "__main__":`` block is skipped), so a module is dropped only when nothing
that ships names it.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
from collections.abc import Iterable

STDLIB_ZIP = "python_stdlib.zip"

#: Top-level standard packages and modules a page of this site never needs: network servers
#: and clients, mail, XML, databases, audio files, test runners, debuggers, profilers, build
#: tools. Dropped only when outside the import closure (see the module docstring).
NEVER_IMPORTED = frozenset("""
    aifc chunk cProfile compileall configparser curses dbm distutils doctest ensurepip ftplib idlelib
    imaplib lib2to3 mailbox mailcap modulefinder multiprocessing nntplib optparse pdb pickletools
    poplib profile pstats py_compile pyclbr pydoc pydoc_data smtplib sqlite3 sunau tabnanny timeit
    tkinter trace turtle turtledemo unittest venv wave wsgiref xml xmlrpc
""".split())

#: What the interpreter and PyScript import before any page code runs.
START_UP = ("site", "encodings", "pyodide", "_pyodide", "pyscript", "asyncio", "json", "inspect", "traceback")

_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+([^\n#]+)|import[ \t]+([^\n#]+))", re.M)
_DYNAMIC = re.compile(r"""(?:import_module|__import__)\(\s*["']([\w.]+)""")
_MAIN_BLOCK = re.compile(r"""^if __name__ == (["'])__main__\1:[^\n]*\n(?:(?:[ \t]+[^\n]*|[ \t]*)(?:\n|$))*""", re.M)


def imported_names(text: str, package: str = "") -> set[str]:
    """Every module name an ``import`` statement of ``text`` may load (``from a import b``
    gives ``a`` and ``a.b``); relative imports are resolved against ``package``.

    >>> sorted(imported_names("import os.path, json as j\\nfrom . import x\\n", "email"))
    ['email', 'email.x', 'json', 'os.path']
    >>> sorted(imported_names("import re\\nif __name__ == '__main__':\\n    import doctest\\n"))
    ['re']
    """
    names: set[str] = set()
    text = _MAIN_BLOCK.sub("", text)  # runs only as a script (heapq's doctest), never on import
    for m in _IMPORT.finditer(text):
        if m.group(1) is None:
            names.update(part.split()[0] for part in m.group(3).split(",") if part.split())
            continue
        base = m.group(1)
        dots = len(base) - len(base.lstrip("."))
        if dots:
            parts = package.split(".")[: len(package.split(".")) - (dots - 1)] if package else []
            base = ".".join(parts + ([base[dots:]] if base[dots:] else []))
        if not base:
            continue
        names.add(base)
        for item in re.split(r"[,()\s\\]+", m.group(2)):
            if item and item != "as" and item != "*" and item.isidentifier():
                names.add(f"{base}.{item}")
    names.update(m.group(1) for m in _DYNAMIC.finditer(text))
    return names


def _modules(archive: zipfile.ZipFile) -> dict[str, str]:
    """Module name → file name in the archive, for its Python files."""
    out: dict[str, str] = {}
    for name in archive.namelist():
        if name.endswith(".py"):
            module = name[:-3].replace("/", ".")
            out[module.removesuffix(".__init__")] = name
    return out


def import_closure(archive: zipfile.ZipFile, roots: Iterable[str]) -> set[str]:
    """The modules of ``archive`` that importing ``roots`` (module names) may load."""
    modules = _modules(archive)
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        parts = todo.pop().split(".")
        for depth in range(1, len(parts) + 1):  # importing a.b.c imports a and a.b first
            name = ".".join(parts[:depth])
            if name in seen or name not in modules:
                continue
            seen.add(name)
            path = modules[name]
            package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
            todo += imported_names(archive.read(path).decode("utf-8", "replace"), package)
    return seen


def trim_stdlib(data: bytes, roots: Iterable[str]) -> tuple[bytes, list[str]]:
    """``python_stdlib.zip`` (its bytes) without the packages of :data:`NEVER_IMPORTED` that
    the import closure of ``roots`` does not reach, and the top-level names dropped."""
    source = zipfile.ZipFile(io.BytesIO(data))
    needed = {name.split(".")[0] for name in import_closure(source, [*START_UP, *roots])}
    dropped = sorted(NEVER_IMPORTED - needed)
    drop = set(dropped)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            top = info.filename.split("/")[0]
            if top in drop or posixpath.splitext(top)[0] in drop:
                continue
            target.writestr(info, source.read(info), compress_type=info.compress_type)
    present = {posixpath.splitext(name.split("/")[0])[0] for name in source.namelist()}
    return out.getvalue(), [name for name in dropped if name in present]
