"""Planning helpers the Snakefiles call (targets, params, options), unit-tested without a
Snakemake run; and the guarded scheduler patch (:mod:`punctstyle.plan.scheduler_timers`)."""
