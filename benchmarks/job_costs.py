"""What the jobs of a finished run cost, exactly, per job family (issue 10).

Every heavy job (recognition rows, length-curve rows, sequence rows, f3 importance rows, the
attribution bundle, and the corpus-level jobs: corpus tables, word matrix, consistency, temporal
analysis, parts of books, verification, rolling collaborations, maps, cross analyses; and, since
issue 37, every figure, table and summary job) ends its log with ``job cost: <cpu> CPU s, peak memory <mb> MB``
(:func:`punctstyle.logs.job_cost_line`: ``getrusage`` of the job's process and its children).
Snakemake's benchmark files give the exact wall time (``s``) but sample the CPU time every 30 s,
so their ``cpu_time`` undercounts a job by up to 30 s.

This script reads ``<outdir>/logs`` and prints, per family (a log's path with its
``_seed<N>`` removed: one line per task and class size), the jobs, their CPU seconds (sum,
least, most), their wall seconds from ``<outdir>/benchmarks`` where the rule has a benchmark
file, and the peak memory. The last line is the sum over every job that logged its cost.

Usage: ``python benchmarks/job_costs.py OUTDIR``.
"""

from __future__ import annotations

import argparse
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from punctstyle.logs import parse_job_cost

SEED = re.compile(r"_seed\d+$")


@dataclass(frozen=True)
class JobCost:
    """One job: its log's name under logs/ (no suffix), CPU s, wall s (None without a
    benchmark file) and peak memory in MB."""

    name: str
    cpu_s: float
    wall_s: float | None
    peak_mb: float


def benchmark_wall(path: Path) -> float | None:
    """The ``s`` column of a Snakemake benchmark file (exact wall seconds); None if absent."""
    if not path.is_file():
        return None
    lines = path.read_text().splitlines()
    if len(lines) < 2:
        return None
    return float(dict(zip(lines[0].split("\t"), lines[1].split("\t"), strict=False))["s"])


def job_costs(outdir: Path) -> list[JobCost]:
    """Every job under ``outdir/logs`` that logged its cost, sorted by name."""
    jobs = []
    for log in sorted((outdir / "logs").rglob("*.log")):
        cost = parse_job_cost(log.read_text(errors="replace"))
        if cost is None:
            continue
        name = log.relative_to(outdir / "logs").with_suffix("").as_posix()
        wall = benchmark_wall(outdir / "benchmarks" / f"{name}.tsv")
        jobs.append(JobCost(name, cost[0], wall, cost[1]))
    return jobs


def family(name: str) -> str:
    """A job's family: its log name without the seed (``recognition/author_50_classes``)."""
    return SEED.sub("", name)


def summary_lines(jobs: list[JobCost]) -> list[str]:
    """One line per family, then the total."""
    groups: dict[str, list[JobCost]] = defaultdict(list)
    for job in jobs:
        groups[family(job.name)].append(job)
    lines = [f"{'family':<42} {'jobs':>4} {'CPU s':>9} {'least':>8} {'most':>8} {'wall s':>9} {'peak MB':>8}"]
    for name, members in sorted(groups.items()):
        cpu = [job.cpu_s for job in members]
        walls = [job.wall_s for job in members if job.wall_s is not None]
        wall = f"{sum(walls):9.1f}" if len(walls) == len(members) else f"{'':>9}"
        peak = max(job.peak_mb for job in members)
        lines.append(f"{name:<42} {len(members):>4} {sum(cpu):9.1f} {min(cpu):8.1f} {max(cpu):8.1f} {wall} {peak:8.0f}")
    lines.append(f"{'all jobs that logged their cost':<42} {len(jobs):>4} {sum(job.cpu_s for job in jobs):9.1f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", type=Path, help="the run's outdir (config key outdir)")
    args = parser.parse_args()
    jobs = job_costs(args.outdir)
    if not jobs:
        raise SystemExit(f"{args.outdir}/logs: no log has a 'job cost:' line (a run of an older version?)")
    print("\n".join(summary_lines(jobs)))


if __name__ == "__main__":
    main()
