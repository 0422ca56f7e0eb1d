"""Rule ingest_document of a TEI corpus: one TEI file -> books/{id}.txt.gz + books/{id}.json
(:func:`punctstyle.sources.tei_job.ingest_tei_job`)."""

from punctstyle.logs import configure_logging
from punctstyle.sources.tei_job import ingest_tei_job

log = configure_logging(snakemake.log[0])
ingest_tei_job(snakemake.params, snakemake.wildcards, snakemake.input, snakemake.output, log)
