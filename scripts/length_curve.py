"""Rule length_curve: the (class size, seed) rows -> accuracy mean and sd over seeds per method,
feature set, training mode and length, the chance level and the median words of each length."""

import pandas as pd

from punctstyle.classifiers import display_name
from punctstyle.io import atomic_open, write_text_atomic
from punctstyle.training.length_curve import EXCERPT_COLUMNS, RESULT_COLUMNS
from punctstyle.training.length_summary import summarise, summary_markdown
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
inputs, output = snakemake.input, snakemake.output
keep = {"keep_default_na": True, "dtype": {"length": str}}
results = pd.concat([pd.read_csv(p, **keep) for p in inputs.results], ignore_index=True).reindex(columns=RESULT_COLUMNS)
excerpts = pd.concat([pd.read_csv(p, **keep) for p in inputs.excerpts], ignore_index=True)
excerpts = excerpts.reindex(columns=EXCERPT_COLUMNS)
summary = summarise(results, excerpts)
for frame, path in ((results, output.results), (summary, output.summary)):
    with atomic_open(path, "w", newline="") as handle:
        frame.to_csv(handle, index=False)
text = "# Accuracy against the length of the punctuation sequence\n\n" + summary_markdown(summary, display_name)
write_text_atomic(output.markdown, text)
log.info("%s", text)
log.info("%s", job_cost_line())
