#!/usr/bin/env bash
# The main job: install once (.venv), then run the workflow; arguments go to snakemake.
#   bash run.sh --cores 4
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$repo/ci/bootstrap.sh"
cd "$repo"
exec .venv/bin/snakemake "$@"
