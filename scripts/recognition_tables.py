"""Rule recognition_tables: mean and standard deviation over seeds, as the paper's tables."""

import pandas as pd

from punctstyle.io import atomic_open, write_text_atomic
from punctstyle.logs import configure_logging
from punctstyle.recognition import summarise, to_markdown

log = configure_logging(snakemake.log[0])
output = snakemake.output
frames = [pd.read_csv(path) for path in snakemake.input]
results = pd.concat([f for f in frames if len(f)], ignore_index=True) if any(len(f) for f in frames) else frames[0]
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
