"""Helpers shared by the tests: the fixture files, small position builders, the rule for a missing
tool (skip locally, fail under CI), and what a PyScript config maps and a page imports."""

from __future__ import annotations

import ast
import json
import os
import tomllib
from pathlib import Path, PurePosixPath

import pytest

from yinsh import Game
from yinsh.record import Record, read_records
from yinsh.state import make_state

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[1]


def in_ci() -> bool:
    """True when the ``CI`` environment variable is set to anything but empty/0/false."""
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def unavailable(reason: str) -> None:
    """Skip locally, fail in CI: CI must never pass by skipping a check whose tool is missing."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so this is an error, not a skip)", pytrace=False)
    pytest.skip(reason)


def load(name: str) -> list[Record]:
    """The records of a file in tests/data."""
    return read_records((DATA / name).read_text(encoding="utf-8"))


def game_at(white_rings=(), black_rings=(), white_markers=(), black_markers=(), **kwargs) -> Game:
    """A game starting from a position drawn with point names (see ``make_state``), at move 41."""
    return Game.from_state(make_state(white_rings, black_rings, white_markers, black_markers, **kwargs), ply=40)


def rows_seeking_game(seed: int, moves: int = 150) -> Game:
    """A seeded game whose moves mostly leave the most rows (either side's) on the board, so that
    the rare positions — several rows made for the opponent, removals on both sides — come up."""
    import random

    from yinsh.state import rows

    rng = random.Random(seed)
    game = Game()

    def rows_after(move) -> int:
        game.push(move)
        s = game.state
        count = len(rows(s.white_markers)) + len(rows(s.black_markers))
        game.undo()
        return count

    while game.result is None and game.ply < moves:
        legal = game.legal_moves()
        rng.shuffle(legal)
        game.push(max(legal[:60], key=rows_after) if rng.random() < 0.7 else legal[0])
    return game


def config_files(config: Path) -> dict[str, str]:
    """A PyScript config's ``[files]`` (TOML or JSON): source file (relative to the repository)
    → its path in the browser's file system (a destination ending in / keeps the file name)."""
    text = config.read_text(encoding="utf-8")
    data = json.loads(text) if config.suffix == ".json" else tomllib.loads(text)
    out = {}
    for source, dest in data["files"].items():
        src = PurePosixPath(source.removeprefix("./"))
        target = dest.removeprefix("./")
        out[str(src)] = target + src.name if dest.endswith("/") else target
    return out


def direct_imports(path: str) -> set[str]:
    """The package's files that ``path`` (a file of yinsh/) imports itself, function-level
    imports included; not those under ``if TYPE_CHECKING:`` (for mypy only, never run). For
    ``from package import name``, the submodule ``name`` when there is one, else the package."""
    parts = PurePosixPath(path).parts
    package = parts[:-1]
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    for_mypy = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING" for n in ast.walk(node)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in for_mypy:
            continue
        names: list[tuple[str, ...]] = []
        if isinstance(node, ast.Import):
            names = [tuple(a.name.split(".")) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = base + (tuple(node.module.split(".")) if node.module else ())
            names = [module + (a.name,) if _file_of(module + (a.name,)) else module for a in node.names]
        for name in names:
            found = _file_of(name) if name and name[0] == "yinsh" else None
            if found and found != path:
                out.add(found)
    return out


def _file_of(name: tuple[str, ...]) -> str | None:
    """The file of the module ``name`` (``("yinsh", "game")``), if it is one of the package's."""
    for candidate in (PurePosixPath(*name).with_suffix(".py"), PurePosixPath(*name, "__init__.py")):
        if (ROOT / candidate).is_file():
            return str(candidate)
    return None


PAGE_BARE_PACKAGES = ("yinsh/ai",)
"""Packages a MicroPython page takes a module of without their ``__init__``: MicroPython
imports a folder without one as an empty package. The page makes the computer's ring
placements with :mod:`yinsh.ai.placement`, and never loads the search that ``yinsh/ai``'s
``__init__`` imports (the worker's)."""


def imported_modules(*modules: str, bare_packages: tuple[str, ...] = ()) -> set[str]:
    """The package's source files that importing ``modules`` (files of yinsh/) may load:
    their imports, the packages around them, and theirs, function-level imports included;
    the ``__init__`` of a folder of ``bare_packages`` is left out (:data:`PAGE_BARE_PACKAGES`)."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        parts = PurePosixPath(path).parts
        for i in range(1, len(parts)):  # importing a.b.c runs a/__init__ and a/b/__init__
            if str(PurePosixPath(*parts[:i])) not in bare_packages:
                todo.append(str(PurePosixPath(*parts[:i], "__init__.py")))
        todo += direct_imports(path)
    return seen


def page_modules(*modules: str) -> set[str]:
    """What a MicroPython page that imports ``modules`` loads (:func:`imported_modules` with
    :data:`PAGE_BARE_PACKAGES`)."""
    return imported_modules(*modules, bare_packages=PAGE_BARE_PACKAGES)


def choices(turn) -> dict:
    """A turn's choices as :func:`yinsh.render.picture` takes them (the page builds its picture
    from the same data: yinsh/page/status.py)."""
    return {"destinations": turn.destinations, "rows": turn.candidate_rows, "selected_row": turn.selected_row,
            "selected_ring": turn.selected_ring, "removable": turn.removable_rings, "movable": turn.movable_rings,
            "clickable": turn.clickable_points}


# --------------------------------------------------------------------------- the page's session and its computer


def answer(session, request) -> None:
    """Answer ``request`` of a page's :class:`~yinsh.page.session.Session` as the worker would
    (the client's part, without a browser): the real worker module, called in-process."""
    from yinsh.web import worker

    if request.kind == "evaluate":
        session.computer.receive_values(request, worker.evaluate(request.text))
    elif request.kind == "hint":
        session.computer.receive_hint(request, worker.think(request.text, request.level, request.seed))
    else:
        session.computer.receive_move(request, worker.think(request.text, request.level, request.seed))


def play_by_clicks(session, move) -> None:
    """The decisions a person makes for ``move``, as clicks on a session's points and rows."""
    from yinsh.turn import decisions_of

    for decision in decisions_of(move):
        if decision.kind == "row":
            session.click_row(decision.value)
        elif decision.kind != "pass":
            session.click_point(decision.value)


def ready(session):
    """``session`` with its computer's worker up."""
    session.computer.set_state("ready")
    return session
