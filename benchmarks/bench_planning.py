"""Benchmark: planning the whole corpus (``snakemake -n``) from the full 2018 catalogue.

In a temporary folder it writes a config (``outdir`` there, ``mirror.catalog_file`` = the
full catalogue, every other key the paper's default), then

1. runs ``snakemake --cores 1 <outdir>/corpus/selection.parquet`` (copy of the catalogue and
   the ``select_books`` checkpoint: the per-book jobs can only be planned once the selection
   exists) and times it;
2. times ``snakemake -n`` of the selection alone (nothing to do: the baseline, snakemake's
   start-up and parsing of the workflow);
3. times ``snakemake -n`` for the corpus tables targets and for the default target ``all``
   (which grows as analysis rules are added), each ``--repeat`` times, and reports each
   against the baseline (CPU milliseconds per planned job) and against the target.

For every run it reports the wall time; the CPU time (user + system of the process and its
descendants: less sensitive than the wall time to the load of a shared machine); the peak
resident memory of the snakemake process tree (the sum over the process and its
descendants, polled from ``/proc`` every ``--poll`` seconds) and ``ru_maxrss`` of its
largest single process (from ``wait4``); the load average before the run; and, for dry
runs, the number of jobs planned (the ``total`` line of snakemake's job stats). On a loaded
machine the wall time exceeds the CPU time; snakemake plans in one thread, so on an idle
machine the wall time is about the CPU time.

Usage: ``python benchmarks/bench_planning.py [--catalog PATH] [--repeat 2] [--keep]``.
Target on this 2-core machine: each dry run under 60 s and 2 GB. Exit status 1 if a run
fails or a dry run misses the target.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CATALOG = REPO.parent / "shared" / "catalogs" / "pg_catalog_2018_full.csv"
TARGET_SECONDS = 60.0
TARGET_BYTES = 2 * 2**30
CORPUS_TARGETS = [f"corpus/f{i}.parquet" for i in range(1, 7)] + [
    "corpus/exclusions.csv",
    "corpus/summary.json",
]
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
BASELINE_LABEL = "baseline: start-up (-n selection)"


@dataclass
class RunResult:
    label: str
    returncode: int
    wall_s: float
    cpu_s: float
    tree_peak_bytes: int
    max_single_rss_bytes: int
    load_before: float
    jobs: int | None
    log: Path


def _children_map() -> dict[int, list[int]]:
    """Parent pid -> child pids, from /proc/<pid>/stat."""
    children: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # the command name (field 2) is in parentheses and may hold spaces
        fields = stat[stat.rfind(b")") + 2 :].split()
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    return children


def _rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * PAGE_SIZE
    except (OSError, IndexError, ValueError):
        return 0


def tree_rss_bytes(root: int) -> int:
    """Resident memory of ``root`` and all its descendants."""
    children = _children_map()
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += _rss_bytes(pid)
        stack.extend(children.get(pid, ()))
    return total


def run_measured(label: str, command: list[str], log: Path, poll: float) -> RunResult:
    """Run ``command`` in the repository; wall time, peak tree RSS, ru_maxrss, job count."""
    load_before = os.getloadavg()[0]
    peak = [0]
    with open(log, "w") as out:
        start = time.perf_counter()
        proc = subprocess.Popen(command, cwd=REPO, stdout=out, stderr=subprocess.STDOUT)
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], tree_rss_bytes(proc.pid))
                done.wait(poll)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        done.set()
        sampler.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
    text = log.read_text(errors="replace")
    totals = re.findall(r"^total\s+(\d+)\s*$", text, flags=re.MULTILINE)
    jobs = int(totals[-1]) if totals else (0 if "Nothing to be done" in text else None)
    return RunResult(
        label=label,
        returncode=proc.returncode,
        wall_s=wall,
        cpu_s=usage.ru_utime + usage.ru_stime,
        tree_peak_bytes=peak[0],
        max_single_rss_bytes=usage.ru_maxrss * 1024,  # Linux: KiB
        load_before=load_before,
        jobs=jobs,
        log=log,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--catalog", type=Path, default=DEFAULT_CATALOG, help="catalog CSV")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each dry run (default 2)")
    parser.add_argument("--poll", type=float, default=0.05, help="seconds between /proc samples")
    parser.add_argument(
        "--snakemake", default=None, help="snakemake command (default: this python -m snakemake)"
    )
    parser.add_argument("--no-all", action="store_true", help="skip the dry run of the target 'all'")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (its path is printed)")
    args = parser.parse_args(argv)

    catalog = args.catalog.resolve()
    if not catalog.is_file():
        print(f"{catalog}: catalog file not found", file=sys.stderr)
        return 1
    snakemake = args.snakemake.split() if args.snakemake else [sys.executable, "-m", "snakemake"]
    tmp = Path(tempfile.mkdtemp(prefix="punctstyle-bench-planning-"))
    outdir = tmp / "results"
    config = tmp / "bench.yaml"
    config.write_text(yaml.safe_dump({"outdir": str(outdir), "mirror": {"catalog_file": str(catalog)}}))
    base = [*snakemake, "--configfile", str(config)]
    results: list[RunResult] = []
    try:
        selection = run_measured(
            "selection (--cores 1)",
            [*base, "--cores", "1", str(outdir / "corpus/selection.parquet")],
            tmp / "selection.log",
            args.poll,
        )
        results.append(selection)
        if selection.returncode != 0:
            print(selection.log.read_text()[-4000:], file=sys.stderr)
            return 1
        chosen = pd.read_parquet(outdir / "corpus/selection.parquet", columns=["book_id", "author"])
        print(f"selected {len(chosen)} books by {chosen['author'].nunique()} authors", flush=True)
        results.append(
            run_measured(
                BASELINE_LABEL,
                [*base, "-n", str(outdir / "corpus/selection.parquet")],
                tmp / "baseline.log",
                args.poll,
            )
        )
        plans = [("dry run: corpus tables", [str(outdir / t) for t in CORPUS_TARGETS])]
        if not args.no_all:
            plans.append(("dry run: all", []))
        for label, targets in plans:
            for k in range(args.repeat):
                log = tmp / f"dryrun-{len(results)}.log"
                results.append(run_measured(f"{label} #{k + 1}", [*base, "-n", *targets], log, args.poll))
    finally:
        ok = all(r.returncode == 0 for r in results)
        _report(results, catalog, tmp)
        if args.keep or not ok:
            print(f"\nlogs and outputs kept in {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    dry = [r for r in results if r.label.startswith("dry run")]
    within = all(r.wall_s < TARGET_SECONDS and r.tree_peak_bytes < TARGET_BYTES for r in dry)
    print(
        f"target (< {TARGET_SECONDS:.0f} s, < {TARGET_BYTES / 2**30:.0f} GiB per dry run): {'met' if within else 'MISSED'}"
    )
    return 0 if ok and within else 1


def _report(results: list[RunResult], catalog: Path, tmp: Path) -> None:
    print(f"catalog: {catalog}")
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}")
    header = ("step", "rc", "wall s", "CPU s", "tree peak MiB", "max proc MiB", "load before", "jobs")
    rows = [
        (
            r.label,
            str(r.returncode),
            f"{r.wall_s:.1f}",
            f"{r.cpu_s:.1f}",
            f"{r.tree_peak_bytes / 2**20:.0f}",
            f"{r.max_single_rss_bytes / 2**20:.0f}",
            f"{r.load_before:.2f}",
            "-" if r.jobs is None else str(r.jobs),
        )
        for r in results
    ]
    widths = [max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(header)]
    for row in (header, *rows):
        print(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))
            )
        )
    baseline = next((r for r in results if r.label == BASELINE_LABEL and r.returncode == 0), None)
    for r in results:
        if r.label.startswith("dry run") and r.returncode == 0 and r.jobs and baseline is not None:
            print(
                f"{r.label}: {r.jobs} jobs, {(r.cpu_s - baseline.cpu_s) / r.jobs * 1e3:.2f} ms CPU per job over "
                f"the start-up baseline; wall {r.wall_s / TARGET_SECONDS:.2f}x, peak "
                f"{r.tree_peak_bytes / TARGET_BYTES:.2f}x the target"
            )
    for r in results:
        if r.returncode != 0:
            print(f"\n{r.label} failed (rc {r.returncode}); last lines of {r.log}:")
            print("\n".join(r.log.read_text(errors="replace").splitlines()[-30:]))


if __name__ == "__main__":
    sys.exit(main())
