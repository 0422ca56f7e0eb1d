"""Rule consistency_summary: one row per (task, feature): within mean, baseline, KS test (and,
when the documents are excerpts of texts, the pairs of one text left out: n_within_same_text,
n_cross_same_text)."""

from punctstyle.analyses.consistency_files import read_summary, write_summary_table
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
summary = write_summary_table(snakemake.output[0], [read_summary(path) for path in snakemake.input])
log.info("\n%s", summary.to_string())
log.info("%s", job_cost_line())
