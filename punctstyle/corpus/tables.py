"""Corpus feature tables: one row per book, metadata columns then feature columns.

With ``extraction.excerpt_marks`` (:func:`punctstyle.book.feature_rows.excerpt_feature_rows`) a row is an
excerpt of a text: its ``book_id`` is an excerpt id (:data:`EXCERPT_ID_BASE` plus its rank,
:func:`number_excerpts`), and :data:`EXCERPT_COLUMNS` say which text (``source_id``, the
selection's ``book_id``) and which marks of it (``[first_mark, stop_mark)``) it holds. Splits
keep a text's excerpts on one side (:func:`text_groups`); the sequence of an excerpt is read
with :func:`punctstyle.corpus.sequences.document_sequences`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from punctstyle.marks import FEATURE_SIZES, feature_column_names
from punctstyle.io import InputError
from punctstyle.book.feature_rows import packed_feature_table
from punctstyle.marks import FEATURES
from punctstyle.rule_names import METADATA_TASKS
from punctstyle.sources.genres import assign_genres
from punctstyle.sources.genres import genre_shelves as resolve_genre_shelves

METADATA_COLUMNS: tuple[str, ...] = (
    "book_id",
    "title",
    "author",
    "birth",
    "death",
    "bookshelves",
    "genre",
    "time_slot",
    "gender",
    "n_marks",
)
"""The metadata columns of a feature table, those of the selection's that it has (a Gutenberg
selection has no ``time_slot`` nor ``gender``: its tables have neither)."""
LABEL_COLUMNS: tuple[str, ...] = METADATA_TASKS
"""Selection columns that label documents for the tasks beyond the paper (a TEI corpus' ELTeC
``time_slot`` and ``gender``): a blank value is no label (null, the row is left out of the task)."""
EXCERPT_COLUMNS: tuple[str, ...] = ("source_id", "excerpt", "first_mark", "stop_mark")
"""Columns of an excerpt row (after ``n_marks``): its text's ``book_id``, its index in the text
and its mark range ``[first_mark, stop_mark)`` in the text's sequence (``sequences/{source_id}``)."""
EXCERPT_ID_BASE: int = 9 * 10**15
"""Excerpt ``book_id`` values are ``EXCERPT_ID_BASE + rank``: above every text id (Gutenberg
numbers; a folder corpus' ids, below ``9 * 10**15``: :func:`punctstyle.sources.folder.book_number`)
and below 2**53 for up to 7.2e12 excerpts, so an excerpt id never names a text's files."""


def feature_matrix(frame: pd.DataFrame, feature: str) -> np.ndarray:
    """The (n_books, size) float64 array of ``feature`` (``f1`` .. ``f6``) from a table."""
    columns = feature_column_names(feature)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise KeyError(f"table has no column {missing[0]!r} of feature {feature}")
    values = frame.loc[:, columns].to_numpy(dtype=np.float64)
    assert values.shape[1] == FEATURE_SIZES[feature]
    return values


def read_feature_rows(paths: list[str], batch: int = 512) -> pd.DataFrame:
    """Concatenate per-book feature rows (``features/{id}.parquet``) into one frame.

    The one-row tables are combined ``batch`` files at a time: each costs about 0.7 MiB of
    Arrow schema and array objects (its data is 5 kB), so holding 15,000 of them at once would
    need about 10 GiB (benchmarks/bench_corpus_scale.py: 10.3 GiB unbatched, 0.95 GiB batched).
    """
    import pyarrow as pa
    import pyarrow.parquet as pq


    def read(path: str) -> pa.Table:
        try:
            table = pq.read_table(path)
        except (OSError, pa.ArrowException) as exc:
            raise InputError(f"{path}: not a readable feature Parquet file ({exc})") from exc
        if "f1" not in table.column_names and "f1[!]" in table.column_names:  # wide, before packing

            missing = {c: float("nan") for name in FEATURES for c in feature_column_names(name)}
            table = packed_feature_table({**missing, **table.to_pylist()[0]})
        return table

    if not paths:
        return pd.DataFrame(columns=["book_id", "status", "stage", "reason", "n_marks", "n_words"])
    combined = []
    for start in range(0, len(paths), batch):
        tables = [read(path) for path in paths[start : start + batch]]
        combined.append(pa.concat_tables(tables, promote_options="default").combine_chunks())
    return unpack_features(pa.concat_tables(combined, promote_options="default"))


def unpack_features(table: Any) -> pd.DataFrame:
    """Packed feature rows (``features/{id}.parquet``: a fixed-size list column per feature) ->
    a frame with the scalar columns and every feature's entries as columns named by
    :func:`punctstyle.marks.feature_column_names`, features in :data:`punctstyle.marks.FEATURES` order."""

    packed = [name for name in FEATURES if name in table.column_names]
    scalars = table.drop_columns(packed).to_pandas()
    blocks = [scalars]
    for name in packed:
        column = table.column(name).combine_chunks()
        values = column.flatten().to_numpy(zero_copy_only=False).reshape(len(table), FEATURE_SIZES[name])
        blocks.append(pd.DataFrame(values, columns=feature_column_names(name), index=scalars.index))
    return pd.concat(blocks, axis=1)


def is_excerpt_table(frame: pd.DataFrame) -> bool:
    """Whether the rows of ``frame`` (feature rows or a corpus table) are excerpts of texts."""
    return "excerpt" in frame.columns


def number_excerpts(rows: pd.DataFrame) -> pd.DataFrame:
    """Included excerpt rows (``book_id`` = their text's) renumbered: ``source_id`` = the text's
    id, ``book_id`` = :data:`EXCERPT_ID_BASE` + rank in (text id, excerpt) order among ``rows``
    (:func:`build_corpus`: the excerpts of every included text, before the author minimum). The
    ids depend only on the texts' ids and excerpt counts: the same texts and settings give the
    same ids."""
    ordered = rows.sort_values(["book_id", "excerpt"], kind="mergesort").reset_index(drop=True)
    if len(ordered) >= 2**53 - EXCERPT_ID_BASE:
        raise ValueError(f"{len(ordered)} excerpts: more than the excerpt ids can number")
    source = ordered["book_id"].astype(np.int64)
    ordered = ordered.drop(columns=["book_id"])
    ordered.insert(0, "book_id", EXCERPT_ID_BASE + np.arange(len(ordered), dtype=np.int64))
    ordered.insert(ordered.columns.get_loc("excerpt"), "source_id", source.to_numpy())
    return ordered


def text_groups(table: pd.DataFrame, book_ids: Any = None) -> np.ndarray | None:
    """The text of each document, the ``groups`` of :func:`punctstyle.experiments.splits.row_split` (a
    text's excerpts never straddle a split): the ``source_id`` of the rows of ``book_ids`` (in
    that order; default: the table's rows), or None when the documents are whole texts."""
    if "source_id" not in table.columns:
        return None
    sources = table["source_id"].to_numpy(dtype=np.int64)
    if book_ids is None:
        return sources
    position = pd.Series(np.arange(len(table)), index=table["book_id"].to_numpy(dtype=np.int64))
    return sources[position.loc[np.asarray(book_ids, dtype=np.int64)].to_numpy()]


def first_excerpts(table: pd.DataFrame) -> pd.DataFrame:
    """One row per text: the table itself for whole texts, else each text's first excerpt."""
    if "source_id" not in table.columns:
        return table
    return table.sort_values(["source_id", "excerpt"], kind="mergesort").drop_duplicates("source_id")


def first_excerpt_ids(table: pd.DataFrame, text_ids: Any) -> list[int]:
    """The documents of texts given by their ids (the selection's ``book_id``): the ids
    themselves for whole texts, else each text's first excerpt (an id that is no text of the
    table is kept, for the caller to report)."""
    ids = [int(i) for i in text_ids]
    if "source_id" not in table.columns:
        return ids
    first = first_excerpts(table)
    by_text = dict(zip(first["source_id"].astype(np.int64).tolist(), first["book_id"].astype(np.int64).tolist()))
    return [by_text.get(i, i) for i in ids]


def per_document(frame: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """A table keyed by a text's ``book_id`` (e.g. publication years) keyed by the documents of
    the corpus table ``table``: unchanged for whole texts; for excerpts, a text's row once per
    excerpt, with the excerpt's ``book_id`` (texts not in ``table`` are dropped)."""
    if "source_id" not in table.columns:
        return frame
    documents = table.loc[:, ["book_id", "source_id"]].astype(np.int64)
    keyed = frame.rename(columns={"book_id": "source_id"}).astype({"source_id": np.int64})
    merged = documents.merge(keyed, on="source_id", how="inner").drop(columns=["source_id"])
    return merged.loc[:, list(frame.columns)].reset_index(drop=True)


def _excerpt_setting_problem(rows: pd.DataFrame, excerpt_marks: int | None) -> str | None:
    """Why feature rows do not match ``extraction.excerpt_marks`` (stale files), or None."""
    if excerpt_marks is None:
        return "they are excerpts, but extraction.excerpt_marks is null" if is_excerpt_table(rows) else None
    included = rows[rows["status"] == "included"]
    if not is_excerpt_table(rows):
        return None if included.empty else f"they are whole texts, but extraction.excerpt_marks is {excerpt_marks}"
    lengths = (included["stop_mark"] - included["first_mark"]).unique()
    if included["excerpt"].isna().any() or any(int(n) != excerpt_marks for n in lengths):
        return f"some are not excerpts of extraction.excerpt_marks={excerpt_marks} marks"
    return None


def check_feature_rows(selection: pd.DataFrame, rows: pd.DataFrame, excerpt_marks: int | None) -> None:
    """Refuse feature rows (``ValueError``) that miss a selected book or were made with another
    ``excerpt_marks`` (:func:`_excerpt_setting_problem`)."""
    selected_ids = set(selection["book_id"].astype(int))
    missing = selected_ids - set(rows["book_id"].astype(int))
    if missing:
        raise ValueError(f"no feature row for {len(missing)} selected books, e.g. {sorted(missing)[:5]}")
    problem = _excerpt_setting_problem(rows, excerpt_marks)
    if problem:
        raise ValueError(f"feature rows do not match the settings: {problem}; rerun the extract_book jobs")


def build_corpus(
    selection: pd.DataFrame,
    rows: pd.DataFrame,
    *,
    min_docs_per_author: int,
    genre_shelves: list[str] | None,
    genre_min_docs: int,
    genre_multi_shelf_rule: str,
    excerpt_marks: int | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Join selection metadata and feature rows; apply the corpus-level rules.

    Returns ``(corpus, exclusions)``. ``corpus`` holds the included books with the metadata
    columns of :data:`METADATA_COLUMNS` (plus ``n_words``) and every feature column.
    ``exclusions`` has one row per selected book that is not in the corpus: ``book_id``,
    ``stage`` (``download``, ``features`` or ``corpus``) and ``reason``.

    Corpus-level rule (the paper's order): after per-book exclusions, authors with fewer than
    ``min_docs_per_author`` included books are dropped (stage ``corpus``). Genres are then
    assigned on the corpus with :func:`punctstyle.sources.genres.assign_genres`, among
    ``genre_shelves`` (a named set, ``paper`` or ``broad``, or a list of shelves:
    :func:`punctstyle.sources.genres.genre_shelves`).

    Excerpts (``excerpt_marks``, the feature rows of
    :func:`punctstyle.book.feature_rows.excerpt_feature_rows`): the corpus has one row per excerpt of an
    included text (:func:`number_excerpts`: ``book_id`` an excerpt id, plus
    :data:`EXCERPT_COLUMNS`, in ``book_id`` order); exclusions stay one row per text (its
    ``book_id``); ``min_docs_per_author`` counts an author's included texts, not excerpts (a
    text's excerpts all fall on one side of a split, so an author with one text could never
    be tested), and genres are assigned to texts (``genre_min_docs`` counts texts), each
    excerpt taking its text's. Feature rows that do not match ``excerpt_marks`` (files of
    another setting) raise ``ValueError``.
    """

    check_feature_rows(selection, rows, excerpt_marks)
    excerpts = is_excerpt_table(rows)
    meta = selection.drop(columns=[c for c in ("genre",) if c in selection.columns])
    merged = meta.merge(rows, on="book_id", how="inner", validate="one_to_many" if excerpts else "one_to_one")
    excluded = merged[merged["status"] != "included"]
    exclusions = [excluded[["book_id", "stage", "reason"]]]
    kept = merged[merged["status"] == "included"]
    if excerpts:
        kept = number_excerpts(kept)
    text_id = "source_id" if excerpts else "book_id"
    docs_per_author = kept.groupby("author")[text_id].transform("nunique")
    too_few = author_exclusions(kept, docs_per_author, min_docs_per_author, text_id, excerpts)
    if too_few is not None:
        exclusions.append(too_few)
    corpus = kept[docs_per_author >= min_docs_per_author].copy()
    corpus["genre"] = text_genres(corpus, text_id, shelves=resolve_genre_shelves(genre_shelves),
                                  min_docs=genre_min_docs, multi_shelf_rule=genre_multi_shelf_rule)  # fmt: skip
    for column in (c for c in LABEL_COLUMNS if c in corpus.columns):
        corpus[column] = blank_as_null(corpus[column])
    corpus = corpus.sort_values("book_id").reset_index(drop=True)
    exclusion_table = pd.concat(exclusions, ignore_index=True).sort_values("book_id").reset_index(drop=True)
    return corpus, exclusion_table


def author_exclusions(
    kept: pd.DataFrame, docs_per_author: pd.Series, min_docs_per_author: int, text_id: str, excerpts: bool
) -> pd.DataFrame | None:
    """The corpus-stage exclusions (``book_id``, ``stage``, ``reason``) of the included books
    whose author has fewer than ``min_docs_per_author`` texts (``docs_per_author``, aligned with
    ``kept``); with ``excerpts``, one row per text (its ``text_id``). None when none is excluded."""
    too_few = kept[docs_per_author < min_docs_per_author]
    if excerpts:  # one exclusion per text
        first = ~too_few.duplicated(text_id)
        too_few = too_few[first].assign(book_id=too_few.loc[first, text_id])
    if not len(too_few):
        return None
    return pd.DataFrame(
        {
            "book_id": too_few["book_id"],
            "stage": "corpus",
            "reason": [
                f"author has {n} included books < min_docs_per_author {min_docs_per_author}"
                for n in docs_per_author.loc[too_few.index]
            ],
        }
    )


def text_genres(corpus: pd.DataFrame, text_id: str, **rules: Any) -> pd.Series:
    """Each corpus row's genre: :func:`punctstyle.sources.genres.assign_genres` (``rules``:
    ``shelves``, ``min_docs``, ``multi_shelf_rule``) on the corpus' texts (first row of each
    ``text_id``), each excerpt taking its text's (an object Series on ``corpus.index``)."""
    texts = corpus.drop_duplicates(text_id)
    genres = assign_genres(texts, **rules)
    by_text = dict(zip(texts[text_id].tolist(), genres.tolist()))
    return pd.Series([by_text[t] for t in corpus[text_id].tolist()], index=corpus.index, dtype=object)


def blank_as_null(values: pd.Series) -> pd.Series:
    """``values`` as labels: each stripped string, a blank one (or a non-string: NaN, None) None."""
    labels = [v.strip() if isinstance(v, str) and v.strip() else None for v in values.tolist()]
    return pd.Series(labels, index=values.index, name=values.name, dtype=object)


def feature_table(corpus: pd.DataFrame, feature: str) -> pd.DataFrame:
    """The table of one feature: metadata columns (with :data:`EXCERPT_COLUMNS` for excerpts),
    ``n_words``, then its feature columns."""
    meta = [c for c in METADATA_COLUMNS + EXCERPT_COLUMNS if c in corpus.columns] + ["n_words"]
    return corpus.loc[:, meta + feature_column_names(feature)].reset_index(drop=True)
