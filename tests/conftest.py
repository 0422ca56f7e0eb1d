"""Shared test helpers: where ../shared lives, the Le Guin quote of section 2.2, the
measurement scripts of benchmarks/ loaded as modules, and the order of the test modules."""

from __future__ import annotations

import functools
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# The shared data (the real Gutenberg mirror): ../shared beside the checkout, or wherever
# PUNCTSTYLE_SHARED points.
SHARED = Path(os.environ.get("PUNCTSTYLE_SHARED") or REPO.parent / "shared")
MIRROR = SHARED / "gutenberg-mirror"
BENCHMARKS = REPO / "benchmarks"

LE_GUIN = (
    "I don't have a gun and I don't have even one wife and my sentences tend to go on and "
    "on and on, with all this syntax in them. Ernest Hemingway would have died rather than "
    "have syntax. Or semicolons. I use a whole lot of half-assed semicolons; there was one "
    'of them just now; that was a semicolon after "semicolons," and another one after "now."'
)

# The slowest test modules, longest first (each one's fixture runs and Snakemake calls, from
# `pytest --durations` on 2 cores). test.sh runs the suite on two pytest-xdist workers with
# `--dist loadscope --no-loadscope-reorder`: a worker takes one whole module at a time (its
# module fixtures made once) in collection order, so this order starts the long modules at once
# and lets the short ones (every unit test module, after these) fill the end. test_workflow.py
# comes first because it makes the default fixture run (tests/workflow/conftest.py) that the
# modules marked "reads the default run" copy or read: they come after independent modules, so
# that the run is ready, not waited for, when a worker takes them.
SLOW_FIRST = (
    "tests/workflow/test_workflow.py",  # makes the default run, then 8 dry runs
    "tests/workflow/test_folder_corpus.py",
    "tests/workflow/test_faults.py",
    "tests/workflow/test_corpus_shapes.py",
    "tests/slurm/test_slurm.py",  # mostly waiting on the cluster's queue
    "tests/workflow/test_figures_report.py",  # reads the default run
    "tests/workflow/test_one_genre.py",
    "tests/workflow/test_length_curve.py",  # reads the default run
    "tests/workflow/test_tei_corpus.py",
    "tests/workflow/test_sequence_model.py",  # reads the default run
    "tests/workflow/test_one_line_errors.py",
    "tests/realdata/test_folder_route.py",
    "tests/realdata/test_real_mirror.py",
    "tests/workflow/test_app.py",  # reads the default run
    "tests/workflow/test_attribute_cli.py",  # reads the default run
)


def slow_first(nodeids: list[str], order: tuple[str, ...] = SLOW_FIRST) -> list[int]:
    """Positions of ``nodeids`` with the modules of ``order`` first, in that order, then every
    other test in its collected order (a stable sort on the module's rank: the tests of one
    module keep their order, which pytest chose to make each module fixture once)."""
    rank = {module: k for k, module in enumerate(order)}
    return sorted(range(len(nodeids)), key=lambda i: rank.get(nodeids[i].split("::", 1)[0], len(order)))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items) -> None:
    """Run the slowest modules first (``SLOW_FIRST``), after pytest's own reordering."""
    items[:] = [items[i] for i in slow_first([item.nodeid for item in items])]


def require_mirror() -> Path:
    """The shared Gutenberg mirror, or skip with the reason."""
    if not (MIRROR / "cache" / "epub" / "feeds" / "pg_catalog.csv").exists():
        pytest.skip(f"real-data test: the shared Gutenberg mirror is not at {MIRROR} (set PUNCTSTYLE_SHARED)")
    return MIRROR


# Never linked into a scratch working directory of the checkout: its run state and outputs
NOT_LINKED = {".snakemake", ".git", ".pytest_cache", "__pycache__", "results", "results-test"}


def link_checkout(work: Path) -> Path:
    """Make ``work`` a working directory of the checkout: a link to each of its entries but
    ``NOT_LINKED``, so that Snakemake keeps its run state (``.snakemake``) there."""
    work.mkdir(parents=True, exist_ok=True)
    for entry in REPO.iterdir():
        if entry.name not in NOT_LINKED:
            (work / entry.name).symlink_to(entry)
    return work


@functools.cache
def snakemake_workdir() -> Path:
    """Where the tests run Snakemake: the checkout, or, in a pytest-xdist worker, a working
    directory of that worker's own (made once per worker process, under the system's temporary
    folder) that links every entry of the checkout but its run state (``NOT_LINKED``). Two
    Snakemake runs must not share a working directory: each removes the whole ``.snakemake/locks``
    folder when it ends, under the other's feet (a run starting then fails on its lock file)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return REPO
    return link_checkout(Path(tempfile.mkdtemp(prefix=f"punctstyle-{worker}-")))


def snakemake(*args: str, cwd: Path | None = None, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``python -m snakemake ARGS`` in ``cwd`` (default :func:`snakemake_workdir`: the repo, or
    this test worker's own working directory); on failure raise with its output's tail."""
    command = [sys.executable, "-m", "snakemake", *args]
    proc = subprocess.run(command, cwd=cwd or snakemake_workdir(), capture_output=True, text=True, timeout=1800)
    if check and proc.returncode != 0:
        raise AssertionError(f"snakemake {' '.join(args)} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-8000:]}")
    return proc


def load_benchmark(name: str):
    """``benchmarks/<name>.py`` as a module (registered in ``sys.modules``, where dataclasses
    look their module up; benchmarks/ on ``sys.path`` for the scripts' own sibling imports)."""
    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
