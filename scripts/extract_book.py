"""Rule extract_book: clean one book and extract its marks, word gaps and word counts.

The tokenizer's rules come from the run's rules file (rule tokenizer_rules): this job does
not import spaCy (nor torch, nor pandas).
"""

from punctstyle.book import extract_book
from punctstyle.extract import ChunkCachedExtractor
from punctstyle.logs import configure_logging
from punctstyle.tokenizer import TokenizerRules

log = configure_logging(snakemake.log[0])
book_id = int(snakemake.wildcards.book_id)
extractor = ChunkCachedExtractor(rules=TokenizerRules.load(snakemake.input.rules))
sequence = extract_book(
    snakemake.input.text,
    snakemake.input.provenance,
    snakemake.output.sequence,
    book_id,
    extractor=extractor,
    words_path=snakemake.output.words,
)
log.info("book %d: %d marks, %d words", book_id, len(sequence), sequence.n_words)
