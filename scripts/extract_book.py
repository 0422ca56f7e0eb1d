"""Rule extract_book: clean one book and extract its marks and word gaps."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parent))  # noqa: F821 - this checkout's package

# This job only tokenises: keep thinc (spaCy's backend) from importing torch, which it never
# uses here and which costs seconds per job (most of the job on a loaded machine).
sys.modules.setdefault("torch", None)

from punctstyle.book import extract_book  # noqa: E402
from punctstyle.logs import configure_logging  # noqa: E402

log = configure_logging(snakemake.log[0])  # noqa: F821
book_id = int(snakemake.wildcards.book_id)  # noqa: F821
sequence = extract_book(
    snakemake.input.text,  # noqa: F821
    snakemake.input.provenance,  # noqa: F821
    snakemake.output[0],  # noqa: F821
    book_id,
)
log.info("book %d: %d marks, %d words", book_id, len(sequence), sequence.n_words)
