"""Bot processes for the tests, started from a parent that has imported the bot once.

``python -m bot`` spends 6-10 s of CPU importing aiogram (pydantic builds its models) before it
does anything; the kill -9 and standby tests start it dozens of times. ``start_bot`` forks
each process instead from a fork server (``multiprocessing``'s ``forkserver``, one per pytest
worker, started at the first call) that imported the bot's modules once, before any event loop
or thread existed. The child is a real process of its own — its own pid, killable with
``kill -9``, its output in a file — and runs the module as ``python -m MODULE`` would
(``runpy``, ``__name__ == "__main__"``), under the environment and working directory given.
What differs from ``python -m bot``: the interpreter's start and the imports are not paid again,
and the environment variables the interpreter itself reads at start (``PYTHON*``) do not apply.
The tests whose subject is the command itself (``tests/bot/test_process.py``,
``test_check.py``, ``tests/test_install.py``) start the real ``python -m bot``.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import multiprocessing
import os
import runpy
import signal
import sys
from collections.abc import Mapping, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

# what ``python -m bot`` imports before it serves (bot/__main__.py imports these lazily); not
# ``bot.__main__`` itself: runpy runs it afresh as ``__main__``
PRELOAD = ["bot.app", "bot.memory", "bot.cluster.standby", "bot.delivery.sender", "storage.db",
           "tests.bot_spawn"]

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(PRELOAD)


_server_pid: int | None = None  # the fork server's, learnt at the first start


def _report_parent(conn: Connection) -> None:
    """In a probe child: the pid of the process that forked it, the fork server."""
    conn.send(os.getppid())
    conn.close()


def _find_server() -> int:
    """Starts the fork server (if not yet: it imports PRELOAD first) and returns its pid, as
    the parent of a child it forks: multiprocessing does not tell it."""
    reader, writer = _context.Pipe(duplex=False)
    probe = _context.Process(target=_report_parent, args=(writer,), daemon=True)
    probe.start()
    writer.close()
    with reader:
        pid = int(reader.recv())
    probe.join()
    return pid


def _stop_server() -> None:
    for child in _context.active_children():  # a bot a test left running
        child.kill()
        child.join()
    # the fork server is this process's child: reaped here, its CPU (and that of the bots it
    # forked) counts in this process's RUSAGE_CHILDREN, as a ``python -m bot`` child's would;
    # killed, as it has nothing of its own to save and ends only when this process does
    if _server_pid is not None:
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(_server_pid, signal.SIGKILL)
            os.waitpid(_server_pid, 0)


atexit.register(_stop_server)


def server_cpu() -> float:
    """CPU seconds of the fork server and of the bots it forked and reaped (0 before it
    started): they are not this process's children, so RUSAGE_CHILDREN does not see them."""
    try:
        stat = Path(f"/proc/{_server_pid}/stat").read_text() if _server_pid else ""
    except OSError:
        return 0.0
    fields = stat.rsplit(")", 1)[-1].split()  # after the command's name: state is fields[0]
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK") if fields else 0.0


def _run(module: str, argv: Sequence[str], env: Mapping[str, str], cwd: str, output: str,
         errors: str) -> None:
    """In the child: what ``python -m MODULE ARGV`` does, in ``cwd`` under ``env``."""
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    for target, path in ((1, output), (2, errors)):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(fd, target)
        os.close(fd)
    # as the interpreter sets them up for a file: stdout block-buffered, stderr line-buffered
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace",  # noqa: SIM115
                      buffering=1, closefd=False)
    sys.argv = [module, *argv]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


class BotProcess:
    """A forked bot: the part of ``asyncio.subprocess.Process`` the tests use (``pid``,
    ``returncode``, ``send_signal``, ``kill``, ``terminate``, ``wait``), and its output."""

    def __init__(self, process: BaseProcess, output: Path, errors: Path) -> None:
        self._process = process
        self.output_path, self.errors_path = output, errors
        pid = process.pid
        assert pid is not None
        self.pid: int = pid

    @property
    def returncode(self) -> int | None:
        """As asyncio's: the exit status, or minus the signal that ended it."""
        return self._process.exitcode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    async def wait(self) -> int:
        """Wakes when the fork server reports the exit (a pipe turns readable), no polling."""
        loop = asyncio.get_running_loop()
        sentinel = self._process.sentinel
        while (code := self._process.exitcode) is None:
            ready = asyncio.Event()
            loop.add_reader(sentinel, ready.set)
            try:
                await ready.wait()
            finally:
                loop.remove_reader(sentinel)
        return code

    def output(self) -> str:
        """What the process wrote to stdout (and stderr, unless it has a file of its own)."""
        return _read(self.output_path)

    def errors(self) -> str:
        """What the process wrote to stderr."""
        return _read(self.errors_path)


def _read(path: Path) -> str:
    return path.read_text(errors="replace") if path.exists() else ""


async def start_bot(env: Mapping[str, str], cwd: Path, output: Path, module: str = "bot",
                    argv: Sequence[str] = (), errors: Path | None = None) -> BotProcess:
    """``python -m MODULE ARGV`` with ``env`` as its whole environment, in ``cwd``, stdout
    appended to ``output``, stderr to ``errors`` (default: ``output`` too); forked from the
    (pre-imported) fork server."""
    global _server_pid
    errors = output if errors is None else errors
    if _server_pid is None:  # waits for the fork server's imports: not on the event loop
        _server_pid = await asyncio.to_thread(_find_server)
    process = _context.Process(target=_run, args=(module, list(argv), dict(env), str(cwd),
                                                  str(output), str(errors)), daemon=True)
    await asyncio.to_thread(process.start)
    return BotProcess(process, output, errors)
