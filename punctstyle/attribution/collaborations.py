"""Synthetic collaborations for checking rolling attribution
(:mod:`punctstyle.attribution.rolling`) on held-out books.

One :class:`punctstyle.experiments.row.Row` over every author of the corpus (task
``rolling``) is split once (:meth:`Row.split`, whole texts on one side): the training books
are the reference set the slices are scored against, the test books are cut into parts. A
collaboration of kind ``A-B`` (two authors), ``A-B-A`` or ``A-B-C`` (three) is a sequence of
parts, each ``L`` consecutive marks of a held-out book of its author, ``L`` drawn uniformly
in ``[part_min, part_max]`` (when the book is shorter than its parts, the length above
``part_min`` of each part is scaled down to fit); the parts of one author come from
disjoint ranges of one of its books. The true changes are the parts' joins (in marks), and
the word stream of the collaboration is the parts' words (the words before each mark of a
part, ``sum(gaps)`` of it), so that word methods see the same text.

Scoring (:func:`evaluate_rolling`): the share of slices whose author is the true author at
the slice's centre, for each true change the distance to the nearest change found
(:func:`punctstyle.attribution.rolling.change_point_errors`), "within one step" when at most
the step, and as the change-point literature measures a segmentation, per collaboration:
precision, recall and F1 of the found changes within a margin (one window by default), each
found change matched to one true change at most, so that false alarms count
(:func:`punctstyle.attribution.change_points.change_point_scores`), and the Hausdorff distance.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from punctstyle.attribution.change_points import change_point_scores
from punctstyle.attribution.rolling import RollingResult, change_point_errors, truth_at
from punctstyle.experiments.row import Row
from punctstyle.marks import PAPER_FEATURES
from punctstyle.settings import load_settings

KINDS: dict[str, tuple[int, ...]] = {"A-B": (0, 1), "A-B-A": (0, 1, 0), "A-B-C": (0, 1, 2)}
"""Each kind's parts as author positions: ``A-B-A`` has two parts by its first author."""


@dataclass(frozen=True)
class Collaboration:
    """Parts of held-out books joined: ``documents`` (row index of each part's book),
    ``ranges`` (first, stop mark in that book), ``authors`` (of each part)."""

    kind: str
    documents: tuple[int, ...]
    ranges: tuple[tuple[int, int], ...]
    authors: tuple[str, ...]

    @property
    def boundaries(self) -> np.ndarray:
        """The true changes in marks: the cumulative part lengths, the last left out."""
        lengths = np.array([b - a for a, b in self.ranges], dtype=np.int64)
        return np.cumsum(lengths)[:-1]

    @property
    def n_marks(self) -> int:
        return int(sum(b - a for a, b in self.ranges))


def collaboration_split(table: Any, labels: Sequence[Any], seed: int, test_fraction: float,
                        book_ids: Sequence[Any] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(reference indices, held-out indices): the split of the ``rolling`` row over every
    author (:meth:`punctstyle.experiments.row.Row.split`, whole texts on one side)."""
    n_authors = int(np.unique(np.asarray(labels, dtype=object)).size)
    row = Row.from_table(table, labels, task="rolling", n_classes=n_authors, seed=seed, book_ids=book_ids)
    split = row.split(test_fraction)
    return split.train_index, split.test_index


def draw_collaborations(
    labels: Sequence[Any],
    n_marks: Sequence[int],
    held_out: Sequence[int],
    kinds: Sequence[str],
    per_kind: int,
    part_range: tuple[int, int],
    rng: np.random.Generator,
    known_authors: Sequence[Any] | None = None,
) -> list[Collaboration]:
    """``per_kind`` collaborations of each kind from the ``held_out`` documents (indices into
    ``labels``/``n_marks``): distinct authors drawn uniformly among those with a held-out book
    long enough for their parts (each part at least ``part_min`` marks), a book per author,
    part lengths uniform in ``part_range`` within the book, disjoint consecutive ranges at a
    random offset. ``known_authors`` (the authors of the reference books): only their held-out
books are drawn, so that every part's author can be recognised. Kinds for which too few
authors qualify are skipped."""
    labels = np.asarray(labels, dtype=object)
    n_marks = np.asarray(n_marks, dtype=np.int64)
    held_out = np.asarray(held_out, dtype=np.int64)
    if known_authors is not None:
        held_out = held_out[np.isin(labels[held_out], np.asarray(list(known_authors), dtype=object))]
    part_min, part_max = int(part_range[0]), int(part_range[1])
    out: list[Collaboration] = []
    for kind in kinds:
        positions = KINDS[kind]
        n_authors = max(positions) + 1
        parts_of = [positions.count(p) for p in range(n_authors)]
        for _ in range(per_kind):
            drawn = _draw_one(labels, n_marks, held_out, parts_of, part_min, rng)
            if drawn is None:
                break
            authors, books = drawn
            lengths = [int(rng.integers(part_min, part_max + 1)) for _ in positions]
            ranges: list[tuple[int, int] | None] = [None] * len(positions)
            for p in range(n_authors):
                mine = [k for k, q in enumerate(positions) if q == p]
                available = int(n_marks[books[p]])
                wanted = [lengths[k] for k in mine]
                extra = sum(w - part_min for w in wanted)
                scale = min(1.0, (available - len(wanted) * part_min) / extra) if extra > 0 else 0.0
                wanted = [part_min + int((w - part_min) * scale) for w in wanted]
                total = sum(wanted)
                cursor = int(rng.integers(0, available - total + 1))
                for k, w in zip(mine, wanted, strict=True):
                    ranges[k] = (cursor, cursor + w)
                    cursor += w
            out.append(Collaboration(
                kind, tuple(int(books[p]) for p in positions), tuple(r for r in ranges if r is not None),
                tuple(str(authors[p]) for p in positions),
            ))
    return out


def _draw_one(labels: np.ndarray, n_marks: np.ndarray, held_out: np.ndarray, parts_of: list[int],
              part_min: int, rng: np.random.Generator) -> tuple[list[Any], list[int]] | None:
    """Distinct authors and one held-out book each, long enough for ``parts_of[p]`` parts."""
    authors: list[Any] = []
    books: list[int] = []
    for count in parts_of:
        fits = held_out[(n_marks[held_out] >= count * part_min) & ~np.isin(labels[held_out], authors)]
        if fits.size == 0:
            return None
        candidates = np.unique(labels[fits])
        author = candidates[int(rng.integers(candidates.size))]
        mine = fits[labels[fits] == author]
        authors.append(author)
        books.append(int(mine[int(rng.integers(mine.size))]))
    return authors, books


def assemble(collaboration: Collaboration, sequences: Any, words: Any = None) -> tuple[np.ndarray, np.ndarray, Any]:
    """The collaboration's marks, gaps and (given ``words(i)``, the word stream of document
    ``i``) its word stream: each part's range of its book, joined in order."""
    marks, gaps, stream = [], [], []
    for document, (a, b) in zip(collaboration.documents, collaboration.ranges, strict=True):
        m, g = sequences[document]
        marks.append(np.asarray(m)[a:b])
        gaps.append(np.asarray(g)[a:b])
        if words is not None:
            cumulative = np.concatenate([[0], np.cumsum(np.asarray(g, dtype=np.int64))])
            stream.append(np.asarray(words(document), dtype=object)[cumulative[a] : cumulative[b]])
    joined = np.concatenate(stream) if words is not None else None
    return np.concatenate(marks), np.concatenate(gaps), joined


def evaluate_rolling(result: RollingResult, collaboration: Collaboration, margin: float | None = None) -> dict[str, Any]:
    """``slice_accuracy`` (slices whose author is the true author at their centre),
    ``errors`` (marks, one per true change), ``within_step`` (share of true changes found
    within one step), ``n_found``/``n_true`` changes, ``segments_right`` (the segment
    authors are the parts' authors, in order), and ``margin`` (marks; default: the window),
    ``precision``, ``recall``, ``f1``, ``false_alarms``, ``hausdorff`` of
    :func:`punctstyle.attribution.change_points.change_point_scores`."""
    boundaries = collaboration.boundaries
    margin = float(result.window if margin is None else margin)
    scores = change_point_scores(result.change_marks, boundaries, margin)
    truth = truth_at(result.centres, boundaries, collaboration.authors)
    errors = change_point_errors(result.change_marks, boundaries)
    return {
        "kind": collaboration.kind,
        "n_marks": collaboration.n_marks,
        "slice_accuracy": float(np.mean(result.slice_authors() == truth)),
        "errors": errors.tolist(),
        "mean_error": float(np.mean(errors)),
        "within_step": float(np.mean(errors <= result.step)),
        "n_found": len(result.change_marks),
        "n_true": int(boundaries.size),
        "segments_right": [a for _, _, a in result.segments] == list(collaboration.authors),
        "margin": margin,
        **{key: scores[key] for key in ("precision", "recall", "f1", "false_alarms", "hausdorff")},
    }


# --------------------------------------------------------------------------- the experiment


ROLLING_METHODS: tuple[str, ...] = ("kl_f3", "delta_punct", "delta_words", "delta_both")
"""``kl_f3``: KL divergence of each slice's f3 to the authors' f3 signatures; ``delta_punct``:
Burrows' Delta (author centroids of z-scores) on the paper's f1..f6; ``delta_words``: Delta on
the ``words`` most frequent words of the reference books; ``delta_both``: Delta on both."""
WORD_METHODS = ("delta_words", "delta_both")


@dataclass(frozen=True)
class RollingSettings:
    """The workflow's ``rolling`` block (the experiment's keys)."""

    window: int
    step: int
    words: int
    per_kind: int
    part_marks: tuple[int, int]
    test_fraction: float
    seeds: tuple[int, ...]
    methods: tuple[str, ...]
    kinds: tuple[str, ...] = tuple(KINDS)
    """Not a config key: every kind of collaboration."""

    SECTION: ClassVar[tuple[str, ...]] = ("rolling",)

    @classmethod
    def from_config(cls, block: Mapping[str, Any]) -> RollingSettings:
        """From the ``rolling`` block (:func:`punctstyle.settings.load_settings`)."""
        return load_settings(cls, block)


def _punctuation_block(features: Mapping[str, np.ndarray]) -> np.ndarray:
    return np.hstack([np.atleast_2d(features[f]) for f in PAPER_FEATURES])


@dataclass(frozen=True)
class SeedReferences:
    """What one seed's training side gives the rolling methods: the KL signatures of f3
    (``authors``, ``signatures``), the fitted Deltas by method and ``column_of``, the column of
    each word of the word block (empty without words)."""

    authors: np.ndarray
    signatures: np.ndarray
    deltas: dict[str, Any]
    column_of: dict[str, int]


def seed_references(punct: np.ndarray, f3: np.ndarray, labels: np.ndarray, train: np.ndarray, seed: int,
                    settings: RollingSettings, word_matrix: Any = None, freqs: Any = None,
                    book_ids: np.ndarray | None = None) -> SeedReferences:
    """The references of the training rows ``train``: f3 signatures
    (:func:`punctstyle.classifiers.kl_nearest.class_signatures`), Delta on f1..f6 (``delta_punct``)
    and, with a ``word_matrix`` (``freqs``: its relative frequencies of the rows' ``book_ids``),
    on the ``settings.words`` words chosen on the training rows (``delta_words``) and on both
    (``delta_both``)."""
    from punctstyle.classifiers.delta import BurrowsDelta
    from punctstyle.classifiers.kl_nearest import class_signatures
    from punctstyle.corpus.words import select_vocabulary

    y = labels[train]
    authors, signatures, _ = class_signatures(f3[train], y)
    deltas = {"delta_punct": BurrowsDelta(seed=seed, feature_set=()).fit(punct[train], y)}
    column_of: dict[str, int] = {}
    if word_matrix is not None:
        cutoff = word_matrix.cutoff[word_matrix.rows_of(book_ids[train])]
        columns = select_vocabulary(freqs[train], settings.words, cutoff).columns
        column_of = {w: j for j, w in enumerate(word_matrix.vocabulary[columns].tolist())}
        train_words = freqs[train][:, columns].toarray()
        deltas["delta_words"] = BurrowsDelta(seed=seed, feature_set=()).fit(train_words, y)
        deltas["delta_both"] = BurrowsDelta(seed=seed, feature_set=()).fit(np.hstack([punct[train], train_words]), y)
    return SeedReferences(authors, signatures, deltas, column_of)


def roll_collaboration(collaboration: Collaboration, sequence: Callable[[int], tuple[np.ndarray, np.ndarray]],
                       word_stream: Callable[[int], np.ndarray] | None, references: SeedReferences,
                       methods: Sequence[str], settings: RollingSettings, *, seed: int, number: int,
                       merge_same_author: bool = True) -> list[dict[str, Any]]:
    """One record per method of one collaboration: rolled (:func:`punctstyle.attribution.rolling.roll_text`)
    with the ``references`` of its seed and scored (:func:`evaluate_rolling`), plus ``seed``,
    ``number``, ``method``, ``authors`` and ``seconds``. ``word_stream``: the books' words (None:
    no word method)."""
    from punctstyle.attribution.rolling import DISTANCE, SliceScores, kl_slice_scores, roll_text, \
        slice_word_frequencies, slice_word_spans

    marks, gaps, stream = assemble(collaboration, _Indexed(sequence), word_stream)
    column_of, deltas = references.column_of, references.deltas
    index = (np.array([column_of.get(w, -1) for w in stream], dtype=np.int64) if word_stream is not None
             else np.zeros(0, dtype=np.int64))

    def words_of(starts: np.ndarray) -> np.ndarray:
        first, stop = slice_word_spans(gaps, starts, settings.window)
        return slice_word_frequencies(index, first, stop, len(column_of))

    def score(method: str, features: Mapping[str, np.ndarray], starts: np.ndarray) -> Any:
        if method == "kl_f3":
            return kl_slice_scores(references.signatures, references.authors, features["f3"], "f3")
        rows = {"delta_punct": lambda: _punctuation_block(features), "delta_words": lambda: words_of(starts),
                "delta_both": lambda: np.hstack([_punctuation_block(features), words_of(starts)])}[method]()
        return SliceScores(method, DISTANCE, deltas[method].classes, deltas[method].distances(rows))

    records = []
    for method in methods:
        start = time.perf_counter()
        result = roll_text(marks, gaps, settings.window, settings.step,
                           lambda features, starts, method=method: score(method, features, starts),
                           PAPER_FEATURES, merge_same_author=merge_same_author)
        record = evaluate_rolling(result, collaboration)
        record.update(seed=seed, number=number, method=method, authors="|".join(collaboration.authors),
                      seconds=time.perf_counter() - start)
        records.append(record)
    return records


def rolling_collaborations(
    tables: Mapping[str, pd.DataFrame],
    sequence: Callable[[int], tuple[np.ndarray, np.ndarray]],
    settings: RollingSettings,
    word_matrix: Any = None,
    word_stream: Callable[[int], np.ndarray] | None = None,
    merge_same_author: bool = True,
) -> pd.DataFrame:
    """One record per (seed, collaboration, method) (:func:`roll_collaboration`). ``tables``: the
    corpus tables f1..f6 (rows aligned); ``sequence(i)``: the marks and gaps of row ``i``'s book;
    ``word_matrix`` (:class:`punctstyle.corpus.words.WordMatrix`) and ``word_stream(i)`` (the
    book's words in extraction order) for the word methods, which are left out without them. Per
    seed the ``rolling`` row is split once (:func:`collaboration_split`); the reference set is the
    training side (:func:`seed_references`), the collaborations are cut from the held-out side."""
    from punctstyle.corpus.tables import feature_matrix

    table = tables[PAPER_FEATURES[0]]
    labels = table["author"].to_numpy(dtype=object)
    book_ids = table["book_id"].to_numpy(dtype=np.int64)
    punct = np.hstack([feature_matrix(tables[f], f) for f in PAPER_FEATURES])
    f3 = feature_matrix(tables["f3"], "f3")
    with_words = word_matrix is not None and word_stream is not None
    methods = [m for m in settings.methods if with_words or m not in WORD_METHODS]
    freqs = word_matrix.relative_frequencies(book_ids) if with_words else None
    records = []
    for seed in settings.seeds:
        train, test = collaboration_split(table, labels, seed, settings.test_fraction, book_ids)
        references = seed_references(punct, f3, labels, train, seed, settings,
                                     word_matrix if with_words else None, freqs, book_ids)
        rng = np.random.default_rng([seed, 2016])
        collaborations = draw_collaborations(labels, table["n_marks"].to_numpy(), test, settings.kinds,
                                             settings.per_kind, settings.part_marks, rng,
                                             known_authors=np.unique(labels[train]))
        for number, collaboration in enumerate(collaborations):
            records += roll_collaboration(collaboration, sequence, word_stream if with_words else None, references,
                                          methods, settings, seed=seed, number=number,
                                          merge_same_author=merge_same_author)
    return pd.DataFrame(records)


class _Indexed:
    """``sequence(i)`` as ``sequences[i]`` (what :func:`assemble` reads)."""

    def __init__(self, function: Callable[[int], tuple[np.ndarray, np.ndarray]]) -> None:
        self.function = function

    def __getitem__(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        return self.function(i)


CHANGE_POINT_MEASURES: tuple[str, ...] = ("precision", "recall", "f1", "false_alarms", "hausdorff")
"""The per-collaboration change-point measures of :func:`evaluate_rolling` (issue 35, item 4)."""
SUMMARY_COLUMNS = ["kind", "method", "n_collaborations", "slice_accuracy_mean", "slice_accuracy_sd",
                   "within_step_mean", "within_step_sd", "median_error_mean", "median_error_sd",
                   "segments_right_mean", "segments_right_sd",
                   *(f"{name}_{stat}" for name in CHANGE_POINT_MEASURES for stat in ("mean", "sd"))]


def rolling_summary(records: pd.DataFrame) -> pd.DataFrame:
    """Per kind and method, mean and sd over seeds of the per-seed means: slice accuracy, share
    of true changes within one step, median change-point error (marks; a missed change counts
    as infinite, so a median of inf means most were missed), segments in the right order, and
    the change-point measures (precision, recall, F1 within the margin, false alarms per text,
    Hausdorff distance in marks: inf when a text had no change found)."""
    if records.empty:
        return pd.DataFrame(columns=SUMMARY_COLUMNS)
    per_seed = records.groupby(["kind", "method", "seed"]).agg(
        slice_accuracy=("slice_accuracy", "mean"), within_step=("within_step", "mean"),
        median_error=("mean_error", "median"), segments_right=("segments_right", "mean"), n=("number", "size"),
        **{name: (name, "mean") for name in CHANGE_POINT_MEASURES})
    grouped = per_seed.groupby(["kind", "method"])
    out = pd.DataFrame({"n_collaborations": grouped["n"].sum()})
    for name in ("slice_accuracy", "within_step", "median_error", "segments_right", *CHANGE_POINT_MEASURES):
        out[f"{name}_mean"] = grouped[name].mean()
        out[f"{name}_sd"] = grouped[name].std(ddof=1)
    return out.reset_index()[SUMMARY_COLUMNS]


__all__ = [
    "CHANGE_POINT_MEASURES",
    "ROLLING_METHODS",
    "RollingSettings",
    "SUMMARY_COLUMNS",
    "rolling_collaborations",
    "rolling_summary","KINDS", "Collaboration", "assemble", "collaboration_split", "draw_collaborations", "evaluate_rolling"]
