"""Editions (issue 34 item 5): KL between two editions of one novel against KL between two
novels of one author and of two authors (:mod:`punctstyle.analyses.editions`).

The novels of a TEI collection (``--collection``, e.g. ``../shared/eltec/ELTeC-eng``) that are
also in a Gutenberg mirror (``--mirror``, read through the project's own download code with a
``file://`` URL) are matched by author surname and title. For each: the TEI body (the TEI
source's default) and the Gutenberg text (header and licence stripped, as in the workflow) go
through the same English extraction and f1..f6; the other Gutenberg books of the novel's
author in the mirror's catalog give the same-author pairs.

Writes, under ``--out`` (default ``docs/evidence/editions``): ``matches.csv`` (novel, book,
digital source of the TEI text, marks on each side), ``pairs.csv`` (every pair's KL per
feature), ``summary.csv`` (per feature and relation: pairs, median, quartiles, mean),
``shares.csv`` (per novel and feature: the edition's KL over the median same-author KL) and
``run.json`` (the command, commit, inputs and the ids of every text read). Prints the summary.

Usage: ``python benchmarks/editions.py --collection ../shared/eltec/ELTeC-eng
--mirror ../shared/gutenberg-mirror``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from punctstyle.analyses.editions import (
    edition_pairs,
    edition_share,
    match_editions,
    pair_divergences,
    relation_summary,
    source_name,
    surname_key,
)
from punctstyle.book.steps import clean_and_extract
from punctstyle.features import compute_features
from punctstyle.sources.catalog import read_catalog
from punctstyle.sources.download import fetch_book
from punctstyle.sources.tei import ELTEC_COLUMNS, digital_source, parse_tree, read_eltec_metadata, read_tei_file
from punctstyle.text.chunk_cache import ChunkCachedExtractor

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/evidence_run.py
from evidence_run import commit, write_evidence  # noqa: E402


FEATURES = ["f1", "f2", "f3", "f4", "f5", "f6"]
REPO = Path(__file__).resolve().parents[1]
# the mirror's layout, that of www.gutenberg.org (as config/test.yaml's url_templates)
SITE_TEMPLATES = ("cache/epub/{id}/pg{id}.txt", "files/{id}/{id}-0.txt", "files/{id}/{id}-0.zip",
                  "files/{id}/{id}.txt", "files/{id}/{id}.zip")


def collection_table(folder: Path) -> pd.DataFrame:
    """doc_id, author, title of every TEI file of an ELTeC collection (its metadata table)."""
    tables = sorted(folder.glob("*_metadata.tsv"))
    if not tables:
        raise SystemExit(f"{folder}: no *_metadata.tsv (an ELTeC collection's metadata table)")
    meta = read_eltec_metadata(tables[0]).rename(columns=ELTEC_COLUMNS)
    return pd.DataFrame({"doc_id": meta["filename"].astype(str), "author": meta["author"], "title": meta["title"]})


def sequence_features(text: str, extractor: ChunkCachedExtractor) -> tuple[dict[str, np.ndarray], int]:
    """f1..f6 of a raw text (the workflow's cleaning and extraction) and its number of marks."""
    sequence, _ = clean_and_extract(text, extractor)
    return compute_features(sequence.marks, sequence.gaps), len(sequence)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--collection", type=Path, required=True)
    parser.add_argument("--mirror", type=Path, required=True)
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "evidence" / "editions")
    parser.add_argument("--max-same-author", type=int, default=10,
                        help="at most this many other books of the author (lowest ids first)")
    args = parser.parse_args(argv)
    code = commit()  # before anything is written

    novels = collection_table(args.collection)
    raw_catalog = read_catalog(args.mirror / "cache" / "epub" / "feeds" / "pg_catalog.csv")
    catalog = pd.DataFrame({"book_id": raw_catalog["Text#"].astype(int), "authors": raw_catalog["Authors"],
                            "title": raw_catalog["Title"]})
    matches = match_editions(novels, catalog).drop_duplicates("doc_id")
    surnames = catalog["authors"].fillna("").str.split("; ").map(lambda people: {surname_key(p) for p in people})
    matched_books = set(matches["book_id"])
    others = {
        int(row.book_id): sorted(int(b) for b, names in zip(catalog["book_id"], surnames, strict=True)
                                 if row.surname in names and int(b) not in matched_books)[: args.max_same_author]
        for row in matches.itertuples(index=False)
    }

    extractor = ChunkCachedExtractor()
    base_url = args.mirror.resolve().as_uri()
    features, marks, sources = {}, {}, {}
    for row in matches.itertuples(index=False):
        path = args.collection / "level1" / f"{row.doc_id}.xml"
        document = read_tei_file(path)
        sources[row.doc_id] = digital_source(parse_tree(path.read_bytes()))
        features[("tei", row.doc_id)], marks[("tei", row.doc_id)] = sequence_features(document.text, extractor)
    for book_id in sorted(matched_books | {b for books in others.values() for b in books}):
        fetched = fetch_book(book_id, base_url, templates=SITE_TEMPLATES, retries=0)
        if not fetched.ok:
            print(f"book {book_id}: {fetched.status} ({fetched.reason}); left out", file=sys.stderr)
            continue
        features[("gutenberg", book_id)], marks[("gutenberg", book_id)] = sequence_features(fetched.text, extractor)

    pairs = edition_pairs(matches, {b: [o for o in books if ("gutenberg", o) in features] for b, books in others.items()})
    pairs = pairs[[a in features and b in features for a, b in zip(pairs["a"], pairs["b"], strict=True)]]
    table = pair_divergences(pairs, features, FEATURES)
    summary = relation_summary(table, FEATURES)
    shares = edition_share(table, FEATURES)
    matched = matches.assign(
        digital_source=[sources[d] for d in matches["doc_id"]],
        source=[source_name(sources[d]) for d in matches["doc_id"]],
        tei_marks=[marks[("tei", d)] for d in matches["doc_id"]],
        gutenberg_marks=[marks.get(("gutenberg", int(b)), 0) for b in matches["book_id"]],
        same_author_books=[len([o for o in others[int(b)] if ("gutenberg", o) in features]) for b in matches["book_id"]],
    )

    written = {
        "matches.csv": matched.drop(columns=["surname"]),
        "pairs.csv": table.assign(a=table["a"].map(lambda t: f"{t[0]}:{t[1]}"),
                                  b=table["b"].map(lambda t: f"{t[0]}:{t[1]}")),
        "summary.csv": summary,
        "shares.csv": shares,
    }
    run = {
        "command": "python benchmarks/editions.py --collection <ELTeC collection> --mirror <Gutenberg mirror>"
                   + (f" --max-same-author {args.max_same_author}" if args.max_same_author != 10 else ""),
        "commit": code,
        "collection": args.collection.resolve().name,
        "mirror_catalog_rows": len(catalog),
        "tei_texts": sorted(d for kind, d in features if kind == "tei"),
        "gutenberg_books": sorted(int(b) for kind, b in features if kind == "gutenberg"),
        "features": FEATURES,
    }
    write_evidence(args.out, written, run)
    with pd.option_context("display.width", 160, "display.max_rows", 100):
        print(matched.drop(columns=["surname", "digital_source"]).to_string(index=False))
        print(summary.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
        print(shares.groupby("feature")[["share"]].describe().to_string(float_format=lambda v: f"{v:.3f}"))
        print(shares.groupby("feature")["below_all"].agg(["sum", "count"]).to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
