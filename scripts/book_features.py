"""Rule book_features: one book's f1..f6 and its inclusion status (one row per excerpt with
extraction.excerpt_marks)."""

from punctstyle.job_threads import limit_numeric_threads

limit_numeric_threads(snakemake.threads)  # before numpy is imported (punctstyle.job_threads)

from punctstyle.book.inclusion import InclusionRule  # noqa: E402
from punctstyle.book.feature_rows import book_features  # noqa: E402
from punctstyle.io import discarding_unreadable  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402
from punctstyle.book.job_exit import finish_job  # noqa: E402

log = configure_logging(snakemake.log[0])
rule = InclusionRule(
    min_marks=snakemake.params.min_marks,
    require_quotation_marks=snakemake.params.require_quotation_marks,
)
book_id = int(snakemake.wildcards.book_id)
with discarding_unreadable(snakemake.input):  # a corrupt sequence: deleted, remade next run
    row = book_features(snakemake.input[0], snakemake.output[0], book_id, rule, snakemake.params.excerpt_marks)
excerpts = f" ({row['n_excerpts']} excerpts)" if "n_excerpts" in row else ""
log.info("book %d: %s %s%s", book_id, row["status"], row["reason"], excerpts)
finish_job()  # outputs written: no interpreter teardown (punctstyle.book.job_exit)
