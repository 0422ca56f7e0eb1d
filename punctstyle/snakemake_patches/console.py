"""A console a person can read (issue 26 item 7): each job's listing on the console kept short.

Snakemake prints every job it starts with its ``input``, ``output`` and ``log`` paths and the
``reason`` it runs, each list on one line. An aggregate job (the corpus tables, a recognition
row, the length curve) reads one file per book, so on 1,166 books each of its listings held
about 1,100 paths twice (inputs, and "Input files updated by another job" in the reason): the
console of one default run reached 4.5 MB and buried the progress lines.

:func:`install_short_job_listing` (called by ``common.smk`` at parse time) gives Snakemake's
console handler a formatter that keeps the first :data:`KEEP_PATHS` paths of each list and says
how many there are in all, and cuts a long reason at :data:`REASON_CHARS` characters; the lines
``Shell command: None``, ``Select jobs to execute...`` and ``Execute N jobs...`` printed for every
job are left out (:class:`ConsoleNoise`). Only the
console changes: Snakemake's log file (``.snakemake/log/*.snakemake.log``, named at the end of
the run) keeps every path and the whole reason, and each job's own log is untouched. Guarded
like :mod:`punctstyle.snakemake_patches.scheduler_timers`: a Snakemake whose console handler or formatter is
not the one this was written for keeps its own listing (one warning line), never a failure.
Switched off by the environment variable ``PUNCTSTYLE_CONSOLE=full``.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import Any

KEEP_PATHS = 3
"""Paths of a list shown on the console (the rest counted)."""
REASON_CHARS = 300
"""Characters of a job's reason shown on the console."""
STREAM_HANDLER = "DefaultStreamHandler"
"""The name Snakemake 9 gives its console handler (``snakemake.logging``)."""
LIST_FIELDS = ("input", "output", "log")


def short_paths(paths: Sequence[str], keep: int = KEEP_PATHS) -> list[str]:
    """``paths`` when at most ``keep + 1`` of them, else the first ``keep`` and one entry
    ``"... N more (M in all)"`` (a list of ``keep + 1`` entries)."""
    paths = list(paths)
    if len(paths) <= keep + 1:
        return paths
    return paths[:keep] + [f"... {len(paths) - keep:,} more ({len(paths):,} in all; every path in the log file)"]


def short_reason(reason: Any, limit: int = REASON_CHARS) -> Any:
    """The reason's text cut at ``limit`` characters, with the length in all (a reason that
    is not a string, or a short one, unchanged)."""
    if not isinstance(reason, str) or len(reason) <= limit:
        return reason
    return f"{reason[:limit]} ... ({len(reason):,} characters; the whole reason in the log file)"


def short_job_info(message: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of a job-info record's fields with its path lists and reason shortened (the
    record itself, shared with the log file's handler, is not changed)."""
    short = dict(message)
    for field in LIST_FIELDS:
        value = short.get(field)
        if isinstance(value, (list, tuple)):
            short[field] = short_paths([str(p) for p in value])
    if "reason" in short:
        short["reason"] = short_reason(short["reason"])
    return short


def short_listing_formatter(formatter: logging.Formatter) -> logging.Formatter:
    """A formatter that formats as ``formatter`` does, with job listings shortened
    (:func:`short_job_info`); ``formatter`` must have Snakemake's ``format_job_info``."""
    base = type(formatter)

    class ShortJobListing(base):  # type: ignore[misc, valid-type]
        def format_job_info(self, msg: dict[str, Any]) -> str:
            return super().format_job_info(short_job_info(msg))

    short = ShortJobListing.__new__(ShortJobListing)
    short.__dict__.update(formatter.__dict__)
    return short


SCHEDULER_NOISE = re.compile(r"Select jobs to execute\.\.\.|\n?Execute \d+ jobs\.\.\.\n?")
"""The scheduler's messages of every round, left off the console (:class:`ConsoleNoise`)."""


class ConsoleNoise(logging.Filter):
    """Drops, on the console, the lines that say nothing about a job: ``Shell command: None``
    (printed with ``printshellcmds`` for every job of a ``script:`` rule; a real shell command
    passes) and the scheduler's ``Select jobs to execute...`` and ``Execute N jobs...`` of every
    round (:data:`SCHEDULER_NOISE`)."""

    def filter(self, record: logging.LogRecord) -> bool:
        event = getattr(record, "event", None)
        if getattr(event, "name", None) == "SHELLCMD":
            return getattr(record, "shellcmd", "") is not None
        if getattr(event, "name", None) in (None, "JOB_STARTED") and isinstance(record.msg, str):
            return not SCHEDULER_NOISE.fullmatch(record.msg)
        return True


def install_short_job_listing(logger_name: str = "snakemake.logging") -> bool:
    """Give Snakemake's console handler the short listing (module docstring); True when
    installed. Nothing changes (and one line on stderr says why) when the handler or its
    formatter is not Snakemake 9's; ``PUNCTSTYLE_CONSOLE=full`` keeps Snakemake's listing."""
    if os.environ.get("PUNCTSTYLE_CONSOLE", "").lower() == "full":
        return False
    handlers = [h for h in logging.getLogger(logger_name).handlers if h.name == STREAM_HANDLER]
    if not handlers:  # e.g. a logger plugin writes to the console: leave it alone
        return False
    installed = False
    for handler in handlers:
        formatter = handler.formatter
        if formatter is None or not callable(getattr(formatter, "format_job_info", None)):
            print(
                "punctstyle: Snakemake's console formatter has no format_job_info; keeping its full job listing",
                file=sys.stderr,
            )
            continue
        if type(formatter).__name__ != "ShortJobListing":
            handler.setFormatter(short_listing_formatter(formatter))
            handler.addFilter(ConsoleNoise())
        installed = True
    return installed
