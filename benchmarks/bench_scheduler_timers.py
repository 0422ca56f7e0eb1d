"""Benchmark: Snakemake's main-process CPU per job in real runs, with and without one pending
re-evaluation timer (``punctstyle.snakemake_patches.scheduler_timers``; issue 10 item 2).

Writes a Snakefile of ``N`` independent jobs (one input file each; ``sleep 0.1; touch
{output}``, 1 thread each: they wait for a core, as books do) in a
temporary folder and runs it for real (``snakemake --cores 2``), once as Snakemake ships
(``original``) and once with :func:`punctstyle.snakemake_patches.scheduler_timers.coalesce_reevaluation_timers`
called from the Snakefile (``one timer``), for each ``--jobs`` size. It prints the main
process's CPU seconds (user + system, from ``/proc``, polled) per job, the whole tree's CPU,
the wall time, and the ratio original / one timer of the main process's CPU per job. ``--touch`` runs do not show the
difference (Snakemake arms no timer without a rate limiter, which touch and dry runs skip).

Usage: ``python benchmarks/bench_scheduler_timers.py [--jobs 250 1000 2000]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_workflow import run_phase  # noqa: E402  (tree CPU, wall and the main process's CPU)

REPO = Path(__file__).resolve().parents[1]
VARIANTS = {"original": "", "one timer": "coalesce_reevaluation_timers()\n"}
JOB_SECONDS = 0.1  # a job's length: jobs wait for a core, as books do


def snakefile(n_jobs: int, patch: str) -> str:
    """A workflow of ``n_jobs`` independent short jobs, with ``patch`` run at parse time."""
    return (
        "from punctstyle.snakemake_patches.scheduler_timers import coalesce_reevaluation_timers\n"
        + patch
        + f"rule all:\n    input: expand('out/{{i}}.txt', i=range({n_jobs}))\n\n"
        + "rule one:\n    input: 'in/{i}.txt'\n    output: 'out/{i}.txt'\n    threads: 1\n"
        + f"    shell: 'sleep {JOB_SECONDS}; touch {{output}}'\n"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, nargs="+", default=[250, 1000, 2000])
    args = parser.parse_args()
    print(f"{'jobs':>6} {'variant':<10} {'main CPU s':>10} {'per job':>8} {'tree CPU s':>10} {'wall s':>7}")
    for n_jobs in args.jobs:
        per_job = {}
        for name, patch in VARIANTS.items():
            with tempfile.TemporaryDirectory(prefix="punctstyle-bench-timers-") as tmp:
                folder = Path(tmp)
                (folder / "Snakefile").write_text(snakefile(n_jobs, patch))
                (folder / "in").mkdir()
                for i in range(n_jobs):
                    (folder / "in" / f"{i}.txt").touch()
                # the scheduler settings of profiles/default (not found from a temporary folder)
                command = [sys.executable, "-m", "snakemake", "all", "--cores", "2", "--scheduler", "greedy",
                           "--scheduler-subsample", "100"]
                phase = run_phase(name, command, folder, folder / "snakemake.log", False)
                if len(list((folder / "out").iterdir())) != n_jobs:
                    raise SystemExit(f"{name}: not every job ran; see {folder / 'snakemake.log'}")
                per_job[name] = phase.main_cpu_s / n_jobs
                print(f"{n_jobs:>6} {name:<10} {phase.main_cpu_s:>10.1f} {per_job[name]:>8.4f} {phase.cpu_s:>10.1f}"
                      f" {phase.wall_s:>7.1f}")
        print(f"{n_jobs:>6} original / one timer, main CPU per job: {per_job['original'] / per_job['one timer']:.2f}x")


if __name__ == "__main__":
    main()
