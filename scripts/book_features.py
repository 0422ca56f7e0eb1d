"""Rule book_features: one book's f1..f6 and its inclusion status."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821 - this checkout's package

from punctstyle.book import InclusionRule, book_features  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402

log = configure_logging(snakemake.log[0])  # noqa: F821
extraction = snakemake.params.extraction  # noqa: F821
rule = InclusionRule(
    min_marks=extraction["min_marks"], require_quotation_marks=extraction["require_quotation_marks"]
)
book_id = int(snakemake.wildcards.book_id)  # noqa: F821
row = book_features(snakemake.input[0], snakemake.output[0], book_id, rule)  # noqa: F821
log.info("book %d: %s %s", book_id, row["status"], row["reason"])
