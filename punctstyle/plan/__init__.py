"""Planning the Snakefiles call, unit-tested without a Snakemake run: one planning interface per
analysis (:mod:`punctstyle.plan.analyses`: ``enabled``, ``targets``, ``params``, ``inputs``,
registered in ``ANALYSES``, the list rule ``all`` reads), the run's plan for a configuration
(:mod:`punctstyle.plan.workflow`: the config and a folder corpus' columns, read once), the
corpus' files (:mod:`~punctstyle.plan.corpus`), the tasks that run and the skipped analyses
(:mod:`~punctstyle.plan.tasks`), the paper's analyses (:mod:`~punctstyle.plan.paper`), its
rows and paths (:mod:`~punctstyle.plan.rows`, :mod:`~punctstyle.plan.targets`,
:mod:`~punctstyle.plan.sources`), what the checkpoints decided
(:mod:`~punctstyle.plan.checkpoints`), the figure paths and report flags
(:mod:`~punctstyle.plan.report`), the rules' priorities (:mod:`~punctstyle.plan.priorities`).
The guarded Snakemake patches live in :mod:`punctstyle.snakemake_patches` (rule files reach
them through :mod:`punctstyle.plan.rule_support`)."""
