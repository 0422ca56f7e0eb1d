"""Rule consistency_summary: one row per (task, feature): within mean, baseline, KS test."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821 - this checkout's package

import pandas as pd  # noqa: E402

from punctstyle.io import atomic_open  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402

log = configure_logging(snakemake.log[0])  # noqa: F821
rows = [json.loads(Path(path).read_text(encoding="utf-8")) for path in snakemake.input]  # noqa: F821
summary = pd.DataFrame(rows)
with atomic_open(snakemake.output[0], "w", newline="") as handle:  # noqa: F821
    summary.to_csv(handle, index=False)
log.info("\n%s", summary.to_string())
