"""Counts that docs/ quotes and that a stored evidence folder holds only implicitly (issue 35: every
whole number of the record traced), each written as ``quantity,value,source`` with where it comes
from; the folder's other files are left as they are.

    python benchmarks/store_counts.py classes RESULTS docs/evidence/eltec_fra_tasks
    python benchmarks/store_counts.py metadata ../shared/eltec/ELTeC-eng ... --evidence docs/evidence/eltec_metadata
    python benchmarks/store_counts.py fused-adam docs/evidence/fused_adam
    python benchmarks/store_counts.py options docs/evidence/row_cost
    python benchmarks/store_counts.py extraction-settings docs/evidence/perf_extract_memory

``classes``: the documents (excerpts, or whole texts) and texts of a finished TEI run's corpus per
time slot and gender, from ``RESULTS/corpus/f1.parquet`` (one row a document; an excerpt names its
text in ``source_id``), written as ``counts.csv``. ``metadata``: per ELTeC collection, the rows of
its ``*_metadata.tsv`` (per time slot and gender), its ``level1/*.xml`` files and its first and last
reference year, a new evidence folder (``evidence_run.write_evidence``; no text is read or copied).
``fused-adam``: the networks and pairs of ``benchmarks/fused_adam.py``'s ``networks.csv``, written
beside it as ``counts.csv``. ``options``: the numeric options of the command(s) in the folder's
``run.json`` (``--repeats 2``), as ``options.csv``. ``extraction-settings``: the package's bounds of
an extraction (chunk cache, piece length, ``extract_book``'s memory), as ``settings.csv``; run it at
the commit the folder was measured at or one where these constants are the same.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, write_evidence  # noqa: E402


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="kind", required=True)
    classes = sub.add_parser("classes")
    classes.add_argument("results", type=Path)
    classes.add_argument("out", type=Path)
    metadata = sub.add_parser("metadata")
    metadata.add_argument("collections", type=Path, nargs="+")
    metadata.add_argument("--evidence", type=Path, required=True)
    fused = sub.add_parser("fused-adam")
    fused.add_argument("folder", type=Path)
    sub.add_parser("options").add_argument("folder", type=Path)
    sub.add_parser("extraction-settings").add_argument("folder", type=Path)
    args = parser.parse_args()
    if args.kind == "classes":
        class_counts(args.results).to_csv(args.out / "counts.csv", index=False)
    elif args.kind == "metadata":
        names = " ".join(f"../shared/eltec/{path.name}" for path in args.collections)
        run = {"command": f"python benchmarks/store_counts.py metadata {names} --evidence docs/evidence/{args.evidence.name}",
               "commit": commit(), "collections": [path.name for path in args.collections]}
        write_evidence(args.evidence, {"counts.csv": pd.concat([metadata_counts(p) for p in args.collections])}, run)
    elif args.kind == "options":
        run = json.loads((args.folder / "run.json").read_text(encoding="utf-8"))
        command_options(run).to_csv(args.folder / "options.csv", index=False)
    elif args.kind == "extraction-settings":
        extraction_settings().to_csv(args.folder / "settings.csv", index=False)
    else:
        fused_adam_counts(pd.read_csv(args.folder / "networks.csv")).to_csv(args.folder / "counts.csv", index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
