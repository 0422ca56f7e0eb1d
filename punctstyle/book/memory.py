"""The memory a book's extraction job needs (Snakemake's mem_mb), from its text size.

(Split from the former book.py.)"""

from __future__ import annotations

import os

EXTRACTION_BASE_MB = 300
"""Memory of an extraction job besides its text: Python, numpy, pyarrow, the tokenizer rules
and the chunk cache of one piece (``benchmarks/bench_extract_memory.py``)."""
EXTRACTION_TEXT_FACTOR = 5
"""Peak memory of an extraction per byte of text: the decompressed bytes and the decoded text
(up to 2 bytes a character), the chunk cache; cleaning and the chunk lists are bounded by the
pieces (:func:`clean_and_extract`): 4.9 x on 50 and 200 MB texts without Gutenberg markers
(a text with markers is stripped whole by gutenbergpy, which copies it a few times)."""


def extraction_mem_mb(text_gz_path: str | os.PathLike[str], max_text_mb: float) -> int:
    """The memory an ``extract_book`` job needs: ``EXTRACTION_BASE_MB + EXTRACTION_TEXT_FACTOR
    * text MB``, with the decompressed size from the gzip trailer (ISIZE: the size mod 4 GiB,
    texts are capped far below); ``max_text_mb`` stands for the text while the file does not
    exist yet (planning) or is not a gzip file."""
    text_mb = float(max_text_mb)
    try:
        with open(text_gz_path, "rb") as handle:
            if handle.read(2) == b"\x1f\x8b":
                handle.seek(-4, os.SEEK_END)
                text_mb = int.from_bytes(handle.read(4), "little") / 2**20
    except OSError:
        pass
    return int(EXTRACTION_BASE_MB + EXTRACTION_TEXT_FACTOR * text_mb) + 1
