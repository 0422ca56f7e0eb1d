#!/usr/bin/env bash
# Create .venv (Python 3.11) with punctstyle, Snakemake and the test tools, once.
# torch is installed first, pinned, so that the package's `torch>=2.2` requirement is already
# met and pip never pulls a newer multi-GB CUDA build by surprise:
#   PUNCTSTYLE_TORCH_INDEX=https://download.pytorch.org/whl/cpu bash run.sh ...   # CPU-only wheel
# (a plain `pip install torch==2.13.0` takes the CUDA build from PyPI on Linux, or a local
# CPU wheel where pip's find-links provide one).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
python="${PYTHON:-}"
if [ -z "$python" ]; then
  if command -v python3.11 >/dev/null 2>&1; then python=python3.11; else python=python3; fi
fi
stamp=.venv/.punctstyle-installed
if [ -x .venv/bin/python ] && [ -f "$stamp" ] && [ "$stamp" -nt pyproject.toml ]; then
  exit 0
fi
echo "bootstrap: creating .venv with $($python --version 2>&1)" >&2
"$python" -m venv .venv
pip=(.venv/bin/python -m pip --disable-pip-version-check -q)
"${pip[@]}" install --upgrade pip
if ! .venv/bin/python -c "import torch" >/dev/null 2>&1; then
  if [ -n "${PUNCTSTYLE_TORCH_INDEX:-}" ]; then
    "${pip[@]}" install "torch==2.13.0" --index-url "$PUNCTSTYLE_TORCH_INDEX"
  else
    "${pip[@]}" install "torch==2.13.0"
  fi
fi
# the app's web framework and server, pinned like torch (pyproject.toml's `app` extra: ranges)
"${pip[@]}" install "flask==3.1.2" "waitress==3.0.2"
"${pip[@]}" install -e ".[all,workflow,test]"
touch "$stamp"
echo "bootstrap: .venv ready" >&2
