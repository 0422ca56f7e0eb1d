"""Rule consistency: one task, every feature: class consistency, baseline, KS, top-k KL matrices
(:func:`punctstyle.analyses.consistency_files.consistency_task_job`)."""

from punctstyle.analyses.consistency_files import consistency_task_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
params, output = snakemake.params, snakemake.output
consistency_task_job(
    dict(zip(params.features, snakemake.input, strict=True)),
    snakemake.wildcards.task,
    {kind: list(getattr(output, kind)) for kind in ("table", "summary", "values", "heatmaps")},
    baseline_pairs=params.baseline_pairs,
    seed=params.seed,
    top_k=params.top_k,
    log=log,
)
log.info("%s", job_cost_line())
