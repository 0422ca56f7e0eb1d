"""The book-job server: the per-book jobs of a local run as forks of one warm process.

A per-book job (``python -m punctstyle.book.jobs.STEP``: a download or ingest, then the
extraction) spends most of its CPU starting: the interpreter, numpy, pyarrow, the package, the
tokenizer's regular expressions (docs/performance.md, "Cutting a book's processes"). The server
pays them once. It imports every module the jobs use (:data:`PRELOAD`), listens on a Unix
socket, and runs each job it is handed in a child forked for it, with the job's own command
line, working directory, environment and standard streams; the job's exit status goes back to
the command that handed it over (:mod:`punctstyle.book.job_client`), which exits with it.

Nothing else changes: each book keeps its jobs, rules, commands, outputs, logs, exclusions and
reruns (Snakemake still runs one ``shell:`` command a job; only the Python it names,
``$PUNCTSTYLE_JOB_PYTHON``, is the launcher of :func:`start_server` instead of the
interpreter). A job is a process of its own as before (a fork), so one job's crash, memory or
exit is its own. A fork that would have to compile a rules file's expressions finds them in
:mod:`re`'s cache: the server compiles each rules file once before forking (:func:`warm`).

The workflow starts it in a local run's ``onstart`` and stops it when Snakemake exits
(``workflow/rules/common.smk``, :func:`punctstyle.plan.book_jobs.job_server_wanted`); a
cluster job, a conda or container environment, a dry run, ``PUNCTSTYLE_BOOK_SERVER=off`` or a
system without ``os.pidfd_open`` runs each job as its own process, as before. The server ends
when it is told to (SIGTERM: it stops taking jobs and waits for those running), when its
parent process is gone (it ends its jobs, then removes its folder); it ends a job whose command
has gone (killed by Snakemake), and a job ends with the server however the server ends
(``PR_SET_PDEATHSIG``). A command is told its job is taken only once the fork is made: one the
server does not take (stopping, a fork refused) runs its job itself. An error while handling one
event is written to the server's error stream, which :meth:`RunningServer.stop` shows, and the
server goes on.

``python -m punctstyle.book.job_server SOCKET PARENT_PID`` runs it; it writes ``ready`` on
standard output once it listens.
"""

from __future__ import annotations

import ctypes
import functools
import importlib
import os
import runpy
import select
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Sequence
from typing import NoReturn
from dataclasses import dataclass, field
from pathlib import Path

from punctstyle.book import job_client
from punctstyle.job_threads import THREAD_VARIABLES, limit_numeric_threads

PRELOAD: tuple[str, ...] = (
    # the jobs' package, not their modules: each runs as ``__main__`` (runpy warns when the
    # module is imported already, as ``python -m`` would)
    "punctstyle.book.jobs",
    "argparse",
    "dataclasses",
    # what the steps import when they run (inside their functions, so that a process of one
    # step imports only its own): tests/unit/test_job_server.py checks that a job run by the
    # server imports nothing more
    "punctstyle.logs",
    "punctstyle.io",
    "punctstyle.book.inclusion",
    "punctstyle.book.steps",
    "punctstyle.book.job_exit",
    "punctstyle.text.chunk_cache",
    "punctstyle.text.tokenizer",
    "punctstyle.sources.download",
    "punctstyle.sources.provenance",
    "punctstyle.sources.folder",
    "punctstyle.sources.tei_job",
    "requests",
    "lxml.etree",
    "gutenbergpy",  # its folder: the marker sets are read from its source (punctstyle.text.clean)
    "encodings.cp437",  # a zip member's name
    "encodings.utf_32_le",  # a text's encoding, tried
)
"""The modules the server imports before its first job."""

READY = "ready"
"""The line the server writes on standard output once it listens."""

PARENT_POLL_S = 1.0
"""How often the server checks that its parent (Snakemake) is alive, in seconds."""

REQUEST_TIMEOUT_S = 10.0
"""How long the server waits for a request's bytes once a command has connected."""

START_TIMEOUT_S = 60.0
"""How long :func:`start_server` waits for ``ready``."""

STOP_TIMEOUT_S = 60.0
"""How long :meth:`RunningServer.stop` waits for the jobs still running before killing them."""

INTERRUPTED = 128 + signal.SIGINT
"""A job's status after Ctrl-C (as a shell reports a process ended by SIGINT)."""

PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when its parent ends."""

MAX_REQUEST_BYTES = 16 * 1024 * 1024
"""A request longer than this (an environment of 16 MB) is refused."""


def preload(modules: Sequence[str] = PRELOAD) -> None:
    """Import ``modules`` with the numerical libraries' thread pools at one thread (the per-book
    jobs run on one thread each, and a fork copies only the forking thread)."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"  # a user's export too: each book's rule has one thread
    limit_numeric_threads(1)
    for name in modules:
        importlib.import_module(name)
    libc()


def rules_path(argv: Sequence[str]) -> str | None:
    """The rules file of an extraction's command line (``-m punctstyle.book.jobs.extract ...
    --rules PATH``), None for any other command."""
    if list(argv[:2]) != ["-m", "punctstyle.book.jobs.extract"] or "--rules" not in argv[:-1]:
        return None
    return argv[list(argv).index("--rules") + 1]


def warm(path: str) -> None:
    """Build in the server what an extraction builds from the rules file ``path`` (its
    tokenizer's expressions compiled): :mod:`re` caches compiled expressions by pattern and
    flags, so a forked extraction's own compilation of the same rules is a cache hit. A rules
    file that cannot be read is left to the job, which reports it."""
    from punctstyle.text.chunk_cache import ChunkCachedExtractor
    from punctstyle.text.tokenizer import TokenizerRules

    try:
        ChunkCachedExtractor(rules=TokenizerRules.load(path, check_version=False))
    except Exception:  # noqa: BLE001 - whatever is wrong with the file, the job reports it
        return


def exit_code(exc: SystemExit) -> int:
    """The exit status Python gives a ``SystemExit``: its code, 0 for None, 1 (after writing the
    message to standard error) for anything else."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code
    sys.stderr.write(f"{exc.code}\n")
    return 1


def run_job(request: dict, fds: Sequence[int]) -> int:
    """In the forked child: become the job (standard streams ``fds``, the request's working
    directory, environment and ``sys.argv``), run its module as ``__main__`` and return its exit
    status. A job that ends with :func:`~punctstyle.book.job_exit.finish_job` leaves the process
    itself."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        if fd > 2:
            os.close(fd)
    os.chdir(request["cwd"])
    threads = {name: os.environ[name] for name in THREAD_VARIABLES if name in os.environ}
    os.environ.clear()
    os.environ.update(request["env"])
    os.environ.update(threads)  # the thread pools this process has (numpy's, imported at one thread)
    argv = request["argv"]
    sys.argv = [argv[0], *argv[2:]]
    try:
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exc:
        code = exit_code(exc)
    except BaseException as exc:  # noqa: BLE001 - as Python ends a process on an uncaught exception
        sys.excepthook(*sys.exc_info())  # the package's one-line errors (punctstyle.logs)
        code = INTERRUPTED if isinstance(exc, KeyboardInterrupt) else 1
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    return code


def become_job(request: dict, fds: Sequence[int]) -> NoReturn:
    """The forked child's whole life: :func:`run_job`, then ``os._exit`` with its status, 1 when
    the job could not even start (its working directory gone, say: the error on its standard
    error stream). Never returns, so a child can never go back to the server's loop."""
    code = 1
    try:
        code = run_job(request, fds)
    except BaseException:  # noqa: BLE001 - reported on the job's stream, then the status 1
        sys.excepthook(*sys.exc_info())
        sys.stderr.flush()
    finally:
        os._exit(code)


def read_request(conn: socket.socket) -> tuple[dict, list[int]]:
    """A request from a command (:func:`punctstyle.book.job_client.request_bytes`), parsed, and
    the descriptors that came with it. Raises ``ValueError`` on a malformed one."""
    conn.settimeout(REQUEST_TIMEOUT_S)
    data, fds, _flags, _addr = socket.recv_fds(conn, 65536, 3)
    if len(fds) != 3:
        for fd in fds:
            os.close(fd)
        raise ValueError(f"a request needs 3 descriptors, it came with {len(fds)}")
    try:
        while len(data) < job_client.HEADER_BYTES:
            data += _chunk(conn)
        length = int.from_bytes(data[: job_client.HEADER_BYTES], "big")
        if length > MAX_REQUEST_BYTES:
            raise ValueError(f"a request of {length} bytes (at most {MAX_REQUEST_BYTES})")
        while len(data) < job_client.HEADER_BYTES + length:
            data += _chunk(conn)
        request = job_client.parse_request(data[job_client.HEADER_BYTES :])
        if not job_client.is_book_job(request["argv"]):
            raise ValueError(f"not a book job: {request['argv']!r}")
    except (ValueError, OSError, IndexError):
        for fd in fds:
            os.close(fd)
        raise ValueError("a malformed request") from None
    conn.settimeout(None)
    return request, fds


def _chunk(conn: socket.socket) -> bytes:
    chunk = conn.recv(65536)
    if not chunk:
        raise ValueError("the request ended early")
    return chunk


@dataclass
class Job:
    """A job the server forked: its process, the descriptor that says when it ends, and the
    command's connection its status goes back on."""

    pid: int
    pidfd: int
    conn: socket.socket


@dataclass
class Server:
    """The server's loop over its listening socket, its jobs' ends and its commands'
    connections (one :mod:`selectors` loop in one thread; the libraries' own threads, such as
    pyarrow's allocator's, are not the server's and have fork handlers)."""

    listener: socket.socket
    parent_pid: int
    jobs: dict[int, Job] = field(default_factory=dict)
    stopping: bool = False
    orphaned: bool = False

    def serve(self) -> None:
        """Take jobs until told to stop or orphaned, then wait for the running ones. An error
        while handling one event (a failed fork, a bad request) is written to the server's error
        stream and the loop goes on: one job's trouble never ends the others."""
        selector = selectors.DefaultSelector()
        selector.register(self.listener, selectors.EVENT_READ, "accept")
        while self.jobs or not self.stopping:
            if not self.orphaned and os.getppid() != self.parent_pid:
                self.orphaned = True  # its starter is gone: so are the jobs' commands
                self.stop_taking()
                for job in self.jobs.values():
                    _kill(job.pid)
            if self.stopping and self.listener.fileno() >= 0:
                selector.unregister(self.listener)
                self.listener.close()
            for key, _events in selector.select(PARENT_POLL_S):
                try:
                    self.handle(selector, key.data)
                except Exception:  # noqa: BLE001 - reported, and the loop serves the others
                    traceback.print_exc()
        selector.close()

    def handle(self, selector: selectors.BaseSelector, event: str | tuple[str, int]) -> None:
        """One event: a command connecting (``"accept"``), a job ending (``("ended", pid)``) or a
        job's command gone (``("gone", pid)``: its connection readable before the job ended:
        the job is ended too). A command's ``gone`` after its job's ``ended`` in the same round
        finds no job and does nothing."""
        if event == "accept":
            self.accept(selector)
        elif event[0] == "ended":
            self.ended(selector, event[1])
        elif event[1] in self.jobs:
            selector.unregister(self.jobs[event[1]].conn)
            _kill(event[1])

    def stop_taking(self) -> None:
        self.stopping = True

    def take_signals(self) -> None:
        """SIGTERM: stop taking jobs (then end once the running ones have); SIGINT (Ctrl-C) is
        Snakemake's to handle. Set before the server says ``ready``: its starter may stop it at
        once."""
        signal.signal(signal.SIGTERM, lambda *_: self.stop_taking())
        signal.signal(signal.SIGINT, signal.SIG_IGN)

    def accept(self, selector: selectors.BaseSelector) -> None:
        """Take a command's request, fork its job and tell the command it is taken
        (:data:`~punctstyle.book.job_client.TAKEN`). A request that cannot be read, or a job
        that cannot be forked, is closed without it: the command then runs the job itself."""
        conn, _addr = self.listener.accept()
        try:
            request, fds = read_request(conn)
        except (ValueError, OSError):
            conn.close()
            return
        try:
            self.warm(request)
            pid = self.fork(selector, conn, request, fds)
        finally:
            for fd in fds:
                os.close(fd)
        if pid is None:
            conn.close()
            return
        try:
            conn.sendall(job_client.TAKEN)
        except OSError:
            pass  # the command has gone: its "gone" event ends the job
        pidfd = os.pidfd_open(pid)
        self.jobs[pid] = Job(pid, pidfd, conn)
        selector.register(pidfd, selectors.EVENT_READ, ("ended", pid))
        selector.register(conn, selectors.EVENT_READ, ("gone", pid))

    def fork(
        self, selector: selectors.BaseSelector, conn: socket.socket, request: dict, fds: Sequence[int]
    ) -> int | None:
        """Fork the job's child (which never returns here); its pid, None when the system
        refuses a fork."""
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        # the job's signals blocked across the fork: a SIGTERM sent to the child before it has
        # its own handlers (its command killed at once) waits for them instead of being lost
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
        try:
            pid = os.fork()
        except OSError:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            traceback.print_exc()
            return None
        if pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            end_with_parent(os.getppid())
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
            selector.close()
            self.listener.close()
            conn.close()
            for job in self.jobs.values():
                os.close(job.pidfd)
                job.conn.close()
            become_job(request, fds)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        return pid

    def warm(self, request: dict) -> None:
        """:func:`warm` for an extraction's rules file (a file read before costs a cache lookup:
        :meth:`~punctstyle.text.tokenizer.TokenizerRules.load` keeps it by path, inode,
        modification time and size)."""
        path = rules_path(request["argv"])
        if path is not None:
            warm(os.path.join(request["cwd"], path))

    def ended(self, selector: selectors.BaseSelector, pid: int) -> None:
        job = self.jobs.pop(pid)
        _pid, status = os.waitpid(pid, 0)
        selector.unregister(job.pidfd)
        os.close(job.pidfd)
        try:
            selector.unregister(job.conn)
        except KeyError:
            pass  # unregistered when the command went
        try:
            job.conn.sendall(job_client.status_bytes(os.waitstatus_to_exitcode(status)))
        except OSError:
            pass  # the command has gone
        job.conn.close()


@functools.cache
def libc() -> ctypes.CDLL:
    """The C library of this process (loaded once, in the server, before its first fork)."""
    return ctypes.CDLL(None, use_errno=True)


def end_with_parent(parent_pid: int) -> None:
    """In a forked job: be killed (SIGKILL) when the server ends, however it ends (Linux's
    ``PR_SET_PDEATHSIG``), so that a server killed while its jobs run leaves none behind to
    write outputs Snakemake has given up; a server already gone ends the job at once."""
    libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(1)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        pass


def supported() -> bool:
    """Whether this system can run the server: Unix sockets that carry descriptors and
    ``os.pidfd_open`` (Linux 5.3 or later)."""
    if not (hasattr(os, "pidfd_open") and hasattr(socket, "send_fds") and hasattr(os, "fork")):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:
        return False
    return True


def launcher_text(python: str, client: str, socket_path: str) -> str:
    """The launcher script: ``exec PYTHON -S -E CLIENT SOCKET PYTHON "$@"`` (each path quoted
    for ``sh``)."""
    from shlex import quote

    return f'#!/bin/sh\nexec {quote(python)} -S -E {quote(client)} {quote(socket_path)} {quote(python)} "$@"\n'


@dataclass
class RunningServer:
    """A started server: its process, its folder (socket and launcher) and the launcher to give
    the jobs as their Python."""

    process: subprocess.Popen
    folder: Path
    launcher: Path

    @property
    def error(self) -> str:
        """The last line the server wrote to its error output ('' when none)."""
        lines = self.report().strip().splitlines()
        return lines[-1] if lines else ""

    def stop(self) -> int:
        """Ask the server to stop (it waits for its running jobs), wait for it (its CPU time, and
        its jobs', is then counted in this process' children), write what it reported, if
        anything, to standard error, remove its folder; returns its exit status. A server that
        does not end within :data:`STOP_TIMEOUT_S` is killed, and its jobs with it
        (:func:`end_with_parent`)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        report = self.report()
        if report or self.process.returncode:
            sys.stderr.write(f"book-job server (exit status {self.process.returncode}):\n{report}")
        shutil.rmtree(self.folder, ignore_errors=True)
        return self.process.returncode

    def report(self) -> str:
        """What the server wrote to its error stream ('' when nothing)."""
        try:
            return (self.folder / "server.log").read_text(errors="replace")
        except OSError:
            return ""


def start_server(python: str = sys.executable, timeout_s: float = START_TIMEOUT_S) -> RunningServer:
    """Start a server under ``python`` in a new temporary folder, wait until it listens (at most
    ``timeout_s``) and write its launcher there. Raises ``RuntimeError`` (with the last line of
    the server's error output) when it does not start."""
    try:
        folder = Path(tempfile.mkdtemp(prefix="punctstyle-jobs-"))
    except OSError as exc:
        raise RuntimeError(f"the book-job server did not start: no temporary folder ({exc})") from None
    socket_path = folder / "socket"
    try:
        with open(folder / "server.log", "wb") as errors:
            process = subprocess.Popen(
                [python, "-m", "punctstyle.book.job_server", str(socket_path), str(os.getpid())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=errors,
                text=True,
            )
    except OSError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"the book-job server did not start: {python}: {exc.strerror}") from None
    launcher = folder / "python"
    server = RunningServer(process, folder, launcher)
    ready, _, _ = select.select([process.stdout], [], [], timeout_s)
    line = process.stdout.readline().strip() if ready else f"not ready within {timeout_s:g} s"
    process.stdout.close()
    problem = ""
    if line != READY:
        try:
            process.wait(1.0 if ready else 0.0)  # ended (its error written) or still starting
        except subprocess.TimeoutExpired:
            pass
        problem = server.error or line or "it ended before it was ready"
    if not problem:
        try:
            launcher.write_text(launcher_text(python, job_client.__file__, str(socket_path)))
            launcher.chmod(0o755)
        except OSError as exc:
            problem = f"its launcher could not be written ({exc})"
    if not problem and not os.access(launcher, os.X_OK):  # Linux's access() says no on a noexec mount
        problem = f"{folder} cannot hold a program (mounted noexec?)"
    if problem:
        process.kill()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"the book-job server did not start: {problem}")
    return server


def main(argv: Sequence[str]) -> None:
    """``SOCKET PARENT_PID``: preload, listen on SOCKET, write ``ready``, serve."""
    socket_path, parent_pid = argv[0], int(argv[1])
    preload()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(64)
    server = Server(listener, parent_pid)
    server.take_signals()
    sys.stdout.write(READY + "\n")
    sys.stdout.flush()
    # the jobs write to their own streams; the server's standard output was the starter's pipe
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    server.serve()
    if server.orphaned:  # nobody is left to remove its folder (RunningServer.stop does otherwise)
        shutil.rmtree(os.path.dirname(os.path.abspath(socket_path)), ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv[1:])
