"""Logging for workflow scripts: everything a rule's script says goes to its ``log:`` file."""

from __future__ import annotations

import errno
import logging
import os
import re
import sys
from types import TracebackType


def configure_logging(log_path: str | os.PathLike[str] | None, level: int = logging.INFO) -> logging.Logger:
    """Send the ``punctstyle`` logger (and warnings) to ``log_path`` (a rule's log file)."""
    logger = logging.getLogger("punctstyle")
    logger.setLevel(level)
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        handler.close()
    handler: logging.Handler
    if log_path:
        os.makedirs(os.path.dirname(os.fspath(log_path)) or ".", exist_ok=True)
        handler = logging.FileHandler(log_path, mode="w", encoding="utf-8")
    else:
        handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger.addHandler(handler)
    logging.captureWarnings(True)
    sys.excepthook = _one_line_excepthook
    return logger


ONE_LINE_ERRORS: tuple[str, ...] = ("InputError", "EmptySelectionError", "DownloadError")
"""Exceptions of ours whose message is the whole story (one line naming the file): a rule's
script that ends with one prints ``punctstyle: <message>`` and exits 1, no traceback."""
_DISK_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM})


def one_line_error(exc: BaseException) -> str | None:
    """The one line a script's uncaught exception is reported as, or None for a traceback
    (a bug): :data:`ONE_LINE_ERRORS` as their message; a full, read-only or forbidden disk as
    ``<file>: <strerror>`` (``results/books/7.json: No space left on device``)."""
    if type(exc).__name__ in ONE_LINE_ERRORS or any(
        cls.__name__ in ONE_LINE_ERRORS for cls in type(exc).__mro__
    ):
        return " ".join(str(exc).split())
    if isinstance(exc, OSError) and exc.errno in _DISK_ERRORS:
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror or exc} (nothing half-written is left behind)"
    return None


def _one_line_excepthook(
    kind: type[BaseException], exc: BaseException, traceback: TracebackType | None
) -> None:
    line = one_line_error(exc)
    if line is None:
        sys.__excepthook__(kind, exc, traceback)
        return
    logging.getLogger("punctstyle").error("%s", line)
    print(f"punctstyle: {line}", file=sys.stderr)
    sys.stderr.flush()


JOB_COST_PREFIX: str = "job cost:"
_JOB_COST = re.compile(re.escape(JOB_COST_PREFIX) + r" ([0-9.]+) CPU s, peak memory ([0-9.]+) MB")


def job_cost_line() -> str:
    """What this job has cost so far, exactly: ``job cost: <cpu> CPU s, peak memory <mb> MB``.

    CPU s = user + system time of this process and of its children that have ended
    (``getrusage``); peak memory = this process's maximum resident set. Snakemake's benchmark
    files sample a job's CPU time every 30 s, so they undercount it by up to 30 s a job.
    """
    import resource  # Unix only, like the workflow's jobs

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    peak_mb = own.ru_maxrss / 1024  # kilobytes on Linux
    return f"{JOB_COST_PREFIX} {cpu:.2f} CPU s, peak memory {peak_mb:.0f} MB"


def parse_job_cost(text: str) -> tuple[float, float] | None:
    """(CPU s, peak MB) of the last :func:`job_cost_line` in a log's text; None when it has none."""
    found = _JOB_COST.findall(text)
    return (float(found[-1][0]), float(found[-1][1])) if found else None
