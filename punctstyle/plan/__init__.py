"""Planning the Snakefiles call, unit-tested without a Snakemake run: the workflow's plan for a
configuration (:mod:`punctstyle.plan.workflow`: targets, inputs, tasks), its rows and paths
(:mod:`~punctstyle.plan.rows`, :mod:`~punctstyle.plan.targets`, :mod:`~punctstyle.plan.sources`),
what the checkpoints decided (:mod:`~punctstyle.plan.checkpoints`), the figure paths and report
flags (:mod:`~punctstyle.plan.report`), the rules' priorities (:mod:`~punctstyle.plan.priorities`). The guarded Snakemake patches
live in :mod:`punctstyle.snakemake_patches` (rule files reach them through
:mod:`punctstyle.plan.rule_support`)."""
