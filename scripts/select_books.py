"""Checkpoint select_books: the paper's catalog filters -> selection.parquet."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821 - this checkout's package

import pandas as pd  # noqa: E402

from punctstyle.catalog import read_catalog, select_books  # noqa: E402
from punctstyle.io import atomic_path, write_parquet_atomic  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402

log = configure_logging(snakemake.log[0])  # noqa: F821
options = dict(snakemake.params.selection)  # noqa: F821

catalog = read_catalog(snakemake.input[0])  # noqa: F821
selection, filter_log = select_books(catalog, **options)
for step in filter_log:
    log.info("filter %-24s removed %6d, %6d remain", step["filter"], step["removed"], step["remaining"])
log.info("selected %d books by %d authors", len(selection), selection["author"].nunique())
write_parquet_atomic(selection, snakemake.output.selection)  # noqa: F821
with atomic_path(snakemake.output.filters) as tmp:  # noqa: F821
    pd.DataFrame(filter_log).to_csv(tmp, index=False)
