"""Rule temporal's body: middle years, mean f1 and punctuation rate by decade, optional publication years (section 5)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from punctstyle.analyses import temporal, temporal_tables
from punctstyle.analyses.temporal_tables import author_date_counts, default_over_time_authors
from punctstyle.corpus.tables import per_document
from punctstyle.io import atomic_open, write_json_atomic


def temporal_job(options: dict[str, Any], years_csv: str | None, inputs: Any, output: Any, log: Any) -> None:
    """Rule temporal: the dated documents, date counts, mean f1 and punctuation rate by decade, the
    per-author f1 over publication years (``years_csv``, optional) and the summary, from the corpus
    tables f1 and f5 (``options``: the config's ``temporal`` block)."""
    window = tuple(options["window"])

    f1 = pd.read_parquet(inputs.f1)
    f5 = pd.read_parquet(inputs.f5)

    def write_csv(frame: pd.DataFrame, path: str) -> None:
        with atomic_open(path, "w", newline="") as handle:
            frame.to_csv(handle, index=False)

    dated = temporal.dated_documents(f5, window)
    documents = dated.loc[:, ["book_id", "title", "author", "birth", "death", "middle_year", "decade"]].copy()
    documents["words_per_mark"] = temporal.punctuation_rate(dated).to_numpy()
    write_csv(documents, output.documents)
    write_csv(temporal_tables.date_counts_by_decade(f1, start=window[0], end=window[1]), output.dates)
    write_csv(temporal_tables.f1_by_decade(f1, window), output.f1)
    write_csv(temporal_tables.rate_by_decade(f5, window), output.rate)

    authors = list(options["authors_over_time"])
    years = temporal_tables.read_publication_years(years_csv) if years_csv else None
    if years is not None:  # a text's year for each of its excerpts (unchanged for whole texts)
        years = per_document(years, f1)
    if years is not None and not authors:
        authors = default_over_time_authors(f1, years)
        log.info("temporal.authors_over_time is empty: using the authors with most dated books: %s", authors)
    over_time, reason = temporal_tables.author_f1_over_time(f1, years, authors, window)
    columns = ["author", "year", "code", "mark", "n", "mean", "min", "max"]
    write_csv(over_time if over_time is not None else pd.DataFrame(columns=columns), output.over_time)
    log.info("per-author analysis over publication years: %s", reason)

    summary = {
        "window": list(window),
        "decade_start": options["decade_start"],
        "middle_year_rule": "mean of birth and death years; birth + 30 or death - 30 when only one is known",
        **author_date_counts(f1, window),
        "author_dates": temporal_tables.author_date_exclusions(f1, window[0]),
        "documents_in_window": int(len(dated)),
        "punctuation_rate_source": temporal.punctuation_rate_source(f5),
        "over_time": {
            "drawn": over_time is not None,
            "reason": reason,
            "publication_years_csv": years_csv,
            "authors": authors,
        },
    }
    write_json_atomic(output.summary, summary)
    log.info("%s", summary)
