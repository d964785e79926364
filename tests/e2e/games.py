"""Games from tests/data that several end-to-end test modules play on the page."""

from __future__ import annotations

from pathlib import Path

from yinsh.record import read_records

DATA = Path(__file__).resolve().parents[1] / "data"
GAMES = {r.tags["Game"]: r.game for r in read_records((DATA / "games.ygn").read_text(encoding="utf-8"))}
SCENARIOS = {r.tags["Scenario"]: r.game for r in read_records((DATA / "scenarios.ygn").read_text(encoding="utf-8"))}
#: A whole game won 3 to 2, with a row chosen among two (move 58).
BRAVE_COMBO = GAMES["Y-BraveCombo-Dumbot-2026-03-20-0237"]
#: The record of the notation example in the official rules (ten placements).
NOTATION_EXAMPLE = SCENARIOS["official notation example"].record()
