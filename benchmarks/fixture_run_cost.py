"""What one run of ``config/test.yaml`` on the mini mirror costs, for each of one or more checkouts
(issue 37 item 2): the whole Snakemake call's CPU seconds (its process and every job's, from
``getrusage`` of the ended call), its wall seconds, the jobs it ran (Snakemake's ``N of N steps``),
the jobs whose log ends with a cost line and their CPU seconds (``benchmarks/job_costs.py``), and
the share of the call's CPU those cost lines cover.

The same mini mirror (``tests.fixtures.mini_mirror``) is served for every checkout, and each run
starts from an empty outdir, one after the other, so that the first checkout is the baseline of the
others (print the ratio, not the absolute seconds, on a shared machine).

Usage: ``python benchmarks/fixture_run_cost.py REPO [REPO ...] [--keep DIR]``: each REPO is a checkout
(its own code on ``PYTHONPATH``, the running Python's Snakemake). ``--keep`` keeps the outdirs there.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.job_costs import job_costs  # noqa: E402
from tests.fixtures.mini_mirror import build_mini_mirror, serve  # noqa: E402

STEPS = re.compile(r"(\d+) of (\d+) steps \(100%\) done")


def children_cpu() -> float:
    """User + system seconds of this process's ended children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_checkout(repo: Path, base_url: str, outdir: Path) -> dict:
    """One ``snakemake --cores 2`` run of ``repo``'s workflow into ``outdir``: CPU s, wall s, jobs,
    jobs with a cost line and their CPU s."""
    outdir.mkdir(parents=True)
    overlay = outdir.parent / f"{outdir.name}.yaml"
    overlay.write_text(yaml.safe_dump({"outdir": str(outdir), "mirror": {"base_url": base_url}}))
    env = {**os.environ, "PYTHONPATH": str(repo)}
    command = [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", "config/test.yaml", str(overlay)]
    cpu_before, wall_before = children_cpu(), time.perf_counter()
    proc = subprocess.run(command, cwd=repo, env=env, capture_output=True, text=True)
    cpu, wall = children_cpu() - cpu_before, time.perf_counter() - wall_before
    if proc.returncode != 0:
        raise SystemExit(f"{repo}: snakemake failed:\n{proc.stderr[-4000:]}")
    steps = STEPS.findall(proc.stderr + proc.stdout)
    costed = job_costs(outdir)
    return {"cpu_s": cpu, "wall_s": wall, "jobs": int(steps[-1][1]) if steps else -1,
            "costed_jobs": len(costed), "costed_cpu_s": sum(job.cpu_s for job in costed)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", type=Path, nargs="+", help="checkouts to run, the first one the baseline")
    parser.add_argument("--keep", type=Path, help="keep the runs' outdirs under this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        mirror = Path(scratch) / "mirror"
        build_mini_mirror(mirror)
        runs_root = args.keep or Path(scratch) / "runs"
        results = []
        with serve(mirror) as base_url:
            for index, repo in enumerate(args.repos):
                results.append(run_checkout(repo.resolve(), base_url, runs_root / f"run{index}"))
    base = results[0]
    print(f"{'checkout':<32} {'jobs':>5} {'CPU s':>8} {'wall s':>8} {'costed':>7} {'costed CPU s':>13} "
          f"{'covered':>8} {'CPU ratio':>9}")
    for repo, result in zip(args.repos, results, strict=True):
        print(f"{repo.name:<32} {result['jobs']:>5} {result['cpu_s']:8.1f} {result['wall_s']:8.1f} "
              f"{result['costed_jobs']:>7} {result['costed_cpu_s']:13.1f} "
              f"{result['costed_cpu_s'] / result['cpu_s']:8.0%} {result['cpu_s'] / base['cpu_s']:9.2f}")


if __name__ == "__main__":
    main()
