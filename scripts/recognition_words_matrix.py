"""Rule corpus_words (:func:`punctstyle.corpus.word_matrix_job.corpus_words_job`)."""

from punctstyle.corpus.word_matrix_job import corpus_words_job
from punctstyle.logs import configure_logging, job_cost_line

log = configure_logging(snakemake.log[0])
inputs = snakemake.input
corpus_words_job(
    inputs.corpus, inputs.words, snakemake.output[0], snakemake.params.pool_per_book, log, inputs.get("sequences", [])
)
log.info("%s", job_cost_line())
