"""ELTeC collections from nothing to report (issue 34's target: the three shared collections, about
300 novels, in at most 20 minutes on this machine's 2 cores), measured call by call.

    python benchmarks/eltec_from_nothing.py ../shared/eltec/ELTeC-eng ../shared/eltec/ELTeC-fra \\
        ../shared/eltec/ELTeC-pol --work results/eltec_from_nothing --evidence docs/evidence/eltec_from_nothing

What a user runs, one collection after the other, each into its own results folder
(``WORK/<collection>/results``, removed first): a config with ``source: tei``, the collection's
folder and every novel kept (``selection.min_docs_per_author: 1``; the language is the
collection's), then

    snakemake --cores N --configfile WORK/<collection>/config.yaml
    snakemake --cores N --configfile WORK/<collection>/config.yaml --report WORK/<collection>/report.html

The last collection's config also switches on ``across_languages`` over every collection given,
so the run ends with the tables of docs/languages.md "Across languages". Each call's wall time
(``time.perf_counter``), CPU of its process tree (user + system, ``RUSAGE_CHILDREN``) and exit
status; the one-minute load average before and after each call.

Stored (``--evidence``): ``calls.csv`` (one row a call), ``job_costs.csv`` (each collection's
jobs with a cost line, by family: :mod:`job_costs`), ``totals.csv`` (the whole sequence: wall,
CPU, CPU of the jobs with a cost line, against the 1,200 s target) and ``run.json`` (commit,
command, collections, novels in each corpus, load). Prints the calls and the totals.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/evidence_run.py, job_costs.py
from evidence_run import commit, corpus_fingerprint, write_evidence  # noqa: E402
from job_costs import family, job_costs  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
TARGET_WALL_S = 1200.0
"""Issue 34's target for the three shared collections: 20 minutes from nothing to report."""


@dataclass(frozen=True)
class Call:
    """One Snakemake call: which collection, which call (``run`` or ``report``), its cost."""

    collection: str
    call: str
    wall_s: float
    user_s: float
    system_s: float
    exit_status: int
    load_before: float
    load_after: float

    @property
    def cpu_s(self) -> float:
        return self.user_s + self.system_s


def collection_config(collection: Path, outdir: Path, across: list[Path] | None) -> dict:
    """The config of one collection's run: source tei, its folder, every novel kept; with
    ``across``, the across-languages tables over those collections too."""
    config = {"outdir": str(outdir), "source": "tei", "tei": {"path": str(collection)},
              "selection": {"min_docs_per_author": 1}}
    if across:
        config["across_languages"] = {"enabled": True, "collections": [{"path": str(p)} for p in across]}
    return config


def one_minute_load() -> float:
    """The first field of ``/proc/loadavg``."""
    return float(Path("/proc/loadavg").read_text().split()[0])


def run_call(collection: str, label: str, command: list[str], log: Path) -> Call:
    """Run ``command`` in the checkout (its output appended to ``log``) and measure it."""
    load_before = one_minute_load()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(log, "a") as out:
        out.write(f"\n### {collection} {label}: {' '.join(command)}\n")
        out.flush()
        status = subprocess.run(command, cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)),
                                stdout=out, stderr=subprocess.STDOUT).returncode
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return Call(collection, label, wall, after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime,
                status, load_before, one_minute_load())


def family_costs(collection: str, outdir: Path) -> list[dict]:
    """One row a job family of a collection's run: jobs and CPU s of its cost lines."""
    groups: dict[str, list[float]] = defaultdict(list)
    for job in job_costs(outdir):
        groups[family(job.name)].append(job.cpu_s)
    return [{"collection": collection, "family": name, "jobs": len(cpu), "cpu_s": sum(cpu)}
            for name, cpu in sorted(groups.items())]


def totals(calls: pd.DataFrame, costs: pd.DataFrame, cores: int) -> pd.DataFrame:
    """The whole sequence: wall and CPU of every call, the jobs with a cost line, the share of
    ``cores`` busy (CPU / (wall x cores)), the target."""
    wall = float(calls["wall_s"].sum())
    return pd.DataFrame([{
        "calls": len(calls), "collections": calls["collection"].nunique(), "wall_s": wall,
        "wall_min": int(wall // 60), "wall_rest_s": wall - 60 * (wall // 60),
        "cpu_s": float(calls["cpu_s"].sum()), "cpu_s_jobs_with_cost_line": float(costs["cpu_s"].sum()),
        "cpu_share_of_cores": float(calls["cpu_s"].sum()) / (wall * cores),
        "target_wall_s": TARGET_WALL_S, "wall_over_target": wall / TARGET_WALL_S,
    }])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("collections", nargs="+", type=Path, help="TEI collections' folders (ELTeC layout)")
    parser.add_argument("--work", type=Path, required=True, help="a scratch folder for the runs (emptied)")
    parser.add_argument("--evidence", type=Path, help="store the tables and run.json here")
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args(argv)
    sha = commit()
    collections = [p.resolve() for p in args.collections]
    missing = [str(p) for p in collections if not p.is_dir()]
    if missing:
        raise SystemExit(f"{missing[0]}: no such folder (a TEI collection, e.g. a clone of ELTeC-fra)")
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    log = args.work / "snakemake.log"
    snakemake = [sys.executable, "-m", "snakemake", "--cores", str(args.cores)]
    calls, costs, novels = [], [], {}
    for i, collection in enumerate(collections):
        folder = args.work / collection.name
        folder.mkdir()
        outdir = folder / "results"
        config = folder / "config.yaml"
        across = collections if i == len(collections) - 1 and len(collections) > 1 else None
        config.write_text(yaml.safe_dump(collection_config(collection, outdir, across)))
        for label, extra in (("run", []), ("report", ["--report", str(folder / "report.html")])):
            call = run_call(collection.name, label, [*snakemake, "--configfile", str(config), *extra], log)
            calls.append(call)
            print(f"{call.collection:<12} {call.call:<7} wall {call.wall_s:7.1f} s  CPU {call.cpu_s:7.1f} s  "
                  f"exit {call.exit_status}", flush=True)
            if call.exit_status:
                raise SystemExit(f"{collection.name} {label}: exit {call.exit_status}; see {log}")
        costs.extend(family_costs(collection.name, outdir))
        novels[collection.name] = corpus_fingerprint(outdir)["books_in_corpus"]
    table = pd.DataFrame([{**asdict(c), "cpu_s": c.cpu_s} for c in calls])
    cost_table = pd.DataFrame(costs)
    total = totals(table, cost_table, args.cores)
    print(total.to_string(index=False))
    if args.evidence:
        run = {"command": "python benchmarks/eltec_from_nothing.py " + " ".join(f"<{p.name}>" for p in collections)
                          + f" --cores {args.cores}",
               "commit": sha, "collections": [p.name for p in collections], "novels_in_corpus": novels,
               "config": {k: v for k, v in collection_config(Path("<collection>"), Path("<outdir>"), None).items()
                          if k != "outdir"},
               "across_languages_in": collections[-1].name if len(collections) > 1 else None,
               "machine": {"cores": os.cpu_count(), "cores_used": args.cores}}
        write_evidence(args.evidence, {"calls.csv": table, "job_costs.csv": cost_table, "totals.csv": total}, run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
