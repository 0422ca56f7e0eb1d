"""Our extraction and KL divergence against the authors' own package on real mirror books.

Installs ``punctuation-stylometry==0.0.11`` (the paper's authors' code, from PyPI, without its
dependencies) into a scratch folder with this interpreter's pip (``--target``), imports its
tokenizer step (``punctuation.parser.punctuation_parser.get_textinfo``) and ``d_KL``
(``punctuation.feature_operations.distances``) with a stub for the spaCy model
``en_core_web_sm`` that the module loads at import and never uses (``spacy.load`` returns
``spacy.blank("en")`` for that name while the module is imported; its tokenizer is
``spacy.lang.en.English``, which needs no model), and compares on books of the mirror, each
read as the same cleaned text (our decoding, :func:`punctstyle.sources.decoding.decode_text`, and our
cleaning, :func:`punctstyle.text.clean.clean_text`):

* the counts of ``! ( ) , . : ; ?`` and of the quotation mark, per book;
* the word gaps: our sequence with the ellipses taken out (their words added to the next
  mark's gap, as the authors' code, which never counts ellipses, sees them) against theirs;
* ``d_KL``: their ``d_KL(p, q)`` against our :func:`punctstyle.divergence.kl_divergence` and
  :func:`punctstyle.divergence.pairwise_kl` on the same f1 and f3 vectors (excerpts of
  ``--excerpt-marks`` marks of the books, ``--pairs`` seeded ordered pairs).

    python benchmarks/bench_authors_code.py [--mirror ../shared/gutenberg-mirror] [--books 6]
        [--evidence docs/evidence/authors_code]

Prints the table and the departures documented in the README that this comparison does not
exercise. Exit status 0 when the comparison ran (the differences are printed, not judged).
With ``--evidence OUT`` it also stores ``books.csv`` (per book: marks and counts, ours and
theirs), ``kl.csv`` (per feature: the largest differences) and ``run.json`` (command, commit,
settings, seconds) under ``OUT`` (``benchmarks/evidence_run.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import importlib
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/evidence_run.py
from evidence_run import commit, write_evidence  # noqa: E402

PACKAGE = "punctuation-stylometry==0.0.11"
COMPARED_MARKS = ("!", '"', "(", ")", ",", ".", ":", ";", "?")
DOCUMENTED_DEPARTURES = (
    "ellipses: we count '...' as the tenth mark (the paper lists it); the authors' code never does",
    "curly single quotation marks: their quote list is ' \u201c \u201d, not \u2018 \u2019 "
    "(the cleaned text here has ASCII quotes, so this run does not see it)",
    "f4/f5: we put sentence lengths and gaps beyond the last bin into the last bin; theirs drops them",
    "the train/test split: ours is stratified by class; theirs is sklearn's train_test_split",
    "the network: torch in place of sklearn's MLPClassifier; sklearn stops after 11 stale "
    "epochs, ours after 10, and sklearn initialises the weights with Glorot",
)


def install_authors_package(target: Path) -> None:
    """``pip install --no-deps --target target punctuation-stylometry==0.0.11``."""
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target), PACKAGE]
    subprocess.run(command, check=True)


@contextlib.contextmanager
def spacy_model_stub(model: str = "en_core_web_sm") -> Iterator[None]:
    """While active, ``spacy.load(model)`` returns ``spacy.blank("en")`` (the stub)."""
    import spacy

    real_load = spacy.load

    def load(name: object, *args: object, **kwargs: object) -> object:
        return spacy.blank("en") if name == model else real_load(name, *args, **kwargs)

    spacy.load = load
    try:
        yield
    finally:
        spacy.load = real_load


def import_authors_code(target: Path) -> tuple[object, object]:
    """(get_textinfo, d_KL) of the authors' package installed in ``target``."""
    sys.path.insert(0, str(target))
    argv = sys.argv
    sys.argv = argv[:1]  # punctuation.config parses the command line at import
    try:
        with spacy_model_stub():
            parser = importlib.import_module("punctuation.parser.punctuation_parser")
        distances = importlib.import_module("punctuation.feature_operations.distances")
    finally:
        sys.argv = argv
    return parser.get_textinfo, distances.d_KL


def mirror_books(mirror: Path, n_books: int, seed: int) -> list[tuple[int, Path]]:
    """``n_books`` seeded (id, zip path) of the mirror's MANIFEST.csv."""
    with open(mirror / "MANIFEST.csv", newline="", encoding="utf-8") as handle:
        rows = [(int(row["id"]), mirror / row["file"]) for row in csv.DictReader(handle)]
    rows.sort()
    picks = np.random.default_rng(seed).choice(len(rows), size=min(n_books, len(rows)), replace=False)
    return [rows[i] for i in sorted(picks)]


def read_zip_text(path: Path) -> str:
    """The decoded text of the one .txt member of a mirror zip (our decoding)."""
    from punctstyle.sources.decoding import decode_text

    with zipfile.ZipFile(path) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".txt"))
        return decode_text(archive.read(name))[0]


def without_ellipses(marks: np.ndarray, gaps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Our sequence as seen without ellipses: each ellipsis dropped and its gap added to the
    next kept mark's gap (words after the last kept mark are dropped)."""
    from punctstyle.marks import ELLIPSIS

    keep = marks != ELLIPSIS
    cumulative = np.cumsum(gaps.astype(np.int64))
    kept_cumulative = cumulative[keep]
    kept_gaps = np.diff(np.concatenate([[0], kept_cumulative]))
    return marks[keep], kept_gaps


def authors_sequence(tokens: list) -> tuple[np.ndarray, np.ndarray]:
    """(marks, gaps) of ``get_textinfo``'s ``[gap, mark, gap, mark, ...]`` in our codes."""
    from punctstyle.marks import MARK_CODE

    gaps = np.asarray(tokens[0::2], dtype=np.int64)
    marks = np.asarray([MARK_CODE[t] for t in tokens[1::2]], dtype=np.int64)
    return marks, gaps


def compare_book(text: str, get_textinfo: object, extractor: object) -> dict[str, object]:
    """Counts and gaps of one raw book text, ours against theirs on the same cleaned text."""
    from punctstyle.book.steps import clean_and_extract
    from punctstyle.text.clean import clean_text
    from punctstyle.marks import MARK_CODE

    ours_sequence, _ = clean_and_extract(text, extractor)
    ours_marks, ours_gaps = without_ellipses(ours_sequence.marks.astype(np.int64), ours_sequence.gaps)
    started = time.perf_counter()
    their_marks, their_gaps = authors_sequence(get_textinfo(clean_text(text)))
    their_seconds = time.perf_counter() - started
    counts = {
        mark: (int((ours_marks == MARK_CODE[mark]).sum()), int((their_marks == MARK_CODE[mark]).sum()))
        for mark in COMPARED_MARKS
    }
    same_marks = ours_marks.shape == their_marks.shape and bool(np.array_equal(ours_marks, their_marks))
    same_gaps = same_marks and bool(np.array_equal(ours_gaps, their_gaps))
    return {
        "counts": counts,
        "n_ours": int(ours_marks.size),
        "n_theirs": int(their_marks.size),
        "same_marks": same_marks,
        "same_gaps": same_gaps,
        "ours_sequence": ours_sequence,
        "their_seconds": their_seconds,
    }


def excerpt_vectors(sequences: list, feature: str, excerpt_marks: int) -> np.ndarray:
    """``feature`` of every whole excerpt of ``excerpt_marks`` marks of each sequence."""
    from punctstyle.features import compute_feature

    rows = []
    for sequence in sequences:
        for start in range(0, len(sequence) - excerpt_marks + 1, excerpt_marks):
            stop = start + excerpt_marks
            rows.append(compute_feature(feature, sequence.marks[start:stop], sequence.gaps[start:stop]))
    return np.asarray(rows)


def compare_kl(vectors: np.ndarray, d_KL: object, n_pairs: int, seed: int) -> dict[str, float]:
    """Their ``d_KL`` against ours on ``n_pairs`` seeded ordered pairs of distinct rows."""
    from punctstyle.divergence import kl_divergence, pairwise_kl

    rng = np.random.default_rng(seed)
    first = rng.integers(0, len(vectors), n_pairs)
    second = (first + rng.integers(1, len(vectors), n_pairs)) % len(vectors)
    theirs = np.array([d_KL(list(vectors[i]), list(vectors[j])) for i, j in zip(first, second)])
    ours = np.array([kl_divergence(vectors[i], vectors[j]) for i, j in zip(first, second)])
    matrix = pairwise_kl(vectors, vectors)
    ours_matrix = matrix[first, second]
    finite = np.isfinite(ours)
    return {
        "pairs": float(n_pairs),
        "empty_support": float((~finite).sum()),
        "max_abs_diff": float(np.max(np.abs(theirs[finite] - ours[finite]))) if finite.any() else float("nan"),
        "max_abs_diff_matrix": float(np.max(np.abs(theirs[finite] - ours_matrix[finite])))
        if finite.any()
        else float("nan"),
        "mean_kl": float(ours[finite].mean()) if finite.any() else float("nan"),
    }


def run(mirror: Path, n_books: int, n_pairs: int, excerpt_marks: int, seed: int, target: Path) -> dict[str, object]:
    """The whole comparison (module docstring); returns what :func:`print_report` prints."""
    from punctstyle.text.chunk_cache import ChunkCachedExtractor

    get_textinfo, d_KL = import_authors_code(target)
    extractor = ChunkCachedExtractor()
    books = []
    for book_id, path in mirror_books(mirror, n_books, seed):
        books.append((book_id, compare_book(read_zip_text(path), get_textinfo, extractor)))
    sequences = [result["ours_sequence"] for _, result in books]
    kl = {
        feature: compare_kl(excerpt_vectors(sequences, feature, excerpt_marks), d_KL, n_pairs, seed)
        for feature in ("f1", "f3")
    }
    return {"books": books, "kl": kl}


def print_report(report: dict[str, object]) -> None:
    """The per-book table, the KL comparison and the documented departures."""
    print("book | marks ours / theirs (no ellipses) | same marks | same gaps | count differences ours - theirs")
    for book_id, result in report["books"]:
        diffs = {m: o - t for m, (o, t) in result["counts"].items() if o != t}
        print(
            f"{book_id} | {result['n_ours']} / {result['n_theirs']} | {result['same_marks']} | "
            f"{result['same_gaps']} | {diffs or 'none'}"
        )
    totals = {m: [0, 0] for m in COMPARED_MARKS}
    for _, result in report["books"]:
        for mark, (o, t) in result["counts"].items():
            totals[mark][0] += o
            totals[mark][1] += t
    print("totals ours / theirs: " + ", ".join(f"{m} {o}/{t}" for m, (o, t) in totals.items()))
    for feature, kl in report["kl"].items():
        print(
            f"d_KL {feature}: {int(kl['pairs'])} ordered pairs of excerpts, {int(kl['empty_support'])} with an "
            f"empty common support; largest |theirs - ours| {kl['max_abs_diff']:.3g} (per pair), "
            f"{kl['max_abs_diff_matrix']:.3g} (pairwise_kl); mean d_KL {kl['mean_kl']:.4f}"
        )
    print("Documented departures not exercised by this comparison:")
    for line in DOCUMENTED_DEPARTURES:
        print(f"  - {line}")


def evidence_tables(report: dict[str, object]) -> dict[str, object]:
    """``books.csv``: one row per book (marks ours and theirs, whether marks and gaps agree,
    each mark's count ours and theirs); ``kl.csv``: :func:`compare_kl`'s values per feature."""
    import pandas as pd

    books = []
    for book_id, result in report["books"]:
        row = {"book_id": book_id, "n_ours": result["n_ours"], "n_theirs": result["n_theirs"],
               "same_marks": result["same_marks"], "same_gaps": result["same_gaps"]}
        for mark, (ours, theirs) in result["counts"].items():
            row[f"ours {mark}"], row[f"theirs {mark}"] = ours, theirs
        books.append(row)
    kl = pd.DataFrame([{"feature": feature, **values} for feature, values in report["kl"].items()])
    return {"books.csv": pd.DataFrame(books), "kl.csv": kl}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--mirror",
        type=Path,
        default=Path(os.environ.get("PUNCTSTYLE_SHARED") or Path(__file__).resolve().parents[2] / "shared")
        / "gutenberg-mirror",
    )
    parser.add_argument("--books", type=int, default=6)
    parser.add_argument("--pairs", type=int, default=3000)
    parser.add_argument("--excerpt-marks", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--package-dir", type=Path, default=None, help="an existing --target install (skips pip)")
    parser.add_argument("--evidence", type=Path, default=None, help="store the tables and run.json in this folder")
    args = parser.parse_args(argv)
    if not (args.mirror / "MANIFEST.csv").is_file():
        parser.error(f"{args.mirror}: no MANIFEST.csv (the shared Gutenberg mirror)")
    revision = commit() if args.evidence is not None else ""
    with tempfile.TemporaryDirectory(prefix="authors-code-") as scratch:
        target = args.package_dir or Path(scratch) / "site"
        if args.package_dir is None:
            install_authors_package(target)
        started = time.perf_counter()
        report = run(args.mirror, args.books, args.pairs, args.excerpt_marks, args.seed, target)
        print_report(report)
        seconds = time.perf_counter() - started
        print(f"({seconds:.1f} s)")
    if args.evidence is not None:
        store_evidence(args, report, seconds, revision)
    return 0


def store_evidence(args: argparse.Namespace, report: dict[str, object], seconds: float, revision: str) -> None:
    """The report's tables and a ``run.json`` (command, commit, package, settings, seconds)."""
    run = {
        "command": f"python benchmarks/bench_authors_code.py --books {args.books} --pairs {args.pairs} "
        f"--excerpt-marks {args.excerpt_marks} --seed {args.seed} --evidence {args.evidence}",
        "commit": revision,
        "package": PACKAGE,
        "mirror": "the shared Gutenberg mirror (../shared/gutenberg-mirror)",
        "settings": {"books": args.books, "pairs": args.pairs, "excerpt_marks": args.excerpt_marks, "seed": args.seed},
        "seconds": round(seconds, 1),
        "departures_not_exercised": list(DOCUMENTED_DEPARTURES),
    }
    write_evidence(args.evidence, evidence_tables(report), run)


if __name__ == "__main__":
    raise SystemExit(main())
