"""The package's modules import one another in layers: no import cycle, and the rules below
the pages, the AI and the tools.

Imports are read from the source (tests/helpers.py): those inside functions count, as they run
when the function does; those under ``if TYPE_CHECKING:`` do not (they are for mypy only). A
package's ``__init__`` is not counted as imported by its own submodules (Python imports it
before them anyway).
"""

from __future__ import annotations

from pathlib import Path

from helpers import ROOT, direct_imports

PACKAGE = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "yinsh").rglob("*.py") if "__pycache__" not in p.parts)
RULES = {"yinsh/board.py", "yinsh/state.py", "yinsh/move.py", "yinsh/game.py", "yinsh/errors.py", "yinsh/limits.py",
         "yinsh/compat.py", "yinsh/scan.py", "yinsh/outcome.py", "yinsh/pgn.py", "yinsh/sgf.py", "yinsh/position.py",
         "yinsh/record.py", "yinsh/link.py"}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without
    recursion), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_package_has_no_import_cycle() -> None:
    graph = {path: direct_imports(path) for path in PACKAGE}
    cycles = _cycles(graph)
    assert not cycles, "modules that import one another (directly or through others): " + "; ".join(
        " ↔ ".join(cycle) for cycle in cycles)


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_rules_import_no_page_ai_or_tool() -> None:
    """The rules and their notations stand on their own: what a page, the AI or a tool needs
    is built on them, never the reverse."""
    for path in sorted(RULES):
        assert Path(ROOT / path).is_file(), path
        above = sorted(m for m in direct_imports(path) if m not in RULES)
        assert not above, f"{path} imports {above}"
