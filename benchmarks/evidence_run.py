"""Stored evidence of a measurement script (docs/evidence/<name>/, issue 35 item 1): the
checkout's commit, and the script's tables and ``run.json`` written atomically."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pandas as pd

from punctstyle.io import atomic_open

REPO = Path(__file__).resolve().parents[1]


def commit() -> str:
    """The checkout's commit (``git rev-parse HEAD``), with ``+changes`` when the tree differs
    from it; call it before anything is written."""
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain"], cwd=REPO, capture_output=True, text=True).stdout.strip()
    return head + ("+changes" if dirty else "")


def write_evidence(out: Path, tables: dict[str, pd.DataFrame], run: dict[str, Any]) -> None:
    """Each table as ``out/<name>`` (CSV, 6 significant digits) and ``run`` as ``out/run.json``,
    every file written to a temporary name and renamed."""
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in tables.items():
        with atomic_open(out / name, "w", newline="") as handle:
            frame.to_csv(handle, index=False, float_format="%.6g")
    with atomic_open(out / "run.json", "w", encoding="utf-8") as handle:
        handle.write(json.dumps(run, indent=1) + "\n")


def corpus_fingerprint(results: Path) -> dict[str, Any]:
    """What a results folder's corpus is, without its path (docs/ name no folder of a
    developer's machine): :func:`corpus_tables_fingerprint` of its ``corpus/``."""
    return corpus_tables_fingerprint(results / "corpus")


def corpus_tables_fingerprint(corpus: Path) -> dict[str, Any]:
    """What a folder of corpus tables is, without its path: its books and authors
    (``summary.json``) and the SHA-256 of its sorted book ids (the ``book_id`` column of
    ``f1.parquet``), one per line."""
    summary = json.loads((corpus / "summary.json").read_text(encoding="utf-8"))
    ids = sorted(pd.read_parquet(corpus / "f1.parquet", columns=["book_id"])["book_id"].unique())
    digest = hashlib.sha256("".join(f"{int(i)}\n" for i in ids).encode()).hexdigest()
    return {"books_in_corpus": summary["books_in_corpus"], "authors_in_corpus": summary["authors_in_corpus"],
            "book_ids_sha256": digest}


def gnu_time_seconds(path: Path) -> dict[str, float]:
    """CPU (user + system) and wall seconds of a ``/usr/bin/time -v`` report, one decimal; the
    wall clock ``h:mm:ss`` or ``m:ss`` read as ``((h * 60) + m) * 60 + s``."""
    text = path.read_text(encoding="utf-8")
    user = float(re.search(r"User time \(seconds\): ([\d.]+)", text).group(1))
    system = float(re.search(r"System time \(seconds\): ([\d.]+)", text).group(1))
    wall = 0.0
    for part in re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", text).group(1).split(":"):
        wall = wall * 60 + float(part)
    return {"cpu_s": round(user + system, 1), "wall_s": round(wall, 1)}
