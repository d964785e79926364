"""The command line: replay, perft and bench."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from helpers import DATA, ROOT

from yinsh.__main__ import main
from yinsh.limits import MAX_FILE_BYTES


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


# --------------------------------------------------------------------------- issue 23: the terminal and the disk


def _yinsh(*args: str, env: dict[str, str] | None = None, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "yinsh", *args], capture_output=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}, timeout=60, **kwargs)


def test_replay_refuses_an_endless_file_by_its_size(capsys):
    assert main(["replay", "/dev/zero"]) == 1
    assert f"/dev/zero is longer than {MAX_FILE_BYTES:,} bytes: at most {MAX_FILE_BYTES:,} are read" in (
        capsys.readouterr().err)


def test_replay_refuses_an_endless_pipe_by_its_size():
    with subprocess.Popen(["yes", "1.e3"], stdout=subprocess.PIPE) as endless:
        done = _yinsh("replay", "-", stdin=endless.stdout)
        endless.kill()
    assert done.returncode == 1 and done.stdout == b""
    assert done.stderr.decode() == (f"yinsh replay: standard input is longer than {MAX_FILE_BYTES:,} bytes: "
                                    f"at most {MAX_FILE_BYTES:,} are read\n")


def test_replay_prints_tags_with_their_control_characters_escaped(tmp_path, capsys):
    evil = tmp_path / "evil.ygn"
    evil.write_text('[Game "x\x1b[2J\x1b[31m forged: 9 moves (0-1)\u202e\x85\x07"]\n1.e3\n\n'
                    '[Game "y\x9b1A"]\n1.e3\n', encoding="utf-8")
    assert main(["replay", str(evil)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        r"x\x1b[2J\x1b[31m forged: 9 moves (0-1)\u202e\x85\x07: 1 moves, rings removed 0-0, pool 51, black to move",
        r"y\x9b1A: 1 moves, rings removed 0-0, pool 51, black to move",
    ]
    assert all(c == "\n" or c.isprintable() for c in out)


def test_an_error_naming_a_file_escapes_its_name_too(tmp_path, capsys):
    name = tmp_path / "a\x1b]0;title\x07.ygn"
    name.write_bytes(b"\xff")
    assert main(["replay", str(name)]) == 1
    err = capsys.readouterr().err
    assert r"a\x1b]0;title\x07.ygn is not UTF-8 text" in err and "\x1b" not in err


def test_a_failed_diagram_leaves_the_file_there_as_it_was(tmp_path, capsys):
    out = tmp_path / "d.svg"
    out.write_text("the old picture")
    assert main(["diagram", "--record", "1.e3", "--title", "caf\udcff", "-o", str(out)]) == 1
    assert "the title caf\\udcff is not UTF-8 text" in capsys.readouterr().err
    assert main(["diagram", "--record", "1.e3 2.e3", "-o", str(out)]) == 1
    assert out.read_text() == "the old picture" and [p.name for p in tmp_path.iterdir()] == ["d.svg"]
    assert main(["diagram", "--record", "1.e3", "--title", "café ✓", "-o", str(out)]) == 0
    assert "café ✓" in out.read_text(encoding="utf-8") and [p.name for p in tmp_path.iterdir()] == ["d.svg"]


def test_a_diagram_into_a_missing_folder_is_one_line(tmp_path, capsys):
    assert main(["diagram", "--record", "1.e3", "-o", str(tmp_path / "no" / "d.svg")]) == 1
    assert "No such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_name_the_terminal_cannot_print_is_escaped_not_a_traceback(tmp_path, encoding):
    out = tmp_path / "pic ✓.svg"
    done = _yinsh("diagram", "--record", "1.e3", "--title", "Ёж ✓", "-o", str(out),
                  env={"PYTHONIOENCODING": encoding})
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr and b"pic \\u2713.svg" in done.stdout
    assert "Ёж ✓" in out.read_text(encoding="utf-8")
    bytes_title = _yinsh("diagram", "--record", "1.e3", "--title", b"caf\xff", "-o", str(out),
                         env={"PYTHONIOENCODING": encoding})
    assert bytes_title.returncode == 1 and b"Traceback" not in bytes_title.stderr
    assert b"is not UTF-8 text" in bytes_title.stderr and "Ёж ✓" in out.read_text(encoding="utf-8")
