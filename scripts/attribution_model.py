"""Rule attribution_model: the bundle of `punctstyle attribute` (MLP, signatures, threshold)."""

import pandas as pd

from punctstyle.attribution_bundle import AttributionSettings, build_attribution_bundle
from punctstyle.classifiers.mlp import MLPParams
from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.vocabulary import FEATURES

log = configure_logging(snakemake.log[0])
params = snakemake.params
mlp = snakemake.config["recognition"]["mlp"]  # device only decides where it runs, not what it computes
tables = {name: pd.read_parquet(path) for name, path in zip(FEATURES, snakemake.input.tables, strict=True)}
manifest = build_attribution_bundle(
    tables,
    list(snakemake.input.sequences),
    dict(snakemake.output.items()),
    settings=AttributionSettings.from_config({key: getattr(params, key) for key in AttributionSettings.KEYS}),
    mlp_params=MLPParams.from_config(params.mlp),
    device=str(mlp["device"]),
    num_threads=snakemake.threads,
    log=log.info,
)
log.info(
    "bundle: %d books, %d authors, min_marks %s",
    manifest["n_books"],
    manifest["n_authors"],
    manifest["min_marks"],
)
log.info("%s", job_cost_line())
