"""Measure: attribution with and without the dialogue-dash mark (issue 34, item 2).

For each ELTeC collection (``--collection``, one or more), the novels of the authors with at
least three (the "three-novel authors"), each extracted twice from its TEI ``<body>`` with the
collection language's rules: ``extraction.dialogue_dash: none`` (dashes left out, the paper's
rule) and ``quote`` (a dash opening a line is a quotation mark,
:mod:`punctstyle.text.languages`). Each novel is cut into consecutive excerpts of
``--excerpt-marks`` marks (the rest dropped). Attribution: leave one novel out (the held-out
novel's excerpts are the test documents, every other novel's excerpts the training ones, so
no novel is on both sides), the KL nearest-class classifier of the paper on f1, f3, f4 and f5;
the accuracy over all excerpts, and over novels (the majority vote of a novel's excerpts).
Deterministic: no seed.

Prints one row per (collection, feature, setting); ``--out`` writes them as CSV, ``--evidence``
as stored evidence (``accuracy.csv``, ``quotation_marks.csv``: the quotation marks of the whole
novels under each setting, and ``run.json``: command, commit, settings, the novels' file names'
fingerprint; :mod:`evidence_run`).

    python benchmarks/dialogue_dash.py --collection ../shared/eltec/ELTeC-fra ../shared/eltec/ELTeC-pol \\
        --evidence docs/evidence/languages_dialogue_dash
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd

from punctstyle.book.steps import clean_and_extract
from punctstyle.classifiers import build_classifier
from punctstyle.features import compute_feature
from punctstyle.sources.tei import TeiSettings, corpus_language, tei_metadata
from punctstyle.sources.tei_job import read_tei_document
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.tokenizer_facts import export_extraction_rules

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, write_evidence  # noqa: E402

FEATURES = ("f1", "f3", "f4", "f5")


def leave_one_novel_out(
    feature: str, matrix: np.ndarray, authors: np.ndarray, novels: np.ndarray
) -> tuple[float, float]:
    """(accuracy over excerpts, accuracy over novels) of the KL nearest-class classifier fitted,
    for each novel, on every other novel's excerpts; a novel's answer is its excerpts' majority."""
    correct, novel_correct, held = 0, 0, np.unique(novels)
    for novel in held:
        test = novels == novel
        model = build_classifier("kl", seed=0, feature_set=(feature,))
        model.fit(matrix[~test], authors[~test])
        predicted = np.asarray(model.predict(matrix[test]))
        correct += int((predicted == authors[test]).sum())
        novel_correct += int(Counter(predicted.tolist()).most_common(1)[0][0] == authors[test][0])
    return correct / novels.size, novel_correct / held.size


def excerpts(paths: list[Path], authors: list[str], rules, n: int) -> tuple[dict, np.ndarray, np.ndarray, int]:
    """Features of each consecutive excerpt of ``n`` marks of each novel (the rest dropped): (feature
    -> rows, author per excerpt, novel index per excerpt, quotation marks of the whole novels)."""
    extractor = ChunkCachedExtractor(rules=rules)
    X = {f: [] for f in FEATURES}
    who, which, n_quotes = [], [], 0
    for i, (path, author) in enumerate(zip(paths, authors, strict=True)):
        text = read_tei_document(str(path), 1, "x", parts=("body",), notes=False, max_bytes=10**9).text
        sequence, _ = clean_and_extract(text, extractor)
        n_quotes += int((sequence.marks == 1).sum())
        for k in range(len(sequence) // n):
            marks, gaps = sequence.marks[k * n : (k + 1) * n], sequence.gaps[k * n : (k + 1) * n]
            for f in FEATURES:
                X[f].append(compute_feature(f, marks, gaps))
            who.append(author)
            which.append(i)
    return {f: np.asarray(v) for f, v in X.items()}, np.array(who), np.array(which), n_quotes


def collection_rows(collection: str, excerpt_marks: int, min_novels: int) -> tuple[list[dict], list[dict], dict]:
    """(accuracy rows, quotation-mark rows, fingerprint) of one collection, both settings."""
    settings = TeiSettings.from_config({"tei": {"path": collection}})
    language = corpus_language(settings)
    metadata, _ = tei_metadata(settings)
    sizes = metadata["author"].value_counts()
    chosen = metadata[metadata["author"].map(sizes) >= min_novels].reset_index(drop=True)
    name = Path(collection).name
    print(f"{name}: language {language}, {len(chosen)} novels by {chosen['author'].nunique()} authors")
    paths = [Path(settings.path) / f for f in chosen["file"]]
    rows, quotes = [], []
    for dash in (False, True):
        start, setting = time.process_time(), "quote" if dash else "none"
        rules = export_extraction_rules(language=language, dialogue_dash=dash)
        X, authors, novels, n_quotes = excerpts(paths, chosen["author"].tolist(), rules, excerpt_marks)
        quotes.append(
            {
                "collection": name,
                "dialogue_dash": setting,
                "novels": len(paths),
                "quotation_marks": n_quotes,
                "excerpts": novels.size,
            }
        )
        print(f"  dialogue_dash {setting}: {novels.size} excerpts, {n_quotes} quotation marks, "
              f"{time.process_time() - start:.0f} CPU s of extraction")  # fmt: skip
        for f in FEATURES:
            on_excerpts, on_novels = leave_one_novel_out(f, X[f], authors, novels)
            rows.append({"collection": name, "language": language, "dialogue_dash": setting, "feature": f,
                         "excerpts": novels.size, "novels": np.unique(novels).size, "authors": len(set(authors)),
                         "excerpt_accuracy": round(on_excerpts, 4), "novel_accuracy": round(on_novels, 4),
                         "chance": round(1 / len(set(authors)), 4)})  # fmt: skip
            print(f"    {f}: excerpts {on_excerpts:.3f}, novels {on_novels:.3f}")
    files = "".join(f"{p.name}\n" for p in sorted(paths))
    fingerprint = {"collection": name, "language": language, "novels": len(paths),
                   "authors": int(chosen["author"].nunique()),
                   "files_sha256": hashlib.sha256(files.encode()).hexdigest()}  # fmt: skip
    return rows, quotes, fingerprint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collection", required=True, nargs="+")
    parser.add_argument("--excerpt-marks", type=int, default=1000)
    parser.add_argument("--min-novels", type=int, default=3)
    parser.add_argument("--out", default=None)
    parser.add_argument("--evidence", type=Path, default=None, help="stored evidence folder (docs/evidence/<name>)")
    args = parser.parse_args()
    own = commit()
    rows, quotes, corpora = [], [], []
    for collection in args.collection:
        r, q, fingerprint = collection_rows(collection, args.excerpt_marks, args.min_novels)
        rows, quotes, corpora = rows + r, quotes + q, corpora + [fingerprint]
    table = pd.DataFrame(rows)
    if args.out:
        table.to_csv(args.out, index=False)
    if args.evidence:
        names = " ".join(f"../shared/eltec/{Path(c).name}" for c in args.collection)
        command = (f"python benchmarks/dialogue_dash.py --collection {names} --excerpt-marks {args.excerpt_marks} "
                   f"--min-novels {args.min_novels} --evidence docs/evidence/{args.evidence.name}")  # fmt: skip
        write_evidence(args.evidence, {"accuracy.csv": table, "quotation_marks.csv": pd.DataFrame(quotes)},
                       {"command": command, "commit": own, "excerpt_marks": args.excerpt_marks,
                        "min_novels": args.min_novels, "corpora": corpora})  # fmt: skip
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
