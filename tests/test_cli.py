"""The command line: replay, perft and bench."""

from __future__ import annotations

import pytest
from helpers import DATA

from yinsh.__main__ import main


def test_replay_prints_score_pool_and_result(capsys):
    assert main(["replay", str(DATA / "games.ygn")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("Y-BraveCombo-Dumbot-2026-03-20-0237: 66 moves, rings removed 2-3, pool 20, "
                      "Black wins 3 to 2 (0-1)")
    assert out[0].endswith("pool 50, black to move")


def test_replay_of_an_illegal_move_names_it_and_exits_1(tmp_path, capsys):
    bad = tmp_path / "bad.ygn"
    bad.write_text("1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8 11.g3-g8\n")
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "move 11: 'g3-g8' is illegal: a ring cannot land on the ring on g8" in err


def test_replay_of_a_missing_file_exits_1(capsys):
    assert main(["replay", "/nonexistent.ygn"]) == 1
    assert "No such file" in capsys.readouterr().err


def test_perft_with_divide(capsys):
    record = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8"
    assert main(["perft", "2", "--record", record, "--divide"]) == 0
    out = capsys.readouterr().out
    assert "h7-g7 " in out and "perft 2: 6258" in out


def test_perft_from_a_position_code(capsys):
    assert main(["perft", "1", "--position", "Y1A6L"]) == 0
    assert "perft 1: 85" in capsys.readouterr().out


def test_perft_rejects_a_bad_position(capsys):
    assert main(["perft", "1", "--position", "nonsense"]) == 1
    assert "not a position code" in capsys.readouterr().err


def test_bench_prints_its_figures(capsys):
    assert main(["bench", "--seconds", "0.2"]) == 0
    out = capsys.readouterr().out
    for words in ("CPython", "random playouts", "games/s", "perft 3", "leaves/s", "legal-move generation"):
        assert words in out


def test_usage_errors_exit_2():
    with pytest.raises(SystemExit) as info:
        main(["perft"])
    assert info.value.code == 2


def test_diagram_writes_a_standalone_svg(tmp_path, capsys):
    out = tmp_path / "d.svg"
    record = "1.e3 2.a5 3.b5 4.c6 5.d6 6.e4 7.h7 8.g2 9.g3 10.g8 11.h7-g7"
    assert main(["diagram", "--record", record, "--highlight", "e4,e3-e7", "--size", "320", "-o", str(out)]) == 0
    svg = out.read_text()
    assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg and 'width="320"' in svg
    assert 'data-row="e3-e7"' in svg and "<style" in svg
    assert "wrote" in capsys.readouterr().out


def test_diagram_refuses_a_bad_highlight(tmp_path, capsys):
    assert main(["diagram", "--position", "Y1A6L", "--highlight", "z9", "-o", str(tmp_path / "d.svg")]) == 1
    assert "cannot highlight 'z9'" in capsys.readouterr().err


def test_diagram_rows(tmp_path, capsys):
    out = tmp_path / "d.svg"
    assert main(["diagram", "--record", "1.e3", "--highlight", "e4", "--rows", "e3-e7,b2-f6", "-o", str(out)]) == 0
    svg = out.read_text()
    assert 'data-row="e3-e7"' in svg and 'data-row="b2-f6"' in svg and 'class="yb-mark"' in svg
    assert main(["diagram", "--record", "1.e3", "--rows", "e4", "-o", str(out)]) == 1
    assert "--rows lists rows like e3-e7, not points: e4" in capsys.readouterr().err
