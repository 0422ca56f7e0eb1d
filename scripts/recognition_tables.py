"""Rule recognition_tables: mean and standard deviation over seeds, as the paper's tables."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821 - this checkout's package

import pandas as pd  # noqa: E402

from punctstyle.io import atomic_open, write_text_atomic  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402
from punctstyle.recognition import summarise, to_markdown  # noqa: E402

log = configure_logging(snakemake.log[0])  # noqa: F821
output = snakemake.output  # noqa: F821
frames = [pd.read_csv(path) for path in snakemake.input]  # noqa: F821
results = pd.concat([f for f in frames if len(f)], ignore_index=True) if any(len(f) for f in frames) else frames[0]
with atomic_open(output.results, "w", newline="") as handle:
    results.to_csv(handle, index=False)
if len(results):
    summary = summarise(results)
    markdown = to_markdown(summary)
else:
    summary = pd.DataFrame(columns=["task", "method", "n_classes"])
    markdown = f"No {snakemake.wildcards.task} recognition: the corpus has fewer than 2 classes.\n"  # noqa: F821
with atomic_open(output.summary, "w", newline="") as handle:
    summary.to_csv(handle, index=False)
write_text_atomic(output.markdown, markdown)
log.info("\n%s", markdown)
