"""Rule extract_book: clean one book and extract its marks, word gaps, word counts and word
stream (the words file keeps both: punctstyle.book.sequence_file.write_words).

The tokenizer's rules come from the run's rules file (rule tokenizer_rules): this job does
not import spaCy (nor torch, nor pandas). Its numerical libraries get the rule's threads
before numpy is imported (punctstyle.job_threads).
"""

from punctstyle.job_threads import limit_numeric_threads

limit_numeric_threads(snakemake.threads)  # before numpy is imported (punctstyle.job_threads)

from punctstyle.book.steps import extract_book  # noqa: E402
from punctstyle.text.chunk_cache import ChunkCachedExtractor  # noqa: E402
from punctstyle.io import discarding_unreadable  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402
from punctstyle.book.job_exit import finish_job  # noqa: E402
from punctstyle.text.tokenizer import TokenizerRules  # noqa: E402

log = configure_logging(snakemake.log[0])
book_id = int(snakemake.wildcards.book_id)
extractor = ChunkCachedExtractor(rules=TokenizerRules.load(snakemake.input.rules))
# a corrupt text or provenance of the book: deleted, downloaded again by the next run
with discarding_unreadable([snakemake.input.text, snakemake.input.provenance]):
    sequence = extract_book(
        snakemake.input.text,
        snakemake.input.provenance,
        snakemake.output.sequence,
        book_id,
        extractor=extractor,
        words_path=snakemake.output.words,
    )
log.info("book %d: %d marks, %d words", book_id, len(sequence), sequence.n_words)
finish_job()  # outputs written: no interpreter teardown (punctstyle.book.job_exit)
