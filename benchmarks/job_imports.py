"""What a figure, table or consistency job pays to import its code, per checkout (issue 37 item 2).

For each module a job's script imports (``MODULES``), the CPU seconds (user + system, ``getrusage``
of the ended child) of a fresh ``python -c "import <module>"``, the median over ``--repeats`` runs,
the checkouts interleaved run by run so that a busy machine weighs on each alike; then the
heavy libraries the import pulled in. The first checkout is the baseline of the ratio.

``--evidence OUT``: the medians as ``OUT/imports.csv`` (module, checkout's commit, CPU s, ratio to
the baseline, libraries) and ``OUT/run.json`` (command, commits, repeats; benchmarks/evidence_run.py).

Usage: ``python benchmarks/job_imports.py REPO [REPO ...] [--repeats N] [--evidence OUT]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, write_evidence  # noqa: E402

MODULES = (
    "punctstyle.report.figure_jobs",  # figures_corpus, figures_kl, figures_kl_heatmaps, figures_recognition
    "punctstyle.report.config_page",  # config_used (figure_jobs before it had its own module)
    "punctstyle.analyses.consistency_files",  # consistency, consistency_summary
    "punctstyle.report.appendix",  # appendix_table
    "punctstyle.report.temporal_figures",  # figures_temporal
    "punctstyle.report.document_figures",  # figures_documents
)
LIBRARIES = ("pandas", "matplotlib", "scipy.stats", "scipy.sparse", "torch", "sklearn")
PROBE = "import sys, {module}; print(' '.join(name for name in {libraries!r} if name in sys.modules))"


def import_cpu(repo: Path, module: str) -> tuple[float, str]:
    """CPU s of one fresh interpreter importing ``module`` from ``repo``, and the libraries it loaded."""
    env = {**os.environ, "PYTHONPATH": str(repo)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run([sys.executable, "-c", PROBE.format(module=module, libraries=LIBRARIES)], cwd=repo,
                          env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        return float("nan"), "(no such module)"
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, proc.stdout.strip()


def checkout_commit(repo: Path) -> str:
    """The short commit of a checkout."""
    out = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    return out.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repos", type=Path, nargs="+", help="checkouts, the first one the baseline")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--evidence", type=Path, metavar="OUT", help="store imports.csv and run.json in OUT")
    args = parser.parse_args()
    revision = commit()
    repos = [repo.resolve() for repo in args.repos]
    commits = {repo: checkout_commit(repo) for repo in repos}
    rows = []
    print(f"{'module':<42} {'checkout':<20} {'CPU s':>6} {'ratio':>6}  libraries")
    for module in MODULES:
        samples: dict[Path, list[float]] = {repo: [] for repo in repos}
        loaded: dict[Path, str] = {}
        for _ in range(args.repeats):
            for repo in repos:
                cpu, loaded[repo] = import_cpu(repo, module)
                samples[repo].append(cpu)
        base = statistics.median(samples[repos[0]])
        for repo in repos:
            median = statistics.median(samples[repo])
            print(f"{module:<42} {repo.name:<20} {median:6.2f} {median / base:6.2f}  {loaded[repo]}")
            rows.append({"module": module, "commit": commits[repo], "median_cpu_s": median,
                         "ratio_to_baseline": median / base, "libraries": loaded[repo]})
    if args.evidence:
        write_evidence(args.evidence, {"imports.csv": pd.DataFrame(rows)}, {
            "command": "python benchmarks/job_imports.py " + " ".join(f"CHECKOUT_{c}" for c in commits.values())
                       + f" --repeats {args.repeats} --evidence OUT",
            "commit": revision, "checkouts": list(commits.values()), "repeats": args.repeats,
            "clock": "getrusage of each ended child (user + system CPU s), median over the repeats",
            "load_1min_at_end": round(os.getloadavg()[0], 2),
        })


if __name__ == "__main__":
    main()
