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
(``benchmarks/bench_scheduler_timers.py``); see the README.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

PATCHED_METHOD = "_schedule_reevalutation"  # Snakemake's spelling
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
        from snakemake.scheduling.job_scheduler import JobScheduler as scheduler_class
    method = getattr(scheduler_class, PATCHED_METHOD, None)
    if method is None:
        return False
    if method is not schedule_one_reevaluation:
        setattr(scheduler_class, PATCHED_METHOD, schedule_one_reevaluation)
    return True
