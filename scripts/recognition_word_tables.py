"""Rule recognition_word_tables: the word baselines' rows x seeds -> mean and sd over seeds (beside Tables 2-3)."""

from punctstyle.io import atomic_open, write_text_atomic
from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.analyses.recognition_files import read_word_results
from punctstyle.report.recognition_tables import EXPERIMENT_KEYS, word_tables_html, word_tables_markdown, summarise
from punctstyle.report.render import html_page

log = configure_logging(snakemake.log[0])
output, task = snakemake.output, snakemake.wildcards.task
results = read_word_results(snakemake.input).drop_duplicates(EXPERIMENT_KEYS)
with atomic_open(output.results, "w", newline="") as handle:
    results.to_csv(handle, index=False)
summary = summarise(results) if len(results) else None
with atomic_open(output.summary, "w", newline="") as handle:
    (summary if summary is not None else results.iloc[:0]).to_csv(handle, index=False)
markdown = word_tables_markdown(summary, results, task)
write_text_atomic(output.markdown, markdown)
write_text_atomic(
    output.html, html_page(f"{task} recognition: word baselines", [word_tables_html(summary, results, task)])
)
log.info("\n%s", markdown)
log.info("%s", job_cost_line())
