"""One pending re-evaluation timer for Snakemake's scheduler (punctstyle.snakemake_patches.scheduler_timers)."""

from __future__ import annotations

import threading
import time

from punctstyle.snakemake_patches.scheduler_timers import PATCHED_METHOD, coalesce_reevaluation_timers, schedule_one_reevaluation


class FakeScheduler:
    """Snakemake 9's mechanism: a counting semaphore, and a timer per call that releases it."""

    def __init__(self) -> None:
        self._open_jobs = threading.Semaphore(0)

    def _schedule_reevalutation(self, delay: float) -> None:
        threading.Timer(delay, lambda: self._open_jobs.release()).start()


def releases(scheduler, wait: float) -> int:
    """How many passes the scheduler would run: releases counted within ``wait`` seconds."""
    count, deadline = 0, time.monotonic() + wait
    while scheduler._open_jobs.acquire(timeout=max(deadline - time.monotonic(), 0.001)):
        count += 1
    return count


def test_the_original_method_starts_one_wake_up_per_call():
    # the cause: every pass arms another timer, so the passes pile up
    scheduler = FakeScheduler()
    for _ in range(20):
        scheduler._schedule_reevalutation(0.02)
    assert releases(scheduler, 1.0) == 20


def test_one_pending_timer_wakes_the_scheduler_once_then_can_be_armed_again():
    scheduler = FakeScheduler()
    for _ in range(20):
        schedule_one_reevaluation(scheduler, 0.02)
    assert releases(scheduler, 1.0) == 1
    # the pass that timer woke arms the next one: no wake-up is lost
    schedule_one_reevaluation(scheduler, 0.02)
    assert releases(scheduler, 1.0) == 1


def test_an_earlier_wake_up_is_not_held_back_by_a_later_pending_one():
    scheduler = FakeScheduler()
    schedule_one_reevaluation(scheduler, 30.0)  # a long wait (daemon timer: does not hold pytest)
    schedule_one_reevaluation(scheduler, 0.02)
    assert releases(scheduler, 2.0) == 1  # the 30 s timer would have given none


def test_schedulers_keep_their_own_timer():
    first, second = FakeScheduler(), FakeScheduler()
    schedule_one_reevaluation(first, 0.02)
    schedule_one_reevaluation(second, 0.02)
    assert releases(first, 1.0) == 1 and releases(second, 1.0) == 1


def test_the_class_gets_the_method_once_and_other_classes_are_left_alone():
    class Scheduler(FakeScheduler):
        pass

    assert coalesce_reevaluation_timers(Scheduler) and coalesce_reevaluation_timers(Scheduler)
    assert getattr(Scheduler, PATCHED_METHOD) is schedule_one_reevaluation
    scheduler = Scheduler()
    for _ in range(10):
        scheduler._schedule_reevalutation(0.02)
    assert releases(scheduler, 1.0) == 1
    assert coalesce_reevaluation_timers(type("Other", (), {})) is False


def test_snakemakes_scheduler_has_the_method_this_replaces():
    # a Snakemake upgrade that renames it would leave the workflow on the original: fail here
    from snakemake.scheduling.job_scheduler import JobScheduler

    assert coalesce_reevaluation_timers(JobScheduler)
    assert getattr(JobScheduler, PATCHED_METHOD) is schedule_one_reevaluation


# ------------------------------------------------------------------ the guard (install_for_workflow)
from punctstyle.snakemake_patches import scheduler_timers as guard  # noqa: E402


def test_switches_config_and_environment():
    assert guard.switched_on(True, {}) and not guard.switched_on(False, {})
    assert not guard.switched_on(True, {guard.ENVIRONMENT_SWITCH: "off"})
    assert guard.switched_on(True, {guard.ENVIRONMENT_SWITCH: "on"})


def test_supported_versions_are_snakemake_9():
    assert guard.version_supported("9.1.0") and not guard.version_supported("10.0.0")
    assert not guard.version_supported("unknown")


def test_a_scheduler_without_the_method_or_semaphore_is_a_mismatch():
    assert guard.scheduler_mismatch(FakeScheduler) is None
    assert "no method" in guard.scheduler_mismatch(type("NoMethod", (), {}))

    class NoSemaphore:
        def __init__(self):
            self.other = 1

        def _schedule_reevalutation(self, delay):
            pass

    assert "_open_jobs" in guard.scheduler_mismatch(NoSemaphore)


def test_switched_off_installs_nothing(monkeypatch):
    monkeypatch.delenv(guard.ENVIRONMENT_SWITCH, raising=False)
    assert guard.install_for_workflow(False, warn=lambda line: None) == "off"


def test_a_mismatch_warns_once_and_installs_nothing(monkeypatch):
    monkeypatch.delenv(guard.ENVIRONMENT_SWITCH, raising=False)
    monkeypatch.setattr(guard.metadata, "version", lambda name: "10.2.0")
    lines = []
    assert guard.install_for_workflow(True, warn=lines.append) == "skipped"
    assert len(lines) == 1 and "10.2.0" in lines[0]


def test_a_moved_module_warns_and_does_not_raise(monkeypatch):
    monkeypatch.delenv(guard.ENVIRONMENT_SWITCH, raising=False)
    monkeypatch.setattr(guard, "SCHEDULER_MODULE", "snakemake.no_such_module")
    lines = []
    assert guard.install_for_workflow(True, warn=lines.append) == "skipped"
    assert len(lines) == 1 and "cannot import" in lines[0]


def test_installed_on_this_snakemake(monkeypatch):
    monkeypatch.delenv(guard.ENVIRONMENT_SWITCH, raising=False)
    lines = []
    assert guard.install_for_workflow(True, warn=lines.append) == "installed" and lines == []
