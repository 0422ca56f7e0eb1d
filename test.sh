#!/usr/bin/env bash
# The tests: install once (.venv), then unit, workflow (fixture mirror on 127.0.0.1),
# real-data (../shared, skipped without it) and SLURM (skipped without a cluster) tests.
# Arguments go to pytest.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$repo/ci/bootstrap.sh"
cd "$repo"
exec .venv/bin/python -m pytest "$@"
