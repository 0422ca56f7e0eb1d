"""Rule attribution_model: the bundle of `punctstyle attribute` (MLP, signatures, threshold)."""

import pandas as pd

from punctstyle.attribute import build_attribution_bundle
from punctstyle.logs import configure_logging
from punctstyle.marks import FEATURES

log = configure_logging(snakemake.log[0])
params = snakemake.params
tables = {name: pd.read_parquet(path) for name, path in zip(FEATURES, snakemake.input.tables)}
manifest = build_attribution_bundle(
    tables,
    list(snakemake.input.sequences),
    dict(snakemake.output.items()),
    settings=params.attribution,
    mlp=params.mlp,
    num_threads=snakemake.threads,
    config=params.config_used,
    log=log,
)
log.info(
    "bundle: %d books, %d authors, min_marks %s",
    manifest["n_books"],
    manifest["n_authors"],
    manifest["min_marks"],
)
