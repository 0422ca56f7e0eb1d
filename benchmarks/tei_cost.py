"""Benchmark: the CPU of a TEI novel against a plain-text (Gutenberg-like) book of the same
size, from file to features (issue 34: at most 10% more).

For each of ``--n`` novels of an ELTeC collection (``--collection``, e.g.
``../shared/eltec/ELTeC-fra``), in one process, CPU seconds (``time.process_time``, best of
``--repeats``) of the per-book jobs' bodies:

* **TEI**: ``read_tei_document`` (parse, body text) and ``write_document`` (the ingest rule),
  ``extract_book`` with the collection language's rules, ``book_features``;
* **plain**: the same body text written as a UTF-8 ``.txt`` file, then ``read_document`` and
  ``write_document`` (the folder ingest, which costs what a download from a mirror costs),
  ``extract_book`` with the English rules (the paper's, as for a Gutenberg book),
  ``book_features``;
* **plain, same language**: the plain route with the collection language's rules, so that
  the TEI parse's own cost is apart from the language's tokenizer.

Process start-up (the same for every route) is left out. Prints one row a novel and the
totals: TEI / plain and TEI / plain-same-language.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from punctstyle.book.feature_rows import book_features
from punctstyle.book.inclusion import InclusionRule
from punctstyle.book.steps import extract_book
from punctstyle.sources.folder import read_document, write_document
from punctstyle.sources.tei import corpus_language, TeiSettings
from punctstyle.sources.tei_job import read_tei_document
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.tokenizer_facts import default_rules, export_extraction_rules

RULE = InclusionRule(min_marks=100, require_quotation_marks="double")
CAP = 50 * 1024 * 1024


def best(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collection", required=True)
    parser.add_argument("--n", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    settings = TeiSettings.from_config({"tei": {"path": args.collection}})
    language = corpus_language(settings)
    files = sorted(Path(args.collection).glob(settings.pattern))[: args.n]
    lang_rules = export_extraction_rules(language=language)
    english = default_rules()
    totals = {"tei": 0.0, "plain": 0.0, "plain_lang": 0.0}
    print(f"language {language}; CPU s per novel (best of {args.repeats})")
    print(f"{'file':40s} {'MB':>5s} {'tei':>7s} {'plain':>7s} {'plain_' + language:>9s}")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)

        def route(kind: str, path: Path) -> None:
            if kind == "tei":
                document = read_tei_document(str(path), 1, "x", parts=("body",), notes=False, max_bytes=CAP)
            else:
                document = read_document(out / "plain.txt", 1, "x", CAP)
            write_document(document, "x", out / f"{kind}.txt.gz", out / f"{kind}.json")
            extractor = ChunkCachedExtractor(rules=english if kind == "plain" else lang_rules)
            extract_book(out / f"{kind}.txt.gz", out / f"{kind}.json", out / f"{kind}.seq.parquet", 1,
                         extractor=extractor, words_path=out / f"{kind}.words.parquet")  # fmt: skip
            book_features(out / f"{kind}.seq.parquet", out / f"{kind}.features.parquet", 1, RULE)

        for path in files:
            text = read_tei_document(str(path), 1, "x", parts=("body",), notes=False, max_bytes=CAP).text
            (out / "plain.txt").write_text(text, encoding="utf-8")
            row = {kind: best(lambda k=kind: route(k, path), args.repeats) for kind in totals}
            for kind in totals:
                totals[kind] += row[kind]
            size = len(text.encode("utf-8")) / 1e6
            print(f"{path.name[:40]:40s} {size:5.2f} {row['tei']:7.3f} {row['plain']:7.3f} {row['plain_lang']:9.3f}")
    print(
        f"total: tei {totals['tei']:.3f} s, plain {totals['plain']:.3f} s, plain_{language} {totals['plain_lang']:.3f} s; "
        f"tei/plain {totals['tei'] / totals['plain']:.3f}, tei/plain_{language} {totals['tei'] / totals['plain_lang']:.3f}"
    )


if __name__ == "__main__":
    main()
