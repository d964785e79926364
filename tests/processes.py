"""Processes a test starts and must never leave behind (tests/test_serve.py, tests/test_live_relay.py).

:class:`Started` starts ``yinsh serve`` as a non-interactive shell starts a background job
(SIGINT ignored), reads its lines and waits for it, each wait bounded: when a bound passes, it
kills (SIGKILL) every process the test started and fails the test naming what did not stop.
Other processes (the server's relay) are found and watched without psutil: ``/proc`` on Linux,
``ps`` elsewhere. A process is known by its pid and, on Linux, its start time, so a pid the
system hands out again is not taken for it; a zombie (ended, not yet reaped by whoever adopted
it) counts as gone: it holds no port and no file.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[1]

START_BOUND = 60.0
"""Seconds ``yinsh serve`` has to print its start lines (a relay's start, on a loaded machine)."""
STOP_BOUND = 15.0
"""Seconds a process has to end once told to."""



def _background_job(ignored: tuple[str, ...]) -> str:
    """A program that runs its arguments with ``ignored`` ignored, the other stop signals as the
    system's defaults (whatever this test's own are: a suite run under nohup ignores SIGHUP);
    a signal's ignored disposition lasts through ``exec``."""
    defaults = tuple(name for name in ("SIGINT", "SIGTERM", "SIGHUP") if name not in ignored)
    return ("import os, signal, sys\n"
            f"for name in {ignored!r}: signal.signal(getattr(signal, name), signal.SIG_IGN)\n"
            f"for name in {defaults!r}: signal.signal(getattr(signal, name), signal.SIG_DFL)\n"
            "os.execv(sys.argv[1], sys.argv[1:])")


@dataclass(frozen=True)
class Process:
    """A process this test did not start itself (no ``Popen``): its pid, name and start time."""

    pid: int
    name: str
    since: str


def _stat(pid: int) -> tuple[int, str, str, str] | None:
    """(parent pid, state, name, start time) of a process, or ``None`` when there is none."""
    if sys.platform.startswith("linux"):
        try:
            text = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        name = text[text.index("(") + 1:text.rindex(")")]  # a name may hold spaces and parentheses
        fields = text[text.rindex(")") + 2:].split()  # from the 3rd field of proc(5)'s stat: state, ppid, …
        return int(fields[1]), fields[0], name, fields[19]  # starttime, the 22nd
    answer = subprocess.run(["ps", "-o", "ppid=", "-o", "stat=", "-o", "comm=", "-p", str(pid)],
                            capture_output=True, text=True, timeout=STOP_BOUND)
    parts = answer.stdout.split(None, 2)
    if answer.returncode or len(parts) < 3:
        return None
    return int(parts[0]), parts[1][:1], Path(parts[2].strip()).name, ""


def _pids() -> list[int]:
    if sys.platform.startswith("linux"):
        return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]
    answer = subprocess.run(["ps", "-A", "-o", "pid="], capture_output=True, text=True, timeout=STOP_BOUND,
                            check=True)
    return [int(line) for line in answer.stdout.split()]


def children(parent: int, name: str) -> list[Process]:
    """The running children of ``parent`` called ``name``."""
    found = []
    for pid in _pids():
        stat = _stat(pid)
        if stat is not None and stat[0] == parent and stat[2] == name and stat[1] not in "ZX":
            found.append(Process(pid, name, stat[3]))
    return found


def alive(process: Process) -> bool:
    """Whether ``process`` still runs (a zombie, or another process under its pid, does not)."""
    stat = _stat(process.pid)
    return stat is not None and stat[1] not in "ZX" and stat[3] == process.since


class Started:
    """The processes a test started; :meth:`close` (the ``started`` fixture's end) kills any
    still running, so none outlives the test, passed or failed."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.popens: list[subprocess.Popen[str]] = []
        self.others: list[Process] = []
        self._lines: dict[int, queue.SimpleQueue[str]] = {}
        self._errors: dict[int, Path] = {}

    def serve(self, *args: str, ignore_sighup: bool = False) -> subprocess.Popen[str]:
        """``python -m yinsh serve ARGS`` from the repository as a non-interactive shell starts
        ``… &`` (POSIX: SIGINT and SIGQUIT ignored); with ``ignore_sighup``, as ``nohup … &``."""
        job = _background_job(("SIGINT", "SIGQUIT") + (("SIGHUP",) if ignore_sighup else ()))
        errors = self.tmp / f"serve-{len(self.popens)}.stderr"
        with open(errors, "w", encoding="utf-8") as stderr:
            process = subprocess.Popen([sys.executable, "-c", job, sys.executable, "-m", "yinsh", "serve", *args],
                                       cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr,
                                       text=True)
        self.popens.append(process)
        self._errors[process.pid] = errors
        lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        self._lines[process.pid] = lines
        threading.Thread(target=_read, args=(process.stdout, lines), daemon=True).start()
        return process

    def line(self, process: subprocess.Popen[str], bound: float = START_BOUND) -> str:
        """The next line ``process`` prints, within ``bound`` seconds."""
        try:
            line = self._lines[process.pid].get(timeout=bound)
        except queue.Empty:
            self.fail(f"yinsh serve (pid {process.pid}) printed no line within {bound} s")
        if not line:
            self.fail(f"yinsh serve (pid {process.pid}) closed its output (status {process.poll()}) before its "
                      f"line:\n{self.stderr(process)}")
        return line

    def stderr(self, process: subprocess.Popen[str]) -> str:
        """What ``process`` has written to its standard error so far."""
        return self._errors[process.pid].read_text(encoding="utf-8", errors="replace")

    def watch(self, process: Process) -> Process:
        """Kill ``process`` too at the end if it is still running."""
        self.others.append(process)
        return process

    def wait(self, process: subprocess.Popen[str], bound: float, what: str) -> int:
        """``process``'s exit status, within ``bound`` seconds (else the test fails: ``what``)."""
        try:
            return process.wait(bound)
        except subprocess.TimeoutExpired:
            self.fail(f"{what} did not stop within {bound} s")

    def gone(self, process: Process, bound: float, what: str) -> None:
        """Return once ``process`` has ended, within ``bound`` seconds (else the test fails: ``what``)."""
        deadline = time.monotonic() + bound
        while alive(process):
            if time.monotonic() > deadline:
                self.fail(f"{what} did not stop within {bound} s")
            time.sleep(0.05)

    def fail(self, message: str) -> NoReturn:
        """Kill every process the test started, then fail with ``message``."""
        survivors = self.close()
        pytest.fail(message + (f" (killed: {', '.join(survivors)})" if survivors else ""), pytrace=False)

    def close(self) -> list[str]:
        """SIGKILL each process still running (the relays first, then the servers); which ones."""
        killed = []
        for other in self.others:
            if alive(other):
                try:
                    os.kill(other.pid, signal.SIGKILL)
                    killed.append(f"{other.name} {other.pid}")
                except ProcessLookupError:
                    pass
        for process in self.popens:
            if process.poll() is None:
                process.kill()
                killed.append(f"yinsh serve {process.pid}")
            try:
                process.wait(STOP_BOUND)  # reaped: no zombie left behind
            except subprocess.TimeoutExpired:
                killed.append(f"yinsh serve {process.pid} (unkillable)")
        self.others.clear()
        return killed


def _read(stream: IO[str] | None, lines: queue.SimpleQueue[str]) -> None:
    """Hand each line of ``stream`` on, then ``''`` at its end (the process's: it is then closed)."""
    if stream is not None:
        with stream:
            for line in stream:
                lines.put(line)
    lines.put("")
