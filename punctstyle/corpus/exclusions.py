"""The corpus's exclusions (corpus/exclusions.csv): why a book is not in the tables.

(Split from the former corpus.py.)"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
from punctstyle.io import atomic_open
from punctstyle.io import InputError

EXCLUSION_COLUMNS: tuple[str, ...] = ("book_id", "stage", "reason")

_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+?(?=:?\s|$)")
_ATTEMPTS = re.compile(r" \(after \d+ attempts?\)$")
_METADATA_ROW = re.compile(r"^.*?: row \d+(?: \(.*?\))?: ")
_REASON_CODES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^too few punctuation marks: \d+ < min_marks (\d+)$"), r"too few punctuation marks (< \1)"),
    (
        re.compile(r"^too few punctuation marks for one excerpt: \d+ < excerpt_marks (\d+)$"),
        r"too few punctuation marks for one excerpt (< \1)",
    ),
    (
        re.compile(r"^author has \d+ included books < min_docs_per_author (\d+)$"),
        r"author has fewer than \1 included books (min_docs_per_author)",
    ),
    (
        re.compile(r"^author has \d+ documents < min_docs_per_author (\d+)$"),
        r"author has fewer than \1 documents (min_docs_per_author)",
    ),
    (re.compile(r"^duplicate id .*$"), "duplicate id"),
    (re.compile(r"^file not found: .*$"), "file not found"),
    (re.compile(r"^(year|author_birth|author_death) '.*' is not a whole number$"), r"\1 is not a whole number"),
    (re.compile(r"^id '.*' has no letter or digit$"), "id has no letter or digit"),
)


def exclusion_reason_code(reason: str) -> str:
    """The code an exclusion reason is counted under: its text without what names one book (a
    URL, a download's attempt count, a metadata CSV's ``<file>: row <n> (<cell>): `` prefix),
    then a fixed phrase for the known shapes (``too few punctuation marks: 37 < min_marks 100``
    -> ``too few punctuation marks (< 100)``, ``duplicate id '...' ...`` -> ``duplicate id``).
    Any other reason is its own code, verbatim: reasons are never merged into ranges of numbers.
    """
    text = _URL.sub("", str(reason)).replace(" : ", ": ").replace(":: ", ": ").strip()
    text = _ATTEMPTS.sub("", _METADATA_ROW.sub("", text))
    for pattern, code in _REASON_CODES:
        if pattern.match(text):
            return pattern.sub(code, text)
    return text


def exclusion_reason_groups(exclusions: pd.DataFrame) -> pd.DataFrame:
    """Excluded books per ``stage`` and reason code: ``stage``, ``reason`` (the code,
    :func:`exclusion_reason_code`), ``books``, ``example`` (the first member's reason, verbatim).
    Most frequent first, ties by stage and code.
    """
    if exclusions.empty:
        return pd.DataFrame({"stage": pd.Series(dtype=object), "reason": pd.Series(dtype=object),
                             "books": pd.Series(dtype=np.int64), "example": pd.Series(dtype=object)})
    frame = exclusions.assign(reason=exclusions["reason"].fillna("").astype(str))
    codes = frame["reason"].map(exclusion_reason_code)
    rows = []
    for (stage, code), group in frame.groupby([frame["stage"], codes], sort=True):
        rows.append({"stage": stage, "reason": code, "books": int(len(group)), "example": group["reason"].iloc[0]})
    table = pd.DataFrame(rows, columns=["stage", "reason", "books", "example"])
    return table.sort_values("books", ascending=False, kind="mergesort").reset_index(drop=True)


def write_exclusions(path: Any, exclusions: pd.DataFrame) -> None:
    """``corpus/exclusions.csv``: ``book_id``, ``stage``, ``reason`` of every excluded book."""

    with atomic_open(path, "w", newline="") as handle:
        exclusions.loc[:, list(EXCLUSION_COLUMNS)].to_csv(handle, index=False)


def read_exclusions(path: Any) -> pd.DataFrame:
    """The table of :func:`write_exclusions` (reasons as text, empty ones as "")."""

    try:
        table = pd.read_csv(path, dtype={"stage": str, "reason": str}, keep_default_na=False)
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable CSV file ({exc})") from exc
    missing = [c for c in EXCLUSION_COLUMNS if c not in table.columns]
    if missing:
        raise InputError(f"{path}: no column {missing[0]!r} (expected {', '.join(EXCLUSION_COLUMNS)})")
    return table
