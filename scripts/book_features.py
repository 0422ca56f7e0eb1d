"""Rule book_features: one book's f1..f6 and its inclusion status."""

from punctstyle.book import InclusionRule, book_features
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
rule = InclusionRule(
    min_marks=snakemake.params.min_marks,
    require_quotation_marks=snakemake.params.require_quotation_marks,
)
book_id = int(snakemake.wildcards.book_id)
row = book_features(snakemake.input[0], snakemake.output[0], book_id, rule)
log.info("book %d: %s %s", book_id, row["status"], row["reason"])
