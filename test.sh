#!/usr/bin/env bash
# The tests: install once (.venv), then unit, workflow (fixture mirror on 127.0.0.1),
# real-data (../shared, skipped without it) and SLURM (skipped without a cluster) tests.
# Two pytest-xdist workers (PUNCTSTYLE_TEST_WORKERS, default 2; 0 runs in one process), each
# taking a whole test module at a time, slowest first (tests/conftest.py, SLOW_FIRST): a
# workflow test's Snakemake run leaves a core idle much of the time, which the other worker
# uses. Arguments go to pytest (after these: `-n 0` there wins).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$repo/ci/bootstrap.sh"
cd "$repo"
exec .venv/bin/python -m pytest -n "${PUNCTSTYLE_TEST_WORKERS:-2}" --dist loadscope --no-loadscope-reorder "$@"
