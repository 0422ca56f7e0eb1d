"""What the workflow's checkpoints decide, read from their files: the books the selection chose
(``select_books``: ``corpus/selection.parquet``) and the classes the corpus holds
(``corpus_tables``: ``corpus/summary.json``). The ``.smk`` input functions hand the checkpoint's
output path to these readers; the planning functions take the objects, so they are tested
without Snakemake."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache

import pandas as pd

from punctstyle.io import InputError

TASK_COUNT_KEYS = {"author": "authors_in_corpus", "genre": "genres_in_corpus"}
LABEL_COUNT_KEYS = {"time_slot": "time_slots_in_corpus", "gender": "genders_in_corpus"}
"""The summary keys of the tasks beyond the paper (punctstyle.corpus.summary.LABEL_COUNT_KEYS):
written only for a corpus with the column, so a missing key counts 0 classes."""


@dataclass(frozen=True)
class CorpusCounts:
    """Classes per task in the corpus tables (``authors_in_corpus``, ``genres_in_corpus`` of
    ``corpus/summary.json``, and ``time_slots_in_corpus``, ``genders_in_corpus``: 0 when the
    summary has no such key, a corpus without the column). Called as ``counts(task)``, as the planning functions expect.
    ``texts_per_author``: author -> texts (the summary's ``texts_per_author``; empty in a
    summary written before it existed: the shape decisions then count every author as having
    ``selection.min_docs_per_author`` texts, :mod:`punctstyle.plan.shapes`)."""

    classes: dict[str, int]
    texts_per_author: dict[str, int] = field(default_factory=dict)

    def __call__(self, task: str) -> int:
        if task in LABEL_COUNT_KEYS:  # a corpus without the column has none
            return int(self.classes.get(task, 0))
        return int(self.classes[task])

    @classmethod
    def read(cls, summary: str | os.PathLike) -> CorpusCounts:
        """The counts of a corpus summary file (a missing key: one line naming the file)."""
        with open(summary, encoding="utf-8") as handle:
            data = json.load(handle)
        missing = [key for key in TASK_COUNT_KEYS.values() if key not in data]
        if missing:
            raise InputError(f"{summary}: the corpus summary has no {', '.join(missing)}")
        texts = {str(author): int(n) for author, n in data.get("texts_per_author", {}).items()}
        labels = {task: int(data.get(key, 0)) for task, key in LABEL_COUNT_KEYS.items()}
        return cls({**{task: int(data[key]) for task, key in TASK_COUNT_KEYS.items()}, **labels}, texts)


@dataclass(frozen=True)
class SelectedBooks:
    """The books of the selection checkpoint, in the selection's order: ``ids``, and for a
    folder corpus each book's ``(doc_id, file, path)`` (path: the file resolved inside the
    folder, :func:`punctstyle.sources.folder.resolve_document`)."""

    ids: tuple[int, ...]
    documents: dict[int, tuple[str, str, str]]

    @classmethod
    def read(cls, selection: str | os.PathLike) -> SelectedBooks:
        """The selection file's books (read once per modification time)."""
        return _read_selection(str(selection), os.path.getmtime(selection))


@lru_cache(maxsize=4)
def _read_selection(selection: str, mtime: float) -> SelectedBooks:
    frame = pd.read_parquet(selection)
    ids = tuple(int(book_id) for book_id in frame["book_id"])
    documents = {}
    if {"doc_id", "file", "path"} <= set(frame.columns):
        documents = {
            int(row.book_id): (row.doc_id, row.file, row.path)
            for row in frame[["book_id", "doc_id", "file", "path"]].itertuples()
        }
    return SelectedBooks(ids, documents)
