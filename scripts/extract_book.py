"""Rule extract_book: clean one book and extract its marks and word gaps."""

import sys

# This job only tokenises: keep thinc (spaCy's backend) from importing torch, which it never
# uses here and which costs seconds per job (most of the job on a loaded machine).
sys.modules.setdefault("torch", None)

from punctstyle.book import extract_book  # noqa: E402 - after the torch guard
from punctstyle.logs import configure_logging  # noqa: E402

log = configure_logging(snakemake.log[0])
book_id = int(snakemake.wildcards.book_id)
sequence = extract_book(
    snakemake.input.text,
    snakemake.input.provenance,
    snakemake.output[0],
    book_id,
)
log.info("book %d: %d marks, %d words", book_id, len(sequence), sequence.n_words)
