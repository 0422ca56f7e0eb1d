"""Store a finished workflow run's result tables as evidence (issue 35 item 1): the small CSV
tables that docs/results.md quotes, copied from the run's outdir under names without folders,
the paper comparison of Tables 2-4 (``punctstyle.report.paper_comparison``), the run's cost per
job family (``benchmarks/job_costs.py``) and ``run.json`` (command, configuration, commit, the
corpus's fingerprint, CPU seconds and wall time of the whole call, the machine's load).

    python benchmarks/store_default_run.py RESULTS OUT --time TIME_V --commit SHA \\
        [--command "..."] [--config my.yaml] [--load-before F] [--load-after F] [--load-log F]

RESULTS: the run's outdir; OUT: the evidence folder (``docs/evidence/default_run``); TIME_V: the
output of ``/usr/bin/time -v`` around the ``snakemake`` call; ``--commit``: the commit the run
ran at (the store's own commit may be later). ``--load-before``/``--load-after``: ``/proc/loadavg``
(or ``uptime``) captured at the call's start and end; ``--load-log``: lines ``HH:MM:SS`` then
``/proc/loadavg``'s fields, sampled during the run (their mean 1-minute load is stored).
No absolute path is written: the configuration's ``outdir`` is dropped.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import pandas as pd
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import corpus_fingerprint, write_evidence  # noqa: E402
from job_costs import family, job_costs  # noqa: E402

from punctstyle.report.paper_comparison import PAPER_ACCURACY, comparison_rows  # noqa: E402

# (stored name, path under the outdir): the tables results.md quotes, when the run made them.
TABLES: tuple[tuple[str, str], ...] = (
    ("selection_filters.csv", "corpus/selection_filters.csv"),
    ("exclusions.csv", "corpus/exclusions.csv"),
    ("consistency_summary.csv", "analysis/consistency/summary.csv"),
    ("author_summary.csv", "analysis/recognition/author_summary.csv"),
    ("author_results.csv", "analysis/recognition/author_results.csv"),
    ("genre_summary.csv", "analysis/recognition/genre_summary.csv"),
    ("genre_results.csv", "analysis/recognition/genre_results.csv"),
    ("author_words_summary.csv", "analysis/recognition/author_words_summary.csv"),
    ("author_words_results.csv", "analysis/recognition/author_words_results.csv"),
    ("genre_words_summary.csv", "analysis/recognition/genre_words_summary.csv"),
    # ELTeC's tasks (a TEI corpus: metadata_tasks), each with its word baselines when run
    *((f"{task}_{kind}.csv", f"analysis/recognition/{task}_{kind}.csv") for task in ("time_slot", "gender")
      for kind in ("summary", "results", "words_summary", "words_results")),
    ("appendix_author.csv", "tables/appendix_author.csv"),
    ("appendix_genre.csv", "tables/appendix_genre.csv"),
    ("verification_summary.csv", "analysis/verification/summary.csv"),
    ("rolling_summary.csv", "analysis/rolling/summary.csv"),
    ("temporal_f1_by_decade.csv", "analysis/temporal/f1_by_decade.csv"),
    ("temporal_rate_by_decade.csv", "analysis/temporal/rate_by_decade.csv"),
    ("skipped_analyses.csv", "analysis/skipped_analyses.csv"),
    ("importance_f3.csv", "analysis/beyond/f3_importance.csv"),
    ("importance_f3_top_k.csv", "analysis/beyond/f3_top_k.csv"),
    ("parts.csv", "analysis/beyond/parts.csv"),
    ("parts_summary.csv", "analysis/beyond/parts_summary.csv"),
)
# JSON summaries stored as key/value tables.
JSONS: tuple[tuple[str, str], ...] = (
    ("importance_f3_summary.csv", "analysis/beyond/f3_importance.json"),
    ("parts_json.csv", "analysis/beyond/parts.json"),
    ("temporal_summary.csv", "analysis/temporal/summary.json"),
)
# Folders whose every CSV is stored, prefixed with the folder's name (small tables only).
FOLDERS: tuple[tuple[str, str], ...] = (("cross", "analysis/cross"),)
MAX_BYTES = 400_000
"""A table larger than this is left out (and named in run.json): the folder stays a few MB."""


def flatten(value: object, prefix: str = "") -> list[tuple[str, object]]:
    """(dotted key, scalar) of a parsed JSON value; lists of scalars keep their index."""
    if isinstance(value, dict):
        return [item for key, sub in value.items() for item in flatten(sub, f"{prefix}{key}.")]
    if isinstance(value, list):
        return [item for i, sub in enumerate(value) for item in flatten(sub, f"{prefix}{i}.")]
    return [(prefix.rstrip("."), value)]


def json_table(path: Path) -> pd.DataFrame:
    """A JSON summary as a two-column table: ``key`` (dotted) and ``value`` (numbers numeric)."""
    rows = flatten(json.loads(path.read_text(encoding="utf-8")))
    numbers = pd.to_numeric(pd.Series([v for _, v in rows], dtype=object), errors="coerce")
    return pd.DataFrame({"key": [k for k, _ in rows], "value": numbers,
                         "text": [None if isinstance(v, int | float) else v for _, v in rows]})


def aliased(frame: pd.DataFrame, aliases: list[list[str]]) -> pd.DataFrame:
    """``frame`` with each text cell's absolute folder ``ABS`` written ``REL`` (``aliases``: pairs
    [ABS, REL]), so that no stored table names a folder of the machine the run ran on (an
    exclusion's reason names its file)."""
    frame = frame.copy()
    for column in frame.select_dtypes(include=["object", "string"]).columns:
        for absolute, relative in aliases:
            frame[column] = frame[column].map(lambda v, a=absolute, r=relative: v.replace(a, r) if isinstance(v, str) else v)
    return frame


def length_curve(results: Path) -> pd.DataFrame | None:
    """Every length-curve row file, one table (columns ``classes`` and ``seed`` added), and its
    mean and sd over seeds per (classes, method, training, marks) when those columns exist."""
    frames = []
    for path in sorted((results / "analysis" / "length" / "author").glob("*_classes/seed*_results.csv")):
        frame = pd.read_csv(path)
        seed = int(path.stem.removeprefix("seed").split("_")[0])
        if "seed" in frame:  # the driver's records carry their seed: it must be the file's
            if not (frame["seed"] == seed).all():
                raise ValueError(f"{path}: seed column differs from the file's seed {seed}")
        else:
            frame.insert(0, "seed", seed)
        frame.insert(0, "classes", path.parent.name.removesuffix("_classes"))
        frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else None


def seed_summary(frame: pd.DataFrame, value: str = "accuracy") -> pd.DataFrame | None:
    """Mean, sd (ddof 1) and count of ``value`` over seeds, per every other non-numeric column
    and ``marks`` (when present)."""
    if value not in frame:
        return None
    keys = [c for c in frame.columns if c not in {"seed", value} and (frame[c].dtype == object or c in {"marks", "classes"})]
    grouped = frame.groupby(keys, dropna=False)[value]
    return grouped.agg(mean="mean", sd="std", seeds="count").reset_index()


def family_costs(results: Path) -> pd.DataFrame:
    """``benchmarks/job_costs.py``'s table: per family, jobs, CPU s (sum, least, most), wall s
    (sum, where every job has a benchmark file) and peak MB; the last row sums every job."""
    groups: dict[str, list] = defaultdict(list)
    jobs = job_costs(results)
    for job in jobs:
        groups[family(job.name)].append(job)
    rows = []
    for name, members in sorted(groups.items()):
        walls = [job.wall_s for job in members if job.wall_s is not None]
        rows.append({"family": name, "jobs": len(members), "cpu_s": round(sum(j.cpu_s for j in members), 1),
                     "least_cpu_s": round(min(j.cpu_s for j in members), 1),
                     "most_cpu_s": round(max(j.cpu_s for j in members), 1),
                     "wall_s": round(sum(walls), 1) if len(walls) == len(members) else None,
                     "peak_mb": round(max(j.peak_mb for j in members))})
    rows.append({"family": "all jobs that logged their cost", "jobs": len(jobs),
                 "cpu_s": round(sum(j.cpu_s for j in jobs), 1)})
    return pd.DataFrame(rows)


EXPERIMENT = ["task", "n_classes", "seed", "method", "feature_set"]


def seed_comparison(results: Path, other: Path) -> pd.DataFrame:
    """Every recognition experiment of ``results`` beside the same (task, classes, seed, method,
    feature set) of ``other``: both accuracies, both epoch counts and whether they are equal."""
    frames = []
    for task in ("author", "genre"):
        mine = results / "analysis" / "recognition" / f"{task}_results.csv"
        theirs = other / "analysis" / "recognition" / f"{task}_results.csv"
        if mine.is_file() and theirs.is_file():
            frames.append(pd.read_csv(mine).merge(pd.read_csv(theirs), on=EXPERIMENT, how="left",
                                                  suffixes=("", "_other")))
    table = pd.concat(frames, ignore_index=True)
    table["equal"] = (table["accuracy"] == table["accuracy_other"]) & (table["epochs"] == table["epochs_other"])
    return table[[*EXPERIMENT, "accuracy", "accuracy_other", "epochs", "epochs_other", "equal"]]


def paper_tables() -> pd.DataFrame:
    """The paper's printed accuracies and baselines (Tables 2-4), as the code holds them
    (``punctstyle.report.paper_comparison.PAPER_ACCURACY``): quoted values, not measurements."""
    return pd.DataFrame([{"task": task, "method": method, "classes": classes, "feature set": name, "paper": value}
                         for (task, method, classes), cells in PAPER_ACCURACY.items() for name, value in cells.items()])


def time_v(path: Path) -> dict[str, float]:
    """User, system and wall seconds, peak memory and exit status of ``/usr/bin/time -v``."""
    text = path.read_text(encoding="utf-8")

    def field(label: str) -> str:
        match = re.search(rf"^\s*{re.escape(label)}: (.+)$", text, flags=re.M)
        if match is None:
            raise SystemExit(f"{path}: no '{label}' line")
        return match.group(1).strip()

    wall = 0.0
    for part in field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":"):
        wall = wall * 60 + float(part)
    user, system = float(field("User time (seconds)")), float(field("System time (seconds)"))
    return {"user_s": user, "system_s": system, "cpu_s": round(user + system, 1), "wall_s": round(wall, 1),
            "wall_min": int(wall // 60), "wall_rest_s": round(wall - 60 * (wall // 60)),
            "cpu_share_of_2_cores": round((user + system) / (2 * wall), 3),
            "peak_rss_mb": round(int(field("Maximum resident set size (kbytes)")) / 1024),
            "exit_status": int(field("Exit status"))}


MILESTONES = {
    "corpus tables": "corpus/summary.json",
    "consistency": "analysis/consistency/summary.csv",
    "Tables 2-3 (author_summary.csv)": "analysis/recognition/author_summary.csv",
    "Table 4 (genre_summary.csv)": "analysis/recognition/genre_summary.csv",
}


def milestones(results: Path, started: str) -> dict[str, int]:
    """Seconds from the call's start to each milestone output's last write (its mtime)."""
    from datetime import datetime

    start = datetime.fromisoformat(started.replace("Z", "+00:00")).timestamp()
    return {name: round((results / relative).stat().st_mtime - start)
            for name, relative in MILESTONES.items() if (results / relative).is_file()}


def loadavg(path: Path | None) -> list[float] | None:
    """The three load averages of a ``/proc/loadavg`` or ``uptime`` capture."""
    if path is None:
        return None
    match = re.search(r"(\d+\.\d+),? (\d+\.\d+),? (\d+\.\d+)", path.read_text(encoding="utf-8"))
    return [float(v) for v in match.groups()] if match else None


def load_during(path: Path | None, start: str | None, end: str | None) -> dict[str, float] | None:
    """Mean, least and most 1-minute load average of the samples between ``start`` and ``end``
    (``HH:MM:SS``)."""
    if path is None:
        return None
    values = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) >= 2 and (start is None or parts[0] >= start) and (end is None or parts[0] <= end):
            values.append(float(parts[1]))
    if not values:
        return None
    return {"samples": len(values), "mean_1min": round(sum(values) / len(values), 2),
            "least_1min": min(values), "most_1min": max(values)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--time", type=Path, help="/usr/bin/time -v output of the call (without it: a run still "
                        "going on, stored in part, its cost so far from --cpu-log)")
    parser.add_argument("--cpu-log", type=Path,
                        help="lines HH:MM:SS, the snakemake process's own CPU s and its finished children's, sampled "
                             "during the run (/proc/PID/stat), stored as cpu_snapshots.csv")
    parser.add_argument("--commit", required=True, help="the commit the run ran at")
    parser.add_argument("--command", default="snakemake --cores 2 --configfile my.yaml")
    parser.add_argument("--config", type=Path, help="the run's config overlay (outdir dropped)")
    parser.add_argument("--overlays", nargs="*", default=[], help="the repository's config files the call named")
    parser.add_argument("--load-before", type=Path)
    parser.add_argument("--load-after", type=Path)
    parser.add_argument("--load-log", type=Path)
    parser.add_argument("--start", help="HH:MM:SS (UTC) the call started, for --load-log")
    parser.add_argument("--end", help="HH:MM:SS (UTC) the call ended, for --load-log")
    parser.add_argument("--compare-with", type=Path,
                        help="another run's outdir (the 5-seed default run): each of this run's experiments beside the "
                             "same experiment there (seed_comparison.csv)")
    parser.add_argument("--path-alias", action="append", default=[], metavar="ABS=REL",
                        help="write the folder ABS as REL in every stored table (e.g. /data/shared=../shared)")
    parser.add_argument("--machine-note", required=True,
                        help="what else ran on the machine during the call (stored in run.json as said)")
    parser.add_argument("--started", help="ISO time (UTC) the call started: milestones are seconds after it")
    args = parser.parse_args()
    results = args.results

    tables: dict[str, pd.DataFrame] = {}
    left_out: list[str] = []

    def add(name: str, frame: pd.DataFrame | None) -> None:
        if frame is None or frame.empty:
            return
        if len(frame.to_csv(index=False, float_format="%.6g")) > MAX_BYTES:
            left_out.append(name)
            return
        tables[name] = frame

    add("corpus_summary.csv", json_table(results / "corpus" / "summary.json"))
    for name, relative in TABLES:
        if (results / relative).is_file():
            add(name, pd.read_csv(results / relative))
    for prefix, relative in FOLDERS:
        for path in sorted((results / relative).glob("*.csv")):
            add(f"{prefix}_{path.name}", pd.read_csv(path))
        for path in sorted((results / relative).glob("*.json")):
            add(f"{prefix}_{path.stem}.csv", json_table(path))
    for path in sorted((results / "analysis" / "maps").glob("*_summary.json")):
        add(f"maps_{path.stem}.csv", json_table(path))
    for name, relative in JSONS:
        if (results / relative).is_file():
            add(name, json_table(results / relative))
    curve = length_curve(results)
    if curve is not None:
        add("length_curve_results.csv", curve)
        add("length_curve_summary.csv", seed_summary(curve))
    summaries = [pd.read_csv(results / "analysis" / "recognition" / f"{task}_summary.csv")
                 for task in ("author", "genre") if (results / "analysis" / "recognition" / f"{task}_summary.csv").is_file()]
    if summaries:
        add("paper_comparison.csv", pd.concat([comparison_rows(s) for s in summaries], ignore_index=True))
    add("paper_tables.csv", paper_tables())
    if args.compare_with is not None:
        add("seed_comparison.csv", seed_comparison(results, args.compare_with))
    costs = family_costs(results)
    add("job_costs.csv", costs)

    config = yaml.safe_load(args.config.read_text(encoding="utf-8")) if args.config else {}
    config.pop("outdir", None)
    run = {
        "command": args.command,
        "config": {"files": ["config/config.yaml (the defaults)", *args.overlays, "my.yaml (below)"], "my.yaml": config},
        "commit": args.commit,
        "corpus": corpus_fingerprint(results),
        "cost": (cost := time_v(args.time) if args.time else {}),
        "clock": "GNU time -v (/usr/bin/time) of the snakemake call: user + system of the whole process tree; wall clock",
        "machine": {"cores": 2, "load_before": loadavg(args.load_before), "load_after": loadavg(args.load_after),
                    "load_during": load_during(args.load_log, args.start, args.end),
                    "note": args.machine_note},
        "tables_left_out": left_out,
    }
    if args.started:
        run["ready_s_after_start"] = milestones(results, args.started)
    logged = float(costs["cpu_s"].iloc[-1])
    cost["cpu_s_jobs_with_cost_line"] = round(logged, 1)
    if args.time:
        cost["cpu_s_rest"] = round(cost["cpu_s"] - logged, 1)
        cost["cpu_s_rest_share"] = round((cost["cpu_s"] - logged) / cost["cpu_s"], 3)
    else:
        run["status"] = ("partial: stored while the call was still running; only the outputs written by then, "
                         "no final cost (cpu_snapshots.csv: its CPU seconds so far)")
    if args.cpu_log is not None:
        rows = [line.split() for line in args.cpu_log.read_text(encoding="utf-8").splitlines() if len(line.split()) == 3]
        snaps = pd.DataFrame(rows, columns=["time_utc", "snakemake_cpu_s", "finished_children_cpu_s"])
        snaps[["snakemake_cpu_s", "finished_children_cpu_s"]] = snaps[["snakemake_cpu_s", "finished_children_cpu_s"]].astype(float)
        snaps["tree_cpu_s_finished"] = snaps["snakemake_cpu_s"] + snaps["finished_children_cpu_s"]
        tables["cpu_snapshots.csv"] = snaps
    aliases = [alias.split("=", 1) for alias in args.path_alias]
    write_evidence(args.out, {name: aliased(frame, aliases) for name, frame in tables.items()}, run)
    print(f"{args.out}: {len(tables)} tables; left out (over {MAX_BYTES} bytes): {left_out or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
