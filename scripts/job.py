"""The adapter of any rule whose ``job`` param names its job (``"module:function"``, e.g. a job
of ``punctstyle/jobs/``): the job gets the rule's named inputs, its named outputs and its other
params as dicts, and the log; a new analysis needs no script of its own (docs/CONVENTIONS.md,
"Where a change goes")."""

from importlib import import_module

from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
module, _, name = snakemake.params.job.partition(":")
job = getattr(import_module(module), name)
params = {key: value for key, value in snakemake.params.items() if key != "job"}
job(dict(snakemake.input.items()), dict(snakemake.output.items()), params, log=log)
log.info("%s", job_cost_line())
