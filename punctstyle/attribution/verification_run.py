"""The verification analysis on a corpus and the bundle's verification files, written and read here.

:func:`verification_run` measures General Imposters verification
(:mod:`punctstyle.attribution.verification`) per feature family and per text length over seeds:
for each seed the cases of :func:`punctstyle.attribution.verification.verification_cases`
(reference set and held-out texts of :class:`punctstyle.experiments.row.Row`), the word
vocabulary chosen on the reference texts only, each held-out text whole and cut to excerpts of
the configured lengths (:func:`punctstyle.book.excerpts.cut_excerpt`; a text shorter than a
length has no case at that length), the scores and the PAN measures
(:func:`punctstyle.attribution.verification.case_measures`). The band stored for the CLI is
fitted on the cases of every seed together, per family and length.

The bundle's verification files (beside ``models/attribution/``'s other files, written by the
``verification`` rule):

* ``verification.json``: format, the imposters settings, the families with their bands per
  length (``"whole"`` and each excerpt length) and measured AUC, the default family of
  ``punctstyle verify``, the words (best first), the minimum marks (shorter texts are refused),
  the corpus's median marks per document (``whole_marks``), the corpus size;
* ``verification_reference.parquet``: one row per corpus document: ``book_id``, ``author``, then
  the feature columns of the families' punctuation features (named as in the corpus tables) and
  ``w[<word>]`` for each word: relative frequencies of the words chosen on *every* corpus book.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from punctstyle.attribution.verification import (
    Band,
    Cases,
    case_measures,
    case_rng,
    family_matrix,
    imposters_draws,
    optimal_band,
    reference_scores,
    score_cases,
    verification_cases,
)
from punctstyle.attribution.verification_settings import ImpostersSettings, VerificationSettings, family_parts
from punctstyle.book.excerpts import cut_excerpt
from punctstyle.corpus.tables import text_groups
from punctstyle.corpus.words import WordMatrix, select_vocabulary
from punctstyle.features import compute_features
from punctstyle.featuresets import matrices_from_tables, resolve_feature_set
from punctstyle.io import InputError, read_json_object, write_json_atomic, write_parquet_atomic
from punctstyle.marks import feature_column_names

FORMAT = "punctstyle-verification/2"
"""/2: the band calibrated with every other author an imposter and the test text twice in the z-scores."""
FILES: dict[str, str] = {"record": "verification.json", "reference": "verification_reference.parquet"}
WHOLE = "whole"
RECORD_KEYS: tuple[str, ...] = ("bundle_family", "families", "lengths", "words", "min_marks", "whole_marks", "imposters")
"""The fields of ``verification.json`` that ``punctstyle verify`` reads."""
RESULT_COLUMNS: tuple[str, ...] = (
    "family", "length", "seed", "n_cases", "n_same", "auc", "c_at_1", "f_05_u", "f1", "brier", "overall",
    "auc_raw", "p1", "p2",
)


def _rng(seed: int, family: str, length: str) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([int(seed), zlib.crc32(family.encode()), zlib.crc32(length.encode())]))


def vocabulary_of(matrix: WordMatrix, book_ids: Sequence[int], k: int) -> list[str]:
    """The ``k`` most frequent words of the books (:func:`punctstyle.corpus.words.select_vocabulary`), best first."""
    rows = matrix.rows_of(book_ids)
    chosen = select_vocabulary(matrix.relative_frequencies(book_ids), k, matrix.cutoff[rows])
    return [str(matrix.vocabulary[c]) for c in chosen.columns.tolist()]


def whole_word_frequencies(matrix: WordMatrix, book_ids: Sequence[int], words: Sequence[str]) -> np.ndarray:
    """(n_books, len(words)): ``c_d(w) / n_d`` of each word in each book (the pool counts are exact)."""
    column = pd.Index(matrix.vocabulary).get_indexer(list(words))
    if np.any(column < 0):
        raise ValueError("a chosen word is not in the word matrix's pool")
    return matrix.relative_frequencies(book_ids)[:, column].toarray()


def stream_frequencies(stream: np.ndarray, words: Sequence[str]) -> np.ndarray:
    """``c_j / m``: the count of each of ``words`` in a word stream over its ``m`` words (0 when empty)."""
    ranks = pd.Index(list(words), dtype=object).get_indexer(np.asarray(stream, dtype=object)) if len(stream) else np.zeros(0, np.int64)
    counts = np.bincount(ranks[ranks >= 0], minlength=len(words)).astype(np.float64)
    return counts / len(stream) if len(stream) else counts


def excerpt_vectors(
    documents: Callable[[int], tuple[np.ndarray, np.ndarray]],
    streams: Callable[[int], np.ndarray] | None,
    indices: Sequence[int],
    book_ids: np.ndarray,
    length: int,
    seed: int,
    words: Sequence[str],
) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray | None]:
    """Features of an excerpt of ``length`` marks of each document (``documents(i) -> (marks,
    gaps)``; ``streams(i)``: its word stream, or None without words): (kept: whether the document
    is long enough, features by name, word frequencies)."""
    kept, rows, word_rows = [], [], []
    for i in indices:
        marks, gaps = documents(int(i))
        excerpt = cut_excerpt(marks, gaps, length, seed=seed, doc_id=int(book_ids[i]))
        kept.append(excerpt.complete)
        if not excerpt.complete:
            continue
        rows.append(compute_features(excerpt.marks, excerpt.gaps))
        if streams is not None:
            stream = np.asarray(streams(int(i)), dtype=object)
            word_rows.append(stream_frequencies(stream[excerpt.word_start : excerpt.word_stop], words))
    names = rows[0].keys() if rows else ()
    features = {name: np.vstack([r[name] for r in rows]) for name in names}
    return np.asarray(kept, dtype=bool), features, (np.vstack(word_rows) if word_rows else None)


def seed_cases(labels: np.ndarray, groups: Sequence[Any] | None, seed: int, settings: VerificationSettings) -> Cases:
    """The cases of one seed (:func:`punctstyle.attribution.verification.verification_cases` with
    :func:`punctstyle.attribution.verification.case_rng`), kept to ``settings.max_texts`` held-out
    texts (a random choice by the same generator) when it is set."""
    rng = case_rng(seed)
    cases = verification_cases(labels, groups, seed=seed, test_fraction=settings.test_fraction,
                               n_different=settings.n_different, rng=rng)
    if settings.max_texts is not None:
        texts = np.unique(cases.text)
        keep = np.isin(cases.text, rng.permutation(texts)[: settings.max_texts])
        cases = type(cases)(cases.reference, cases.text[keep], cases.candidate[keep], cases.same[keep])
    return cases


HeldOutView = tuple[np.ndarray, dict[str, np.ndarray], np.ndarray | None]
"""The held-out texts at one length: which are kept, their features and word frequencies."""


def seed_views(features: Mapping[str, np.ndarray], word_all: np.ndarray | None, held_out: np.ndarray,
               book_ids: np.ndarray, seed: int, settings: VerificationSettings, words: Sequence[str],
               documents: Callable[[int], tuple[np.ndarray, np.ndarray]],
               streams: Callable[[int], np.ndarray] | None) -> dict[str, HeldOutView]:
    """The held-out texts whole (:data:`WHOLE`) and at each excerpt length of ``settings``
    (:func:`excerpt_vectors`)."""
    views: dict[str, HeldOutView] = {
        WHOLE: (np.ones(held_out.size, bool), {f: m[held_out] for f, m in features.items()},
                None if word_all is None else word_all[held_out]),
    }
    for length in settings.lengths:
        views[str(length)] = excerpt_vectors(documents, streams if words else None, held_out, book_ids,
                                             length, seed, words)
    return views


def view_measures(view: HeldOutView, cases: Cases, features: Mapping[str, np.ndarray], word_all: np.ndarray | None,
                  labels: np.ndarray, held_out: np.ndarray, seed: int, length: str,
                  settings: VerificationSettings) -> list[tuple[str, dict[str, Any], np.ndarray, np.ndarray]]:
    """``(family, measures, scores, same)`` of each family on the cases whose text the view holds
    (General Imposters against the reference documents, :func:`punctstyle.attribution.verification.score_cases`;
    :func:`punctstyle.attribution.verification.case_measures`); none when it holds none."""
    kept, test_features, test_words = view
    position = np.full(labels.size, -1)
    position[held_out[kept]] = np.arange(int(kept.sum()))
    in_view = position[cases.text] >= 0
    if not in_view.any():
        return []
    reference = cases.reference
    measured = []
    for family in settings.families:
        tests = family_matrix(family, test_features, test_words)[position[cases.text[in_view]]]
        ref = family_matrix(family, {f: m[reference] for f, m in features.items()},
                            None if word_all is None else word_all[reference])
        family_rng = _rng(seed, family, length)
        draws = imposters_draws(family_rng, ref.shape[1], ref.shape[0], settings.imposters)
        scores = score_cases(tests, ref, labels[reference], cases.candidate[in_view], draws, settings.imposters)
        same = cases.same[in_view]
        measures = case_measures(scores, same, cases.text[in_view], settings.band_step, family_rng)
        measured.append((family, measures, scores, same))
    return measured


def pooled_bands(pooled: Mapping[tuple[str, str], Sequence[tuple[np.ndarray, np.ndarray]]],
                 step: float) -> dict[str, dict[str, Band]]:
    """The band of each (family, length), fitted on every seed's cases pooled
    (:func:`punctstyle.attribution.verification.optimal_band`)."""
    bands: dict[str, dict[str, Band]] = {}
    for (family, length), parts in pooled.items():
        scores = np.concatenate([p[0] for p in parts])
        same = np.concatenate([p[1] for p in parts])
        bands.setdefault(family, {})[length] = optimal_band(scores, same, step)
    return bands


def verification_run(
    tables: Mapping[str, pd.DataFrame],
    matrix: WordMatrix | None,
    settings: VerificationSettings,
    documents: Callable[[int], tuple[np.ndarray, np.ndarray]],
    streams: Callable[[int], np.ndarray] | None = None,
    log: Callable[[str], None] = lambda message: None,
) -> tuple[pd.DataFrame, dict[str, dict[str, Band]]]:
    """The measurements (one row per family, length and seed: :data:`RESULT_COLUMNS`) and the
    bands fitted on every seed's cases (family -> length -> band). ``tables``: the corpus tables
    (at least the families' features); ``matrix``: the corpus word matrix (None without word
    families); ``documents(i)``: marks and gaps of document ``i`` of the tables (for excerpts);
    ``streams(i)``: its word stream (word families at excerpt lengths)."""
    features, labels, book_ids = matrices_from_tables(dict(tables), "author")
    groups = text_groups(next(iter(tables.values())), book_ids)
    if settings.uses_words and matrix is None:
        raise ValueError("word families need the corpus word matrix")
    rows: list[dict[str, Any]] = []
    pooled: dict[tuple[str, str], list[tuple[np.ndarray, np.ndarray]]] = {}
    for seed in settings.seeds:
        cases = seed_cases(labels, groups, seed, settings)
        reference = cases.reference
        words = vocabulary_of(matrix, book_ids[reference], settings.top_words) if settings.uses_words else []
        word_all = whole_word_frequencies(matrix, book_ids, words) if words else None
        held_out = np.unique(cases.text)
        log(f"seed {seed}: {reference.size} reference documents, {held_out.size} held-out, {cases.text.size} cases")
        views = seed_views(features, word_all, held_out, book_ids, seed, settings, words, documents, streams)
        for length, view in views.items():
            for family, measured, scores, same in view_measures(view, cases, features, word_all, labels, held_out,
                                                                seed, length, settings):
                rows.append({"family": family, "length": length, "seed": seed, **measured})
                pooled.setdefault((family, length), []).append((scores, same))
                log(f"seed {seed} {family} {length}: AUC {measured['auc']:.3f}, c@1 {measured['c_at_1']:.3f}")
    return pd.DataFrame(rows, columns=list(RESULT_COLUMNS)), pooled_bands(pooled, settings.band_step)


def summary_table(results: pd.DataFrame) -> pd.DataFrame:
    """Mean and sd over seeds of AUC, c@1, F0.5u, F1, Brier and overall per family and length."""
    measures = ["auc", "c_at_1", "f_05_u", "f1", "brier", "overall"]
    grouped = results.groupby(["family", "length"], sort=False)
    table = grouped[measures].agg(["mean", "std"])
    table.columns = [f"{m}_{s}" for m, s in table.columns]
    table.insert(0, "n_cases", grouped["n_cases"].mean().round().astype(int))
    table.insert(0, "n_seeds", grouped["seed"].nunique())
    return table.reset_index()


# --------------------------------------------------------------------------- bundle files


def word_column(word: str) -> str:
    return f"w[{word}]"


def reference_frame(tables: Mapping[str, pd.DataFrame], matrix: WordMatrix | None,
                    settings: VerificationSettings) -> tuple[pd.DataFrame, list[str]]:
    """``verification_reference.parquet``'s frame and its words (chosen on every corpus book)."""
    features, labels, book_ids = matrices_from_tables(dict(tables), "author")
    columns: dict[str, np.ndarray] = {"book_id": book_ids.astype(np.int64), "author": labels.astype(str)}
    blocks = [pd.DataFrame(columns)]
    for name in settings.punctuation_features():
        blocks.append(pd.DataFrame(features[name], columns=feature_column_names(name)))
    words: list[str] = []
    if settings.uses_words:
        words = vocabulary_of(matrix, book_ids, settings.top_words)
        blocks.append(pd.DataFrame(whole_word_frequencies(matrix, book_ids, words),
                                   columns=[word_column(w) for w in words]))
    return pd.concat(blocks, axis=1), words


def _finite_or_none(value: Any) -> float | None:
    value = float(value)
    return value if np.isfinite(value) else None


def write_verification_files(outputs: Mapping[str, Any], reference: pd.DataFrame, words: Sequence[str],
                             bands: Mapping[str, Mapping[str, Band]], results: pd.DataFrame,
                             settings: VerificationSettings, whole_marks: float) -> dict[str, Any]:
    """Write the reference vectors, then ``verification.json`` (last: its presence means both
    exist); ``whole_marks``: the corpus's median marks per document (where whole texts are
    placed when :meth:`VerificationBundle.band` chooses the band nearest a text's length)."""
    write_parquet_atomic(reference, outputs["reference"])
    auc = results.groupby(["family", "length"])["auc"].mean()
    record = {
        "format": FORMAT,
        "bundle_family": settings.bundle_family,
        "families": {
            family: {
                "bands": {length: band.as_json() for length, band in by_length.items()},
                "auc": {length: _finite_or_none(auc.get((family, length), np.nan)) for length in by_length},
            }
            for family, by_length in bands.items()
        },
        "lengths": list(settings.lengths),
        "words": list(words),
        "min_marks": settings.min_marks,
        "whole_marks": whole_marks,
        "imposters": asdict(settings.imposters),
        "n_authors": int(reference["author"].nunique()),
        "n_books": int(len(reference)),
        "seeds": list(settings.seeds),
        "files": dict(FILES),
    }
    write_json_atomic(outputs["record"], record)
    return record


@dataclass(frozen=True)
class VerificationBundle:
    """The verification files of a bundle folder (:func:`load_verification`)."""

    directory: str
    record: dict[str, Any]
    reference: pd.DataFrame

    @property
    def authors(self) -> list[str]:
        return sorted(self.reference["author"].unique().tolist())

    @property
    def words(self) -> list[str]:
        return list(self.record["words"])

    def band(self, family: str, n_marks: int) -> tuple[str, Band]:
        """The band calibrated at the length nearest to ``n_marks`` on a log scale, whole texts
        counted at the corpus's median length (``whole_marks``): (length key, band)."""
        bands = self.record["families"][family]["bands"]
        keys = list(bands)
        at = np.array([float(self.record["whole_marks"]) if k == WHOLE else float(k) for k in keys])
        key = keys[int(np.argmin(np.abs(np.log(np.maximum(at, 1.0)) - np.log(max(n_marks, 1)))))]
        block = bands[key]
        return key, Band(float(block["p1"]), float(block["p2"]), float(block["c_at_1"]))

    def matrix(self, family: str) -> np.ndarray:
        """The reference rows of a family: the punctuation columns, then the word columns."""
        punctuation, with_words = family_parts(family)
        columns = [] if punctuation is None else [c for f in resolve_feature_set(punctuation) for c in feature_column_names(f)]
        if with_words:
            columns += [word_column(w) for w in self.words]
        return self.reference[columns].to_numpy(dtype=np.float64)

    def score(self, family: str, text_features: Mapping[str, np.ndarray], text_words: np.ndarray | None,
              author: str, rng: np.random.Generator) -> float:
        """The General Imposters score of one text for ``author``, every other author an imposter,
        with draws (:func:`punctstyle.attribution.verification.imposters_draws`) from ``rng`` over
        the reference texts, as the calibration cases draw theirs."""
        labels = self.reference["author"].to_numpy(dtype=object)
        X = self.matrix(family)
        test = family_matrix(family, text_features, text_words)
        settings = ImpostersSettings(**self.record["imposters"])
        draws = imposters_draws(rng, X.shape[1], X.shape[0], settings)
        return float(reference_scores(test, X, labels == author, labels != author, draws, settings)[0])


def load_verification(directory: Any) -> VerificationBundle:
    """Read the verification files of a bundle folder; a missing or unreadable file raises
    :class:`punctstyle.io.InputError` in one line naming it."""
    import os

    folder = os.fspath(directory)
    paths = {key: os.path.join(folder, name) for key, name in FILES.items()}
    for key, path in paths.items():
        if not os.path.isfile(path):
            raise InputError(f"{path}: no verification file in the bundle (build it with `snakemake verification`)")
    record = read_json_object(paths["record"])
    if record.get("format") != FORMAT:
        raise InputError(f"{paths['record']}: not a {FORMAT} file (format {record.get('format')!r})")
    missing = [key for key in RECORD_KEYS if key not in record]
    if missing:
        raise InputError(f"{paths['record']}: field {missing[0]} missing; rebuild the bundle")
    if record["bundle_family"] not in record["families"]:
        raise InputError(f"{paths['record']}: field bundle_family: {record['bundle_family']!r} has no band; "
                         "rebuild the bundle")
    try:
        reference = pd.read_parquet(paths["reference"])
    except (OSError, ValueError) as exc:
        raise InputError(f"{paths['reference']}: not a readable Parquet file ({exc})") from exc
    if "author" not in reference.columns:
        raise InputError(f"{paths['reference']}: no 'author' column")
    return VerificationBundle(folder, record, reference)
