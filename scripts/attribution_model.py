"""Rule attribution_model: the bundle of `punctstyle attribute` (MLP, signatures, threshold)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821 - this checkout's package

import pandas as pd  # noqa: E402

from punctstyle.attribute import build_attribution_bundle  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402
from punctstyle.marks import FEATURES  # noqa: E402

log = configure_logging(snakemake.log[0])  # noqa: F821
params = snakemake.params  # noqa: F821
tables = {name: pd.read_parquet(path) for name, path in zip(FEATURES, snakemake.input.tables)}  # noqa: F821
manifest = build_attribution_bundle(
    tables,
    list(snakemake.input.sequences),  # noqa: F821
    dict(snakemake.output.items()),  # noqa: F821
    settings=params.attribution,
    mlp=params.mlp,
    num_threads=snakemake.threads,  # noqa: F821
    config=params.config_used,
    log=log,
)
log.info(
    "bundle: %d books, %d authors, min_marks %s",
    manifest["n_books"],
    manifest["n_authors"],
    manifest["min_marks"],
)
