"""Rule attribution_model: the bundle of `punctstyle attribute` (MLP, signatures, threshold)."""

import pandas as pd

from punctstyle.attribution.bundle import AttributionSettings, build_attribution_bundle
from punctstyle.classifiers.mlp import MLPParams
from punctstyle.classifiers.options import classifier_options
from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.rule_names import FEATURES

log = configure_logging(snakemake.log[0])
params = snakemake.params
options = classifier_options(snakemake.config, "mlp", snakemake.threads, params.mlp)
tables = {name: pd.read_parquet(path) for name, path in zip(FEATURES, snakemake.input.tables, strict=True)}
manifest = build_attribution_bundle(
    tables,
    list(snakemake.input.sequences),
    dict(snakemake.output.items()),
    settings=AttributionSettings.from_config({key: getattr(params, key) for key in AttributionSettings.KEYS}),
    mlp_params=MLPParams.from_config(options["params"]),
    device=options["device"],
    num_threads=options["num_threads"],
    log=log.info,
)
log.info(
    "bundle: %d books, %d authors, min_marks %s",
    manifest["n_books"],
    manifest["n_authors"],
    manifest["min_marks"],
)
log.info("%s", job_cost_line())
