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
the slice's centre, and for each true change the distance to the nearest change found
(:func:`punctstyle.attribution.rolling.change_point_errors`), "within one step" when at most
the step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from punctstyle.attribution.rolling import RollingResult, change_point_errors, truth_at
from punctstyle.experiments.row import Row

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


def evaluate_rolling(result: RollingResult, collaboration: Collaboration) -> dict[str, Any]:
    """``slice_accuracy`` (slices whose author is the true author at their centre),
    ``errors`` (marks, one per true change), ``within_step`` (share of true changes found
    within one step), ``n_found``/``n_true`` changes, ``segments_right`` (the segment
    authors are the parts' authors, in order)."""
    boundaries = collaboration.boundaries
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
    }


__all__ = ["KINDS", "Collaboration", "assemble", "collaboration_split", "draw_collaborations", "evaluate_rolling"]
