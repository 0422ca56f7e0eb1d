"""Rule recognition_tables: rows x seeds -> mean and standard deviation over seeds, as the paper's tables."""

import pandas as pd

from punctstyle.io import atomic_open, write_text_atomic
from punctstyle.logs import configure_logging, job_cost_line
from punctstyle.analyses.recognition_files import read_results
from punctstyle.report.recognition_tables import EXPERIMENT_KEYS, summarise, to_markdown

log = configure_logging(snakemake.log[0])
output = snakemake.output
results = read_results(snakemake.input)
# two requested class sizes capped to the same number of classes list the same experiments once
results = results.drop_duplicates(EXPERIMENT_KEYS)
with atomic_open(output.results, "w", newline="") as handle:
    results.to_csv(handle, index=False)
if len(results):
    summary = summarise(results)
    markdown = to_markdown(summary)
else:
    summary = pd.DataFrame(columns=["task", "method", "n_classes"])
    markdown = f"No {snakemake.wildcards.task} recognition: the corpus has fewer than 2 classes.\n"
with atomic_open(output.summary, "w", newline="") as handle:
    summary.to_csv(handle, index=False)
write_text_atomic(output.markdown, markdown)
log.info("\n%s", markdown)
log.info("%s", job_cost_line())
