"""Measure: attribution with and without the dialogue-dash mark (issue 34, item 2).

For an ELTeC collection (``--collection``), the novels of the authors with at least three
(the "three-novel authors"), each extracted twice from its TEI ``<body>`` with the
collection language's rules: ``extraction.dialogue_dash: none`` (dashes left out, the paper's
rule) and ``quote`` (a dash opening a line is a quotation mark,
:mod:`punctstyle.text.languages`). Each novel is cut into consecutive excerpts of
``--excerpt-marks`` marks (the rest dropped). Attribution: leave one novel out (the held-out
novel's excerpts are the test documents, every other novel's excerpts the training ones, so
no novel is on both sides), the KL nearest-class classifier of the paper on f1, f3, f4 and f5;
the accuracy over all excerpts, and over novels (the majority vote of a novel's excerpts).

Prints one row per (feature, setting) and writes them as CSV to ``--out``.
"""

from __future__ import annotations

import argparse
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

FEATURES = ("f1", "f3", "f4", "f5")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collection", required=True)
    parser.add_argument("--excerpt-marks", type=int, default=1000)
    parser.add_argument("--min-novels", type=int, default=3)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    settings = TeiSettings.from_config({"tei": {"path": args.collection}})
    language = corpus_language(settings)
    metadata, _ = tei_metadata(settings)
    sizes = metadata["author"].value_counts()
    chosen = metadata[metadata["author"].map(sizes) >= args.min_novels].reset_index(drop=True)
    print(f"{args.collection}: language {language}, {len(chosen)} novels by {chosen['author'].nunique()} authors")
    rows = []
    for dash in (False, True):
        start = time.process_time()
        extractor = ChunkCachedExtractor(rules=export_extraction_rules(language=language, dialogue_dash=dash))
        X = {f: [] for f in FEATURES}
        authors, novels = [], []
        n_quotes = 0
        for i, row in chosen.iterrows():
            path = Path(settings.path) / row["file"]
            text = read_tei_document(str(path), 1, "x", parts=("body",), notes=False, max_bytes=10**9).text
            sequence, _ = clean_and_extract(text, extractor)
            n_quotes += int((sequence.marks == 1).sum())
            n = args.excerpt_marks
            for k in range(len(sequence) // n):
                marks, gaps = sequence.marks[k * n : (k + 1) * n], sequence.gaps[k * n : (k + 1) * n]
                for f in FEATURES:
                    X[f].append(compute_feature(f, marks, gaps))
                authors.append(row["author"])
                novels.append(i)
        authors, novels = np.array(authors), np.array(novels)
        setting = "quote" if dash else "none"
        print(f"  dialogue_dash {setting}: {len(novels)} excerpts, {n_quotes} quotation marks, "
              f"{time.process_time() - start:.0f} CPU s of extraction")  # fmt: skip
        for f in FEATURES:
            matrix = np.asarray(X[f])
            correct, novel_correct, n_novels = 0, 0, 0
            for novel in np.unique(novels):
                test = novels == novel
                model = build_classifier("kl", seed=0, feature_set=(f,))
                model.fit(matrix[~test], authors[~test])
                predicted = np.asarray(model.predict(matrix[test]))
                correct += int((predicted == authors[test]).sum())
                vote = Counter(predicted.tolist()).most_common(1)[0][0]
                novel_correct += int(vote == authors[test][0])
                n_novels += 1
            rows.append({
                "collection": Path(args.collection).name, "language": language, "dialogue_dash": setting,
                "feature": f, "excerpts": len(novels), "novels": n_novels, "authors": len(set(authors)),
                "excerpt_accuracy": round(correct / len(novels), 4),
                "novel_accuracy": round(novel_correct / n_novels, 4),
                "chance": round(1 / len(set(authors)), 4),
            })  # fmt: skip
            print(f"    {f}: excerpts {correct / len(novels):.3f}, novels {novel_correct / n_novels:.3f}")
    table = pd.DataFrame(rows)
    if args.out:
        table.to_csv(args.out, index=False)
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
