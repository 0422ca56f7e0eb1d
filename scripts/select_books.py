"""Checkpoint select_books: the paper's catalog filters -> selection.parquet."""

import pandas as pd

from punctstyle.catalog import read_catalog, select_books
from punctstyle.io import atomic_path, write_parquet_atomic
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
options = dict(snakemake.params.selection)

catalog = read_catalog(snakemake.input[0])
selection, filter_log = select_books(catalog, **options)
for step in filter_log:
    log.info("filter %-24s removed %6d, %6d remain", step["filter"], step["removed"], step["remaining"])
log.info("selected %d books by %d authors", len(selection), selection["author"].nunique())
write_parquet_atomic(selection, snakemake.output.selection)
with atomic_path(snakemake.output.filters) as tmp:
    pd.DataFrame(filter_log).to_csv(tmp, index=False)
