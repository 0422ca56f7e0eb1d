#!/usr/bin/env bash
# The main job: install once (.venv), then run the workflow; arguments go to snakemake.
#   bash run.sh --cores 4
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$repo/ci/bootstrap.sh"
cd "$repo"
# a --configfile that does not parse: one line naming it (Snakemake's own message names no file)
.venv/bin/python -m punctstyle.settings "$@"
exec .venv/bin/snakemake "$@"
