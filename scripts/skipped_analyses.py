"""Rule skipped_analyses: the analyses the corpus cannot feed, with their cause (CSV + report page)."""

from punctstyle.corpus.summary import read_corpus_summary
from punctstyle.io import atomic_open, write_text_atomic
from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.report.render import html_page, html_paragraph, html_table
from punctstyle.analyses.skipped import skip_lines, skipped_analyses
from punctstyle.plan.checkpoints import CorpusCounts
from punctstyle.plan.shapes import shape_skips

log = configure_logging(snakemake.log[0])
params = snakemake.params
table = skipped_analyses(
    params.planned,
    read_corpus_summary(snakemake.input.summary),
    genre_analysis_configured=params.genre_configured,
    genre_min_docs=params.genre_min_docs,
    shape_skips=shape_skips(params.shapes, CorpusCounts.read(snakemake.input.summary)),
    metadata_tasks=params.metadata_tasks,
)
for line in skip_lines(table):
    log.info("%s", line)
with atomic_open(snakemake.output.csv, "w", newline="") as handle:
    table.to_csv(handle, index=False)
parts = [html_table(table)] if len(table) else [html_paragraph("Every analysis ran: none was skipped.")]
write_text_atomic(snakemake.output.html, html_page("Skipped analyses", parts))
log.info("%s", job_cost_line())
