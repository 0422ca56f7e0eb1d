"""Guarded patches of Snakemake's runtime, installed by ``workflow/rules/common.smk`` (through
:mod:`punctstyle.plan.rule_support`): one pending scheduler re-evaluation timer
(:mod:`~punctstyle.snakemake_patches.scheduler_timers`) and the console's short job listing
(:mod:`~punctstyle.snakemake_patches.console`). Each checks the Snakemake it finds and, on a
mismatch, warns once and keeps Snakemake's own behaviour. They change how a run goes, never
what it computes, and import nothing of the package (floor 0, docs/CONVENTIONS.md)."""
