"""Corpus feature tables: one row per book, metadata columns then feature columns."""

from __future__ import annotations

import numpy as np
import pandas as pd

from punctstyle.marks import FEATURE_SIZES, feature_column_names

METADATA_COLUMNS: tuple[str, ...] = (
    "book_id",
    "title",
    "author",
    "birth",
    "death",
    "bookshelves",
    "genre",
    "n_marks",
)


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

    from punctstyle.io import InputError

    def read(path: str) -> pa.Table:
        try:
            return pq.read_table(path)
        except (OSError, pa.ArrowException) as exc:
            raise InputError(f"{path}: not a readable feature Parquet file ({exc})") from exc

    if not paths:
        return pd.DataFrame(columns=["book_id", "status", "stage", "reason", "n_marks", "n_words"])
    combined = []
    for start in range(0, len(paths), batch):
        tables = [read(path) for path in paths[start : start + batch]]
        combined.append(pa.concat_tables(tables, promote_options="default").combine_chunks())
    return pa.concat_tables(combined, promote_options="default").to_pandas()


def build_corpus(
    selection: pd.DataFrame,
    rows: pd.DataFrame,
    *,
    min_docs_per_author: int,
    genre_shelves: list[str] | None,
    genre_min_docs: int,
    genre_multi_shelf_rule: str,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Join selection metadata and feature rows; apply the corpus-level rules.

    Returns ``(corpus, exclusions)``. ``corpus`` holds the included books with the metadata
    columns of :data:`METADATA_COLUMNS` (plus ``n_words``) and every feature column.
    ``exclusions`` has one row per selected book that is not in the corpus: ``book_id``,
    ``stage`` (``download``, ``features`` or ``corpus``) and ``reason``.

    Corpus-level rule (the paper's order): after per-book exclusions, authors with fewer than
    ``min_docs_per_author`` included books are dropped (stage ``corpus``). Genres are then
    assigned on the corpus with :func:`punctstyle.catalog.assign_genres`, among
    ``genre_shelves`` (None: :data:`punctstyle.catalog.DEFAULT_GENRE_SHELVES`).
    """
    from punctstyle.catalog import DEFAULT_GENRE_SHELVES, assign_genres

    selected_ids = set(selection["book_id"].astype(int))
    missing = selected_ids - set(rows["book_id"].astype(int))
    if missing:
        raise ValueError(f"no feature row for {len(missing)} selected books, e.g. {sorted(missing)[:5]}")
    meta = selection.drop(columns=[c for c in ("genre",) if c in selection.columns])
    merged = meta.merge(rows, on="book_id", how="inner", validate="one_to_one")
    excluded = merged[merged["status"] != "included"]
    exclusions = [excluded[["book_id", "stage", "reason"]]]
    kept = merged[merged["status"] == "included"]
    docs_per_author = kept.groupby("author")["book_id"].transform("size")
    too_few = kept[docs_per_author < min_docs_per_author]
    if len(too_few):
        exclusions.append(
            pd.DataFrame(
                {
                    "book_id": too_few["book_id"],
                    "stage": "corpus",
                    "reason": [
                        f"author has {n} included books < min_docs_per_author {min_docs_per_author}"
                        for n in docs_per_author[docs_per_author < min_docs_per_author]
                    ],
                }
            )
        )
    corpus = kept[docs_per_author >= min_docs_per_author].copy()
    corpus["genre"] = assign_genres(
        corpus,
        shelves=DEFAULT_GENRE_SHELVES if genre_shelves is None else genre_shelves,
        min_docs=genre_min_docs,
        multi_shelf_rule=genre_multi_shelf_rule,
    )
    corpus = corpus.sort_values("book_id").reset_index(drop=True)
    exclusion_table = pd.concat(exclusions, ignore_index=True).sort_values("book_id").reset_index(drop=True)
    return corpus, exclusion_table


def feature_table(corpus: pd.DataFrame, feature: str) -> pd.DataFrame:
    """The table of one feature: metadata columns, ``n_words``, then its feature columns."""
    meta = [c for c in METADATA_COLUMNS if c in corpus.columns] + ["n_words"]
    return corpus.loc[:, meta + feature_column_names(feature)].reset_index(drop=True)


def corpus_summary(selection: pd.DataFrame, corpus: pd.DataFrame, exclusions: pd.DataFrame) -> dict:
    """Counts for the README and the report: selected, included, excluded per stage/reason."""
    reasons = exclusions["reason"].str.replace(r"\d+", "N", regex=True)
    return {
        "books_selected": int(len(selection)),
        "authors_selected": int(selection["author"].nunique()),
        "books_in_corpus": int(len(corpus)),
        "authors_in_corpus": int(corpus["author"].nunique()),
        "genres_in_corpus": int(corpus["genre"].dropna().nunique()) if "genre" in corpus else 0,
        "books_with_genre": int(corpus["genre"].notna().sum()) if "genre" in corpus else 0,
        "excluded_by_stage": {str(k): int(v) for k, v in exclusions["stage"].value_counts().items()},
        "excluded_by_reason": {str(k): int(v) for k, v in reasons.value_counts().items()},
    }
