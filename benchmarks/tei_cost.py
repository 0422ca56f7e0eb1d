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

Also the TEI parse alone (``read_tei_document``: lxml reads the file and walks its body).
Process start-up (the same for every route) is left out. Prints one row a novel and the
totals: TEI / plain and TEI / plain-same-language. Several collections may be given;
``--evidence OUT`` stores ``per_novel.csv``, ``totals.csv`` (per collection: the sums, the
ratios, the parse's CPU ms per MB of body text and its share of the TEI route) and
``run.json`` (command, commit, settings, the 1-minute load average before and after, the
length of each language's spaCy ``token_match`` pattern; :mod:`evidence_run`).

    python benchmarks/tei_cost.py --collection ../shared/eltec/ELTeC-fra ../shared/eltec/ELTeC-pol --n 4 \\
        --evidence docs/evidence/languages_tei_cost
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import spacy

from punctstyle.book.feature_rows import book_features
from punctstyle.book.inclusion import InclusionRule
from punctstyle.book.steps import extract_book
from punctstyle.sources.folder import read_document, write_document
from punctstyle.sources.tei import corpus_language, TeiSettings
from punctstyle.sources.tei_job import read_tei_document
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.tokenizer_facts import default_rules, export_extraction_rules

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evidence_run import commit, write_evidence  # noqa: E402

RULE = InclusionRule(min_marks=100, require_quotation_marks="double")
CAP = 50 * 1024 * 1024
ROUTES = ("parse", "tei", "plain", "plain_lang")


def best(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def route(kind: str, path: Path, out: Path, rules: dict) -> None:
    """One route's per-book jobs for the novel at ``path`` (its body text already in
    ``out/plain.txt``); ``rules``: ``{"plain": English rules, other kinds: the language's}``."""
    if kind == "parse":
        read_tei_document(str(path), 1, "x", parts=("body",), notes=False, max_bytes=CAP)
        return
    if kind == "tei":
        document = read_tei_document(str(path), 1, "x", parts=("body",), notes=False, max_bytes=CAP)
    else:
        document = read_document(out / "plain.txt", 1, "x", CAP)
    write_document(document, "x", out / f"{kind}.txt.gz", out / f"{kind}.json")
    extractor = ChunkCachedExtractor(rules=rules["plain" if kind == "plain" else "lang"])
    extract_book(out / f"{kind}.txt.gz", out / f"{kind}.json", out / f"{kind}.seq.parquet", 1,
                 extractor=extractor, words_path=out / f"{kind}.words.parquet")  # fmt: skip
    book_features(out / f"{kind}.seq.parquet", out / f"{kind}.features.parquet", 1, RULE)


def collection_rows(collection: str, n: int, repeats: int) -> tuple[str, list[dict]]:
    """(language, one row a novel: MB of body text and CPU s of each route) of the first ``n``
    novels of a collection."""
    settings = TeiSettings.from_config({"tei": {"path": collection}})
    language = corpus_language(settings)
    files = sorted(Path(collection).glob(settings.pattern))[:n]
    rules = {"lang": export_extraction_rules(language=language), "plain": default_rules()}
    print(f"{Path(collection).name}: language {language}; CPU s per novel (best of {repeats})")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        for path in files:
            text = read_tei_document(str(path), 1, "x", parts=("body",), notes=False, max_bytes=CAP).text
            (out / "plain.txt").write_text(text, encoding="utf-8")
            row = {"collection": Path(collection).name, "language": language, "file": path.name,
                   "mb": len(text.encode("utf-8")) / 1e6}  # fmt: skip
            row |= {f"{kind}_cpu_s": best(lambda k=kind: route(k, path, out, rules), repeats) for kind in ROUTES}
            rows.append(row)
            print("  " + "  ".join(f"{k} {v:.3f}" if isinstance(v, float) else str(v) for k, v in row.items()))
    return language, rows


def totals(per_novel: pd.DataFrame) -> pd.DataFrame:
    """Per collection: the sums of MB and of each route's CPU s, ``tei / plain``,
    ``tei / plain_lang``, the parse's CPU ms per MB (``1000 parse / mb``) and its share of the TEI
    route (``parse / tei``)."""
    columns = ["mb"] + [f"{kind}_cpu_s" for kind in ROUTES]
    sums = per_novel.groupby(["collection", "language"], as_index=False)[columns].sum()
    sums.insert(2, "novels", per_novel.groupby(["collection", "language"]).size().to_numpy())
    sums["tei_over_plain"] = sums["tei_cpu_s"] / sums["plain_cpu_s"]
    sums["tei_over_plain_lang"] = sums["tei_cpu_s"] / sums["plain_lang_cpu_s"]
    sums["plain_lang_over_plain"] = sums["plain_lang_cpu_s"] / sums["plain_cpu_s"]
    sums["parse_ms_per_mb"] = 1000 * sums["parse_cpu_s"] / sums["mb"]
    sums["parse_share_of_tei"] = sums["parse_cpu_s"] / sums["tei_cpu_s"]
    return sums


def token_match_chars(language: str) -> int:
    """Characters of the pattern of spaCy's blank tokenizer's ``token_match`` (0 when it has none)."""
    match = spacy.blank(language).tokenizer.token_match
    return len(match.__self__.pattern) if match is not None else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--collection", required=True, nargs="+")
    parser.add_argument("--n", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--evidence", type=Path, default=None, help="stored evidence folder (docs/evidence/<name>)")
    args = parser.parse_args()
    own, load_before = commit(), os.getloadavg()[0]
    languages, rows = [], []
    for collection in args.collection:
        language, r = collection_rows(collection, args.n, args.repeats)
        languages, rows = languages + [language], rows + r
    per_novel = pd.DataFrame(rows)
    summary = totals(per_novel)
    print(summary.round(3).to_string(index=False))
    if args.evidence:
        names = " ".join(f"../shared/eltec/{Path(c).name}" for c in args.collection)
        run = {"command": f"python benchmarks/tei_cost.py --collection {names} --n {args.n} --repeats {args.repeats} "
                          f"--evidence docs/evidence/{args.evidence.name}",
               "commit": own, "n": args.n, "repeats": args.repeats, "clock": "time.process_time of this process",
               "machine": {"cores": os.cpu_count(), "load_1min_before": load_before,
                           "load_1min_after": (load_after := os.getloadavg()[0]),
                           "note": machine_note(load_before, load_after)},
               "spacy": spacy.__version__,
               "token_match_chars": {language: token_match_chars(language) for language in languages}}  # fmt: skip
        write_evidence(args.evidence, {"per_novel.csv": per_novel, "totals.csv": summary}, run)


def machine_note(load_before: float, load_after: float) -> str:
    """How busy the machine was. The benchmark is one busy process, which by itself brings the
    1-minute load average to about 1: "quiet" when the load was below 1 before it started and
    below 1.5 after it ended (nothing else running, on average), else "shared with other jobs"."""
    if load_before < 1 and load_after < 1.5:
        return "quiet: 1-minute load below 1 before and below 1.5 after (this process alone)"
    return "shared with other jobs: 1-minute load of 1 or more before, or of 1.5 or more after"


if __name__ == "__main__":
    main()
