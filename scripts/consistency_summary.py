"""Rule consistency_summary: one row per (task, feature): within mean, baseline, KS test."""

import json
from pathlib import Path

import pandas as pd

from punctstyle.io import atomic_open
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
rows = [json.loads(Path(path).read_text(encoding="utf-8")) for path in snakemake.input]
summary = pd.DataFrame(rows)
with atomic_open(snakemake.output[0], "w", newline="") as handle:
    summary.to_csv(handle, index=False)
log.info("\n%s", summary.to_string())
