"""Shared test helpers: where ../shared lives, the Le Guin quote of section 2.2, and the
measurement scripts of benchmarks/ loaded as modules."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
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


def require_mirror() -> Path:
    """The shared Gutenberg mirror, or skip with the reason."""
    if not (MIRROR / "cache" / "epub" / "feeds" / "pg_catalog.csv").exists():
        pytest.skip(f"real-data test: the shared Gutenberg mirror is not at {MIRROR} (set PUNCTSTYLE_SHARED)")
    return MIRROR


def snakemake(*args: str, cwd: Path = REPO, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``python -m snakemake ARGS`` in the repo; on failure raise with its output's tail."""
    command = [sys.executable, "-m", "snakemake", *args]
    proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=1800)
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
