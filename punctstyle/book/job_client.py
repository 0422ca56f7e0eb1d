"""The per-book command's side of the book-job server (:mod:`punctstyle.book.job_server`).

Run as ``PYTHON -S -E job_client.py SOCKET PYTHON -m punctstyle.book.jobs.STEP ARGS...`` by the
launcher the server writes (the ``$PUNCTSTYLE_JOB_PYTHON`` of a local run): without ``site``
and with the standard library only, so that it starts in a few milliseconds. It hands the
server its command line, working directory, environment and standard streams (the three file
descriptors, over the Unix socket), waits for the job's exit status and exits with it: a job
ended by signal N exits with 128 + N, as a shell reports it.

When the server cannot be reached or does not take the job (gone, never started, stopping, a
fork refused, a command that is not a book job's), the client replaces itself with ``PYTHON
ARGS...``: the job runs as its own process, as without the server. Once the server has taken the
job (:data:`TAKEN`), a lost connection is an error of the job (exit status 1 and one line),
never a second run of it.

Kept free of the package's imports on purpose: the package is not importable without ``site``.
"""

from __future__ import annotations

import _signal  # signal.py and socket.py import enum and more: a third of the client's start
import _socket
import os
import sys

JOB_PREFIX = "punctstyle.book.jobs."
"""The modules the server runs; any other command runs as its own process."""

HEADER_BYTES = 4
"""A request's length, then the request; a reply's exit status: 4 bytes, big-endian."""

TAKEN = b"T"
"""The byte the server sends once it has forked the job. A connection that ends before it
(the server stopping, a fork refused) means the job was not started: the command runs it."""


def request_bytes(argv: list[str], cwd: bytes, environ: dict[bytes, bytes]) -> bytes:
    """A request as sent: its length (:data:`HEADER_BYTES`) then the fields separated by NUL
    bytes (which no argument, path or environment entry holds): the number of arguments, the
    arguments (``os.fsencode``), the working directory, then each environment entry as
    ``NAME=VALUE``."""
    fields = [b"%d" % len(argv), *map(os.fsencode, argv), cwd, *(k + b"=" + v for k, v in environ.items())]
    payload = b"\0".join(fields)
    return len(payload).to_bytes(HEADER_BYTES, "big") + payload


def parse_request(payload: bytes) -> dict:
    """The request :func:`request_bytes` wrote (without its length): ``{"argv": [...], "cwd":
    str, "env": {str: str}}``, names and values decoded as ``os.fsdecode`` does."""
    fields = payload.split(b"\0")
    count = int(fields[0])
    argv, cwd = [os.fsdecode(f) for f in fields[1 : 1 + count]], os.fsdecode(fields[1 + count])
    env = dict(os.fsdecode(entry).partition("=")[::2] for entry in fields[2 + count :])
    return {"argv": argv, "cwd": cwd, "env": env}


def status_bytes(status: int) -> bytes:
    """The job's status as the server sends it: the exit code, or minus the signal's number."""
    return status.to_bytes(HEADER_BYTES, "big", signed=True)


def shell_status(status: int) -> int:
    """A process' exit status as a shell reports it: ``status`` when at least 0, ``128 + N``
    for a job ended by signal N (``status == -N``)."""
    return status if status >= 0 else 128 - status


def is_book_job(job: list[str]) -> bool:
    """Whether ``job`` (the arguments after the Python) is ``-m punctstyle.book.jobs.STEP ...``."""
    return len(job) >= 2 and job[0] == "-m" and job[1].startswith(JOB_PREFIX)


def connect(path: str) -> _socket.socket | None:
    """A connection to the server's socket at ``path``, or None when nothing listens there."""
    conn = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        conn.connect(path)
    except OSError:
        conn.close()
        return None
    return conn


def send_request(conn: _socket.socket, job: list[str]) -> bool:
    """Send the job, the working directory, the environment and descriptors 0, 1, 2 (as
    ``socket.send_fds`` does); False when the server took none of it (then nothing runs there)."""
    data = request_bytes(job, os.getcwdb(), dict(os.environb))
    descriptors = b"".join(fd.to_bytes(4, sys.byteorder, signed=True) for fd in (0, 1, 2))
    try:
        sent = conn.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, descriptors)])
    except OSError:
        return False
    conn.sendall(data[sent:])
    return True


def receive_exactly(conn: _socket.socket, size: int) -> bytes | None:
    """``size`` bytes from the server, None when the connection ends (or breaks) first."""
    data = b""
    while len(data) < size:
        try:
            chunk = conn.recv(size - len(data))
        except OSError:
            return None
        if not chunk:
            return None
        data += chunk
    return data


def main(argv: list[str]) -> None:
    """``SOCKET PYTHON JOB...``: run JOB on the server at SOCKET, or exec ``PYTHON JOB...``."""
    _signal.signal(_signal.SIGINT, _signal.SIG_DFL)  # Ctrl-C ends the command, no traceback
    path, python, job = argv[0], argv[1], argv[2:]
    conn = connect(path) if is_book_job(job) else None
    if conn is not None and send_request(conn, job) and receive_exactly(conn, len(TAKEN)) == TAKEN:
        status = receive_exactly(conn, HEADER_BYTES)
        if status is None:
            sys.stderr.write(f"punctstyle: the book-job server at {path} ended before the job {' '.join(job[1:3])}\n")
            sys.stderr.flush()
            os._exit(1)
        os._exit(shell_status(int.from_bytes(status, "big", signed=True)))
    if conn is not None:
        conn.close()
    os.execv(python, [python, *job])


if __name__ == "__main__":
    main(sys.argv[1:])
