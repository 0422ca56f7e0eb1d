"""Rule ingest_document: one file of a folder corpus -> books/{id}.txt.gz + books/{id}.json."""

from punctstyle.sources.folder import read_document, write_document
from punctstyle.logs import configure_logging

log = configure_logging(snakemake.log[0])
params = snakemake.params
book_id = int(snakemake.wildcards.book_id)
document = read_document(
    snakemake.input.document,
    book_id,
    params.doc_id,
    max_bytes=int(params.max_text_mb * 1024 * 1024),
)
log.info("document %d (%s): %s %s", book_id, params.doc_id, document.status, document.reason or document.encoding)
write_document(document, params.file, snakemake.output.text, snakemake.output.provenance)
