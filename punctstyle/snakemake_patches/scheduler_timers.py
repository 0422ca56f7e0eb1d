"""One pending re-evaluation timer for Snakemake's job scheduler (issue 10: scheduling at scale).

Snakemake 9's ``JobScheduler.schedule()`` runs one scheduling pass each time its counting
semaphore ``_open_jobs`` is released. Every finished job releases it, and every pass that
finds jobs ready (say, waiting for a free core) ends by arming a ``threading.Timer``
(``_schedule_reevalutation``, the rate limiter's timespan: 1 s by default) that releases it
again. The pass that timer wakes finds jobs still ready and arms the next: each finished job
starts a chain of one pass a second that lasts as long as jobs wait. A per-book run always
has books waiting, so after k finished jobs the scheduler makes about k passes a second, each
statting the inputs of up to ``--scheduler-subsample`` ready jobs: the main process's CPU per
job grows with the jobs one invocation has finished (quadratic in the run), which
``--touch`` runs (no rate limiter, hence no timers) do not show.

:func:`coalesce_reevaluation_timers` replaces that method with one that keeps at most one
pending timer (the earliest due wins). No wake-up is lost: a timer clears the pending mark
before it releases the semaphore, so the pass it wakes arms the next timer when jobs are still
ready. The timers are daemon threads, so a finished Snakemake does not wait for one to expire.
Measured on the workflow (``benchmarks/bench_workflow.py``) and on trivial jobs
(``benchmarks/bench_scheduler_timers.py``); see docs/snakemake-timer-report.md.

:func:`install_for_workflow` is what ``common.smk`` calls at parse time: guarded, so that a
Snakemake this was not written for (another major version, a moved module, a renamed method
or semaphore) gets one warning line and keeps Snakemake's own scheduler, never a parse failure
or a stall. Switched off by the config key ``scheduler_timers: false`` (a profile's
``config:``) or the environment variable ``PUNCTSTYLE_SCHEDULER_TIMERS=off``.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from importlib import metadata
from dataclasses import dataclass, field
from typing import Any

PATCHED_METHOD = "_schedule_reevalutation"  # Snakemake's spelling
SEMAPHORE_ATTRIBUTE = "_open_jobs"
SCHEDULER_MODULE = "snakemake.scheduling.job_scheduler"
SUPPORTED_MAJOR_VERSIONS = (9,)
"""Snakemake major versions whose scheduler this was written for and tested on (9.x)."""
ENVIRONMENT_SWITCH = "PUNCTSTYLE_SCHEDULER_TIMERS"
_OFF_VALUES = {"0", "off", "false", "no"}
STATE_ATTRIBUTE = "_punctstyle_reevaluation_timer"


@dataclass
class PendingTimer:
    """When the one pending re-evaluation timer of a scheduler is due (monotonic s), if any."""

    due: float | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


def schedule_one_reevaluation(scheduler: Any, delay: float) -> None:
    """Release ``scheduler._open_jobs`` after ``delay`` seconds, unless a pending timer of
    this scheduler is due no later than ``now + delay`` (then that one wakes it)."""
    state = scheduler.__dict__.get(STATE_ATTRIBUTE)
    if state is None:  # only the scheduling loop's thread arms timers
        state = scheduler.__dict__.setdefault(STATE_ATTRIBUTE, PendingTimer())
    due = time.monotonic() + float(delay)
    with state.lock:
        if state.due is not None and state.due <= due:
            return
        state.due = due

    def wake() -> None:
        with state.lock:
            if state.due == due:
                state.due = None
        scheduler._open_jobs.release()

    timer = threading.Timer(float(delay), wake)
    timer.daemon = True
    timer.start()


def coalesce_reevaluation_timers(scheduler_class: type | None = None) -> bool:
    """Give ``scheduler_class`` (default: Snakemake's ``JobScheduler``) the one-timer method.

    Returns True when the class has the method this replaces (now or before), False when it
    does not (another Snakemake version: left as it is). Idempotent.
    """
    if scheduler_class is None:
        from snakemake.scheduling.job_scheduler import JobScheduler as scheduler_class  # lazy: snakemake is slow to import
    method = getattr(scheduler_class, PATCHED_METHOD, None)
    if method is None:
        return False
    if method is not schedule_one_reevaluation:
        setattr(scheduler_class, PATCHED_METHOD, schedule_one_reevaluation)
    return True


def switched_on(config_value: bool = True, environ: dict[str, str] | None = None) -> bool:
    """The patch is wanted: config ``scheduler_timers`` true and the environment variable
    ``PUNCTSTYLE_SCHEDULER_TIMERS`` not one of 0/off/false/no."""
    environ = os.environ if environ is None else environ
    return bool(config_value) and environ.get(ENVIRONMENT_SWITCH, "").strip().lower() not in _OFF_VALUES


def version_supported(version: str) -> bool:
    """A Snakemake version string whose major version is in :data:`SUPPORTED_MAJOR_VERSIONS`."""
    major = version.split(".", 1)[0]
    return major.isdigit() and int(major) in SUPPORTED_MAJOR_VERSIONS


def scheduler_mismatch(scheduler_class: type) -> str | None:
    """Why ``scheduler_class`` is not the scheduler the patch expects, or None: it must have the
    method replaced and set the semaphore the timer releases in its ``__init__``."""
    if not callable(getattr(scheduler_class, PATCHED_METHOD, None)):
        return f"{scheduler_class.__name__} has no method {PATCHED_METHOD}"
    init = getattr(scheduler_class, "__init__", None)
    code = getattr(init, "__code__", None)
    if code is None or SEMAPHORE_ATTRIBUTE not in code.co_names:
        return f"{scheduler_class.__name__}.__init__ sets no {SEMAPHORE_ATTRIBUTE}"
    return None


def install_for_workflow(config_value: bool = True, warn: Any = None) -> str:
    """Install the one-timer method if switched on and Snakemake is the expected one.

    Returns "installed", "off" (switched off) or "skipped" (a mismatch: one warning line
    through ``warn``, default stderr, and Snakemake's own behaviour).
    """
    if not switched_on(config_value):
        return "off"
    warn = warn or (lambda line: print(line, file=sys.stderr))
    reason = None
    try:
        version = metadata.version("snakemake")
    except metadata.PackageNotFoundError:
        version = "unknown"
    if not version_supported(version):
        reason = f"Snakemake {version} is not a supported version ({SUPPORTED_MAJOR_VERSIONS})"
    else:
        try:
            module = __import__(SCHEDULER_MODULE, fromlist=["JobScheduler"])
            scheduler_class = getattr(module, "JobScheduler")
        except (ImportError, AttributeError) as exc:
            reason = f"cannot import {SCHEDULER_MODULE}.JobScheduler ({exc})"
        else:
            reason = scheduler_mismatch(scheduler_class)
    if reason is not None:
        warn(f"punctstyle: scheduler timer patch not installed: {reason}; Snakemake's own scheduler is used")
        return "skipped"
    coalesce_reevaluation_timers(scheduler_class)
    return "installed"
