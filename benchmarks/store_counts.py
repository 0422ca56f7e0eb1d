"""Counts that docs/ quotes and that a stored evidence folder holds only implicitly (issue 35: every
whole number of the record traced), each written as ``quantity,value,source`` with where it comes
from; the folder's other files are left as they are.

    python benchmarks/store_counts.py classes RESULTS docs/evidence/eltec_fra_tasks
    python benchmarks/store_counts.py metadata ../shared/eltec/ELTeC-eng ... --evidence docs/evidence/eltec_metadata
    python benchmarks/store_counts.py fused-adam docs/evidence/fused_adam
    python benchmarks/store_counts.py options docs/evidence/row_cost
    python benchmarks/store_counts.py extraction-settings docs/evidence/perf_extract_memory
    python benchmarks/store_counts.py default-run RESULTS [--evidence docs/evidence]
    python benchmarks/store_counts.py book-cpu docs/evidence/perf_book_cpu_cuts
    python benchmarks/store_counts.py ready-times docs/evidence/default_run
    python benchmarks/store_counts.py overview docs/evidence
    python benchmarks/store_counts.py job-groups docs/evidence/eltec_from_nothing

``classes``: the documents (excerpts, or whole texts) and texts of a finished TEI run's corpus per
time slot and gender, from ``RESULTS/corpus/f1.parquet`` (one row a document; an excerpt names its
text in ``source_id``), written as ``counts.csv``. ``metadata``: per ELTeC collection, the rows of
its ``*_metadata.tsv`` (per time slot and gender), its ``level1/*.xml`` files and its first and last
reference year, a new evidence folder (``evidence_run.write_evidence``; no text is read or copied).
``fused-adam``: the networks and pairs of ``benchmarks/fused_adam.py``'s ``networks.csv``, written
beside it as ``counts.csv``, and per class size (``sizes.csv``) the pairs whose two fits differ in
accuracy, in epochs (with the least and most epoch difference) and in predictions (their sets). ``options``: the numeric options of the command(s) in the folder's
``run.json`` (``--repeats 2``), as ``options.csv``. ``extraction-settings``: the package's bounds of
an extraction (chunk cache, piece length, ``extract_book``'s memory), as ``settings.csv``; run it at
the commit the folder was measured at or one where these constants are the same.

``book-cpu``: a ``bench_workflow.py --whole-call --baseline`` folder's ``differences.csv``,
``calls.csv`` and ``run.json`` as one long table, ``cells.csv`` (one row a measure and a side:
``baseline`` or ``this tree``, with its commit; the difference and ratio on the ``this tree`` rows;
the one-minute load after each call; whether the corpus tables are identical; the folder's
``package_bytecode``), so that a docs table can set two such folders side by side.

``ready-times``: a stored run's ``run.json`` ``ready_s_after_start`` (seconds from the start of
the call to each output) as ``ready.csv``, each also in minutes and seconds.

``overview``: the default run's summary in one row, ``default_run/overview.csv``, from the stored
``default_run/`` (``corpus_summary.csv``, ``selection_filters.csv``, ``run.json``) and
``paper_only_run/`` (``run.json``, the ``*_results.csv`` compared with the default run's seed 0)
and ``selection.min_docs_per_author`` and ``extraction.min_marks`` of ``config/config.yaml``.

``job-groups``: a ``benchmarks/eltec_from_nothing.py`` folder's ``job_costs.csv`` (each
collection's job families) and ``calls.csv`` summed into the groups of :func:`job_group` per
collection and over all collections (``all``), with the CPU no job's cost line holds (``rest``: the
calls' CPU less the cost lines: per-book jobs, Snakemake's own process, the report) and each group's
share of its collection's CPU, written beside them as ``groups.csv``.

``default-run``: from the default run's results folder RESULTS (docs/evidence/default_run/, its
``run.json`` gives the command: the defaults of ``config/config.yaml`` with a mirror block only)
and the stored folders, writes:


- ``length_curve/settings.csv``: the excerpt lengths n (the ``length`` column of ``results.csv``),
  the word methods' vocabulary sizes k (its ``words<k>`` feature sets), and per n the corpus books
  with fewer than n marks and their share (``n_marks`` of RESULTS' ``corpus/f1.parquet``);
- ``protocol_rows/counts.csv``: per task and class size the cells of ``protocol_effect.csv``, those
  whose mean effect is at least 0, those whose mean effect exceeds its sd over seeds (|effect| >
  effect_sd) and the others, and the networks' ``recognition.mlp`` settings of the rows (the
  schema's defaults, which ``benchmarks/recognition_rows.py`` starts from);
- ``authors_code/counts.csv``: each mark's total over ``books.csv``, ours and theirs;
- ``default_run/settings.csv``: ``recognition.words.pool_per_book`` of the config;
- ``default_run/paper.csv``: the paper's Table 4 training and test documents of its 32-genre row
  (``punctstyle.report.results_tables.PAPER_GENRE_SIZES``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from punctstyle.io import atomic_open
from punctstyle.report.results_tables import PAPER_GENRE_SIZES
from punctstyle.settings import schema_defaults

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, write_evidence  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def counts_frame(rows: list[tuple[str, float, str]]) -> pd.DataFrame:
    """``(quantity, value, source)`` rows as a table."""
    return pd.DataFrame(rows, columns=["quantity", "value", "source"])


def class_counts(results: Path) -> pd.DataFrame:
    """Documents and texts of a run's corpus in all and per value of ``time_slot`` and ``gender``
    (blank values left out): documents = rows of ``corpus/f1.parquet``, texts = distinct
    ``source_id`` (``book_id`` where the run kept whole texts)."""
    frame = pd.read_parquet(results / "corpus" / "f1.parquet")
    text = "source_id" if "source_id" in frame else "book_id"
    where = "corpus/f1.parquet"
    rows = [("documents", len(frame), f"{where}: rows"),
            ("texts", frame[text].nunique(), f"{where}: distinct {text}"),
            ("authors", frame["author"].nunique(), f"{where}: distinct author")]
    for column in ("time_slot", "gender"):
        if column not in frame:
            continue
        labelled = frame[frame[column].notna() & (frame[column] != "")]
        for label, group in labelled.groupby(column):
            rows.append((f"documents {column}={label}", len(group), f"{where}: rows with {column} {label}"))
            rows.append((f"texts {column}={label}", group[text].nunique(),
                         f"{where}: distinct {text} with {column} {label}"))
    return counts_frame(rows)


def metadata_counts(collection: Path) -> pd.DataFrame:
    """One ELTeC collection's table: its rows (novels listed) per ``time-slot`` and
    ``author-gender``, its first and last ``reference-year``, and its ``level1/*.xml`` files."""
    table_path = next(iter(sorted(collection.glob("*_metadata.tsv"))))
    table = pd.read_csv(table_path, sep="\t", dtype=str)
    name, where = collection.name, table_path.name
    years = pd.to_numeric(table["reference-year"], errors="coerce")
    rows = [(f"{name} rows", len(table), f"{where}: rows"),
            (f"{name} files", len(list(collection.glob("level1/*.xml"))), "level1/*.xml: files"),
            (f"{name} first reference year", int(years.min()), f"{where}: least reference-year"),
            (f"{name} last reference year", int(years.max()), f"{where}: greatest reference-year")]
    for column in ("time-slot", "author-gender"):
        for label, size in table[column].value_counts().sort_index().items():
            rows.append((f"{name} rows {column}={label}", int(size), f"{where}: rows with {column} {label}"))
    return counts_frame(rows)


def fused_adam_counts(networks: pd.DataFrame) -> pd.DataFrame:
    """Pairs (rows of ``networks.csv``: one foreach and one fused fit each), feature sets, pairs a
    class size, and pairs whose two fits differ in accuracy."""
    where = "networks.csv"
    per_size = networks.groupby("n_classes").size()
    rows = [("pairs", len(networks), f"{where}: rows"),
            ("feature sets", networks["feature_set"].nunique(), f"{where}: distinct feature_set"),
            ("seeds", networks["seed"].nunique(), f"{where}: distinct seed"),
            ("pairs with another accuracy", int((networks["accuracy_difference"] != 0).sum()),
             f"{where}: rows with accuracy_difference not 0")]
    rows += [(f"pairs at {size} classes", int(n), f"{where}: rows with n_classes {size}") for size, n in per_size.items()]
    return counts_frame(rows)


def fused_adam_sizes(networks: pd.DataFrame) -> pd.DataFrame:
    """Per class size: pairs with another accuracy (``accuracy_difference != 0``), with another
    epoch count (``|epochs_fused - epochs_foreach| > 0``, its least and most over those pairs),
    the feature sets of the pairs predicting differently (joined by `` or ``), and the first pair
    with another accuracy (``changed_*``: its seed, set, two accuracies and test books predicted
    differently; NaN where none)."""
    rows = []
    for size, group in networks.groupby("n_classes", sort=True):
        epochs = (group["epochs_fused"] - group["epochs_foreach"]).abs()
        changed = group[group["accuracy_difference"] != 0]
        differ = group.loc[group["documents_predicted_differently"] > 0, "feature_set"]
        first = changed.iloc[0] if len(changed) else None
        rows.append({
            "n_classes": size,
            "networks_other_accuracy": len(changed),
            "networks_other_epochs": int((epochs > 0).sum()),
            "epoch_difference_min": epochs[epochs > 0].min() if (epochs > 0).any() else np.nan,
            "epoch_difference_max": epochs[epochs > 0].max() if (epochs > 0).any() else np.nan,
            "sets_predicting_differently": " or ".join(dict.fromkeys(differ)) if len(differ) else np.nan,
            "changed_seed": np.nan if first is None else first["seed"],
            "changed_feature_set": np.nan if first is None else first["feature_set"],
            "changed_accuracy_foreach": np.nan if first is None else first["accuracy_foreach"],
            "changed_accuracy_fused": np.nan if first is None else first["accuracy_fused"],
            "changed_documents": np.nan if first is None else first["documents_predicted_differently"],
        })
    return pd.DataFrame(rows)


def book_cpu_cells(differences: pd.DataFrame, calls: pd.DataFrame, run: dict) -> pd.DataFrame:
    """The long table of ``book-cpu`` (module docstring): a ``baseline`` row (``value`` =
    ``baseline``) and a ``this tree`` row (``value`` = ``this_tree``, with ``difference`` =
    this - baseline and ``ratio`` = this / baseline) per measure of ``differences.csv``; a
    ``load_1min_after`` row per call; an ``identical`` row on the baseline side (1 or 0)."""
    commits = dict(zip(calls["tree"], calls["commit"], strict=True))
    rows = []
    for _, d in differences.iterrows():
        rows.append({"what": d["what"], "tree": "baseline", "value": d["baseline"]})
        rows.append({"what": d["what"], "tree": "this tree", "value": d["this_tree"],
                     "difference": d["difference"], "ratio": d["ratio"]})
    rows += [{"what": "load_1min_after", "tree": t, "value": v} for t, v in zip(calls["tree"], calls["load_1min_after"], strict=True)]
    rows.append({"what": "corpus_tables_identical", "tree": "baseline", "value": float(bool(run["corpus_tables_identical"]))})
    out = pd.DataFrame(rows, columns=["what", "tree", "value", "difference", "ratio"])
    out.insert(2, "commit", out["tree"].map(commits))
    out["package_bytecode"] = run["package_bytecode"]
    return out


def ready_times(run: dict) -> pd.DataFrame:
    """``run["ready_s_after_start"]`` as rows ``step, ready_s, ready_min, ready_rest_s``:
    ``ready_min = floor(ready_s / 60)``, ``ready_rest_s = ready_s - 60 ready_min``."""
    ready = run["ready_s_after_start"]
    seconds = np.asarray(list(ready.values()), dtype=float)
    minutes = np.floor(seconds / 60)
    return pd.DataFrame({"step": list(ready), "ready_s": seconds, "ready_min": minutes,
                         "ready_rest_s": seconds - 60 * minutes})


RESULT_KEYS = ["task", "n_classes", "seed", "method", "feature_set"]


def equal_experiments(paper: pd.DataFrame, default: pd.DataFrame) -> tuple[int, int]:
    """(experiments of the paper-only run, those whose ``n_train``, ``n_test`` and ``accuracy``
    equal, value for value, the default run's experiment of the same task, size, seed, method
    and set)."""
    both = paper.merge(default, on=RESULT_KEYS, how="left", suffixes=("", "_default"))
    same = np.ones(len(both), dtype=bool)
    for column in ("n_train", "n_test", "accuracy"):
        same &= (both[column] == both[f"{column}_default"]).to_numpy()
    return len(both), int(same.sum())


def run_overview(ev: Path, min_docs: int, min_marks: int) -> pd.DataFrame:
    """The one row of ``overview`` (module docstring): ``catalog_rows`` = removed + remaining of
    the first selection filter, ``removed_<filter>`` per filter, the corpus summary's counts,
    ``authors_dropped_corpus`` = authors selected - authors in the corpus, each run's cost."""
    run_dir, paper_dir = ev / "default_run", ev / "paper_only_run"
    corpus = pd.read_csv(run_dir / "corpus_summary.csv").set_index("key")["value"]
    filters = pd.read_csv(run_dir / "selection_filters.csv")
    row = {"catalog_rows": int(filters["removed"].iloc[0] + filters["remaining"].iloc[0])}
    row |= {f"removed_{f}": int(n) for f, n in zip(filters["filter"], filters["removed"], strict=True)}
    for key in ("books_selected", "authors_selected", "books_in_corpus", "authors_in_corpus",
                "books_with_genre", "genres_in_corpus", "excluded_by_stage.features", "excluded_by_stage.corpus"):
        row[key.replace(".", "_")] = int(corpus[key])
    row["excluded_few_marks"] = int(corpus["excluded_by_reason.too few punctuation marks (< 100)"])
    row["excluded_no_quotation_mark"] = int(corpus["excluded_by_reason.no double quotation mark (the paper's rule)"])
    row["authors_dropped_corpus"] = row["authors_selected"] - row["authors_in_corpus"]
    row["min_docs_per_author"], row["min_marks"] = min_docs, min_marks
    for prefix, folder in (("run", run_dir), ("paper", paper_dir)):
        cost = json.loads((folder / "run.json").read_text(encoding="utf-8"))["cost"]
        row |= {f"{prefix}_{k}": cost[k] for k in ("wall_min", "wall_rest_s", "wall_s", "cpu_s")}
    tasks = ("author_results.csv", "genre_results.csv")
    paper = pd.concat([pd.read_csv(paper_dir / t) for t in tasks])
    default = pd.concat([pd.read_csv(run_dir / t) for t in tasks])
    row["paper_experiments"], row["paper_experiments_equal"] = equal_experiments(paper, default[default["seed"] == 0])
    return pd.DataFrame([row])


def command_options(run: dict) -> pd.DataFrame:
    """Each ``--name NUMBER ...`` of the ``command`` (or of each of ``commands``) of a run.json:
    one row a number, in the order written."""
    commands = [run["command"]] if "command" in run else [c["command"] for c in run["commands"]]
    rows = []
    for command in commands:
        for name, values in re.findall(r"(--[\w-]+)((?:\s+-?\d+(?:\.\d+)?(?=\s|$))+)", command):
            rows += [(name, int(v) if float(v).is_integer() else float(v), f"run.json command: {command}")
                     for v in values.split()]
    return counts_frame(rows)


def extraction_settings() -> pd.DataFrame:
    """The bounds of a book's extraction as the package holds them."""
    from punctstyle.book.memory import EXTRACTION_BASE_MB, EXTRACTION_TEXT_FACTOR
    from punctstyle.text.chunk_cache import DEFAULT_MAX_CACHE, PIECE_CHARS

    return counts_frame([
        ("chunks the cache holds at most", DEFAULT_MAX_CACHE, "punctstyle.text.chunk_cache.DEFAULT_MAX_CACHE"),
        ("characters a piece", PIECE_CHARS, "punctstyle.text.chunk_cache.PIECE_CHARS"),
        ("extract_book mem_mb besides the text (MB)", EXTRACTION_BASE_MB, "punctstyle.book.memory.EXTRACTION_BASE_MB"),
        ("extract_book mem_mb per MB of text", EXTRACTION_TEXT_FACTOR, "punctstyle.book.memory.EXTRACTION_TEXT_FACTOR"),
    ])


def config_value(config: dict, key: str) -> float:
    """The value of a dotted ``key`` (``recognition.mlp.max_epochs``) of a parsed configuration."""
    value = config
    for part in key.split("."):
        value = value[part]
    return value


def length_settings(results_csv: pd.DataFrame, n_marks: np.ndarray) -> pd.DataFrame:
    """The curve's lengths n, its vocabulary sizes k, and per n the books with ``n_marks < n``
    (count, and share = count / books)."""
    lengths = sorted({int(n) for n in results_csv["length"].astype(str) if n.isdigit()})
    sizes = sorted({int(m.group(1)) for m in map(re.compile(r"words(\d+)$").match, results_csv["feature_set"]) if m})
    rows = [("length_marks", n, "length column of results.csv (config length_curve.lengths)") for n in lengths]
    rows += [("word_vocabulary_k", k, "feature sets words<k> of results.csv (config length_curve.methods)")
             for k in sizes]  # fmt: skip
    for n in lengths:
        shorter = int((n_marks < n).sum())
        source = f"corpus/f1.parquet of the run: books with n_marks < {n} (of {len(n_marks)})"
        rows += [(f"books_shorter_than_{n}", shorter, source),
                 (f"share_shorter_than_{n}", shorter / len(n_marks), source)]  # fmt: skip
    return counts_frame(rows)


def protocol_counts(effect: pd.DataFrame, defaults: dict) -> pd.DataFrame:
    """Per task and class size of ``protocol_effect.csv``: its cells, the cells with effect >= 0,
    with |effect| > effect_sd and with |effect| <= effect_sd; per task the same over its class
    sizes; the schema's ``recognition.mlp`` defaults the rows ran with (``recognition_rows.py``
    starts from them)."""
    rows = []
    groups = [(task, classes, part) for (task, classes), part in effect.groupby(["task", "n_classes"])]
    groups += [(task, "all", part) for task, part in effect.groupby("task")]
    for task, classes, part in groups:
        beyond_sd = part["effect"].abs() > part["effect_sd"]
        source = f"protocol_effect.csv, task {task}, n_classes {classes}"
        rows += [(f"{task}_{classes}_cells", len(part), source),
                 (f"{task}_{classes}_cells_effect_at_least_0", int((part["effect"] >= 0).sum()), source),
                 (f"{task}_{classes}_cells_effect_beyond_sd", int(beyond_sd.sum()), source),
                 (f"{task}_{classes}_cells_within_sd", int((~beyond_sd).sum()), source)]  # fmt: skip
    for key in ("max_epochs", "patience", "validation_fraction"):
        rows.append((key, config_value(defaults, f"recognition.mlp.{key}"), f"schema default recognition.mlp.{key}"))
    return counts_frame(rows)


def mark_totals(books: pd.DataFrame) -> pd.DataFrame:
    """Each ``ours <mark>`` and ``theirs <mark>`` column of ``books.csv`` summed over its books."""
    marked = [c for c in books.columns if c.startswith(("ours ", "theirs "))]
    return pd.DataFrame([(f"total {c}", int(books[c].sum()), "books.csv: sum of the column") for c in marked],
                        columns=["quantity", "value", "source"])  # fmt: skip


def job_group(family: str) -> str:
    """The group of a job family (``job_costs.family``): ``recognition`` (the rows and their tables),
    ``length``, ``importance``, ``across_languages``, ``figures``, or ``other`` (attribution,
    verification, rolling, maps, parts, consistency, corpus, temporal)."""
    if family == "beyond/across_languages":
        return "across_languages"
    if family.startswith("beyond/f3_importance"):
        return "importance"
    head = family.split("/")[0]
    return head if head in ("recognition", "length", "figures") else "other"


def job_groups(costs: pd.DataFrame, calls: pd.DataFrame) -> pd.DataFrame:
    """CPU s per collection and :func:`job_group`, ``rest`` (the calls' CPU less the cost lines)
    and ``all`` collections; ``share``: of the collection's (or all calls') CPU."""
    grouped = costs.assign(group=costs["family"].map(job_group)).groupby(["collection", "group"])["cpu_s"].sum()
    rows = []
    for collection, cpu in calls.groupby("collection", sort=False)["cpu_s"].sum().items():
        parts = grouped.loc[collection] if collection in grouped.index.get_level_values(0) else pd.Series(dtype=float)
        rows += [(collection, group, float(value)) for group, value in parts.items()]
        rows.append((collection, "rest", float(cpu - parts.sum())))
    table = pd.DataFrame(rows, columns=["collection", "group", "cpu_s"])
    total = table.groupby("group", sort=False)["cpu_s"].sum().reset_index().assign(collection="all")
    table = pd.concat([table, total[["collection", "group", "cpu_s"]]], ignore_index=True)
    denominators = {**calls.groupby("collection")["cpu_s"].sum().to_dict(), "all": float(calls["cpu_s"].sum())}
    return table.assign(share=table["cpu_s"] / table["collection"].map(denominators))


def write_table(path: Path, frame: pd.DataFrame, float_format: str | None = "%.6g") -> None:
    """``frame`` as CSV, written atomically: floats to 6 significant digits, or as pandas writes
    them by default (``float_format=None``: the files first stored that way keep their bytes)."""
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False, float_format=float_format)


def store_default_run_counts(results: Path, ev: Path) -> None:
    """The ``default-run`` files (module docstring), from RESULTS and the stored folders of ``ev``."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
    n_marks = pd.read_parquet(results / "corpus" / "f1.parquet", columns=["n_marks"])["n_marks"].to_numpy()
    curve = pd.read_csv(ev / "length_curve" / "results.csv", dtype={"length": str})
    write_table(ev / "length_curve" / "settings.csv", length_settings(curve, n_marks))
    effect = pd.read_csv(ev / "protocol_rows" / "protocol_effect.csv")
    write_table(ev / "protocol_rows" / "counts.csv", protocol_counts(effect, schema_defaults()))
    write_table(ev / "authors_code" / "counts.csv", mark_totals(pd.read_csv(ev / "authors_code" / "books.csv")))
    key = "recognition.words.pool_per_book"
    write_table(ev / "default_run" / "settings.csv", counts_frame([(key, config_value(config, key), f"config/config.yaml {key}")]))
    paper = pd.DataFrame({"table": ["Table 4", "Table 4"], "row": ["32 genres, network"] * 2,
                          "quantity": ["train", "test"], "paper": list(PAPER_GENRE_SIZES)})  # fmt: skip
    write_table(ev / "default_run" / "paper.csv", paper)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="kind", required=True)
    classes = sub.add_parser("classes")
    classes.add_argument("results", type=Path)
    classes.add_argument("out", type=Path)
    metadata = sub.add_parser("metadata")
    metadata.add_argument("collections", type=Path, nargs="+")
    metadata.add_argument("--evidence", type=Path, required=True)
    sub.add_parser("book-cpu").add_argument("folder", type=Path)
    sub.add_parser("ready-times").add_argument("folder", type=Path)
    sub.add_parser("overview").add_argument("evidence", type=Path, nargs="?", default=REPO / "docs" / "evidence")
    fused = sub.add_parser("fused-adam")
    fused.add_argument("folder", type=Path)
    sub.add_parser("options").add_argument("folder", type=Path)
    sub.add_parser("extraction-settings").add_argument("folder", type=Path)
    sub.add_parser("job-groups").add_argument("folder", type=Path)
    default_run = sub.add_parser("default-run")
    default_run.add_argument("results", type=Path, help="the default run's results folder")
    default_run.add_argument("--evidence", type=Path, default=REPO / "docs" / "evidence")
    args = parser.parse_args()
    if args.kind == "default-run":
        store_default_run_counts(args.results, args.evidence)
    elif args.kind == "classes":
        write_table(args.out / "counts.csv", class_counts(args.results), float_format=None)
    elif args.kind == "metadata":
        names = " ".join(f"../shared/eltec/{path.name}" for path in args.collections)
        run = {"command": f"python benchmarks/store_counts.py metadata {names} --evidence docs/evidence/{args.evidence.name}",
               "commit": commit(), "collections": [path.name for path in args.collections]}
        write_evidence(args.evidence, {"counts.csv": pd.concat([metadata_counts(p) for p in args.collections])}, run)
    elif args.kind == "options":
        run = json.loads((args.folder / "run.json").read_text(encoding="utf-8"))
        write_table(args.folder / "options.csv", command_options(run), float_format=None)
    elif args.kind == "book-cpu":
        run = json.loads((args.folder / "run.json").read_text(encoding="utf-8"))
        cells = book_cpu_cells(pd.read_csv(args.folder / "differences.csv"), pd.read_csv(args.folder / "calls.csv"), run)
        write_table(args.folder / "cells.csv", cells)
    elif args.kind == "ready-times":
        run = json.loads((args.folder / "run.json").read_text(encoding="utf-8"))
        write_table(args.folder / "ready.csv", ready_times(run))
    elif args.kind == "overview":
        config = yaml.safe_load((REPO / "config" / "config.yaml").read_text(encoding="utf-8"))
        overview = run_overview(args.evidence, int(config["selection"]["min_docs_per_author"]),
                                int(config["extraction"]["min_marks"]))
        write_table(args.evidence / "default_run" / "overview.csv", overview)
    elif args.kind == "job-groups":
        groups = job_groups(pd.read_csv(args.folder / "job_costs.csv"), pd.read_csv(args.folder / "calls.csv"))
        write_table(args.folder / "groups.csv", groups)
    elif args.kind == "extraction-settings":
        write_table(args.folder / "settings.csv", extraction_settings(), float_format=None)
    else:
        networks = pd.read_csv(args.folder / "networks.csv")
        write_table(args.folder / "counts.csv", fused_adam_counts(networks), float_format=None)
        write_table(args.folder / "sizes.csv", fused_adam_sizes(networks), float_format=None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
