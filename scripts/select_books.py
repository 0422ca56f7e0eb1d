"""Checkpoint select_books: the paper's catalog filters -> selection.parquet.

An empty selection (no author with min_docs_per_author books) stops the run here, with one
line naming the catalog, the threshold and the largest author's count.
"""

import pandas as pd

from punctstyle.sources.selection import EmptySelectionError, select_books
from punctstyle.sources.catalog import read_catalog
from punctstyle.io import InputError, atomic_path, write_parquet_atomic
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
options = dict(snakemake.params.items())  # the selection block's keys, one param each

catalog = read_catalog(snakemake.input[0])
try:
    selection, filter_log = select_books(catalog, **options)
except EmptySelectionError as exc:
    log.error("%s", exc)
    raise InputError(f"{snakemake.input[0]}: {exc}") from None
for step in filter_log:
    log.info("filter %-24s removed %6d, %6d remain", step["filter"], step["removed"], step["remaining"])
log.info("selected %d books by %d authors", len(selection), selection["author"].nunique())
write_parquet_atomic(selection, snakemake.output.selection)
with atomic_path(snakemake.output.filters) as tmp:
    pd.DataFrame(filter_log).to_csv(tmp, index=False)
