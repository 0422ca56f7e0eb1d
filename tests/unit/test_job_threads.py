"""Per-book jobs size the numerical libraries' thread pools before numpy starts them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from punctstyle.job_threads import THREAD_VARIABLES, limit_numeric_threads

PROBE = """
import os, sys
from punctstyle.job_threads import limit_numeric_threads
print(limit_numeric_threads(int(sys.argv[1])))
import numpy
try:
    limit_numeric_threads(1)
except RuntimeError as error:
    print("late:", error)
"""


def run_probe(threads, **env):
    clean = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    proc = subprocess.run(
        [sys.executable, "-c", PROBE, str(threads)], env={**clean, **env}, capture_output=True, text=True, check=True
    )
    return proc.stdout.splitlines()


def test_the_job_threads_are_set_before_numpy_and_a_late_call_is_refused():
    values, late = run_probe(2)
    assert values == str({name: "2" for name in THREAD_VARIABLES})
    assert late == "late: limit_numeric_threads() must run before numpy is imported"


def test_a_value_the_user_exported_wins():
    values, _ = run_probe(1, OPENBLAS_NUM_THREADS="3")
    assert values == str({"OPENBLAS_NUM_THREADS": "3", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"})


def test_threads_below_one_are_refused():
    with pytest.raises(ValueError, match="at least 1"):
        limit_numeric_threads(0)
