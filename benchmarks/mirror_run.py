"""One full run of the workflow on the generated fixture mirror (tests/fixtures/mini_mirror.py),
for comparing the outputs of two checkouts (benchmarks/compare_outputs.py).

    python benchmarks/mirror_run.py REPO OUTDIR [CORES]

REPO: the checkout whose Snakefile and package run (PYTHONPATH is set to it); OUTDIR: the new
results folder. config/test.yaml, with the length curve and the sequence network switched on.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.fixtures.mini_mirror import build_mini_mirror, serve  # noqa: E402

OVERLAY = {
    "recognition": {"mlp": {"max_epochs": 5}},
    "length_curve": {
        "enabled": True,
        "lengths": [20, 40, 100000],
        "class_sizes": [2, 10],
        "methods": {"kl": ["f3"], "mlp": ["f1"], "delta": ["words20"]},
        "training": ["whole", "excerpt"],
    },
    "beyond": {"sequence": {"enabled": True}},
}


def main(repo: str, outdir: str, cores: str = "2") -> int:
    repo_path, out = Path(repo).resolve(), Path(outdir).resolve()
    with tempfile.TemporaryDirectory() as scratch:
        mirror = Path(scratch) / "mirror"
        build_mini_mirror(mirror)
        with serve(mirror) as base_url:
            config = Path(scratch) / "run.yaml"
            config.write_text(yaml.safe_dump({"outdir": str(out), "mirror": {"base_url": base_url}, **OVERLAY}))
            env = {**os.environ, "PYTHONPATH": str(repo_path)}
            command = [
                sys.executable,
                "-m",
                "snakemake",
                "--cores",
                cores,
                "--configfile",
                "config/test.yaml",
                str(config),
            ]
            return subprocess.run(command, cwd=repo_path, env=env).returncode


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
