# The folder source (config source: folder): your own texts and a metadata CSV, in place of
# the Gutenberg catalog and download (the Snakefile includes this file or gutenberg.smk).
from punctstyle.plan.rule_support import file_sha256


# A folder of your own texts: the metadata CSV is the catalog and its rows the selection
# (no Gutenberg filters; min_docs_per_author applies). Bad rows are left out, one line each.
checkpoint select_books:
    input:
        metadata=folder_metadata_path(config),
    output:
        selection=out("corpus/selection.parquet"),
        filters=out("corpus/selection_filters.csv"),
        exclusions=out("corpus/metadata_exclusions.csv"),
        years=out("corpus/publication_years.csv"),
    log:
        log_path("select_books"),
    conda:
        "../../envs/corpus.yaml"
    params:
        # a function: the folder is not a file prefix of the outputs (lint)
        folder=lambda wildcards: config["folder"]["path"],
        min_docs_per_author=config["selection"]["min_docs_per_author"],
    script:
        "../../scripts/select_folder.py"


# A folder corpus: read one file of the folder in place of the download (same outputs).
rule ingest_document:
    input:
        document=lambda wildcards: folder_document(wildcards)[2],
    output:
        text=out("books/{book_id}.txt.gz"),
        provenance=out("books/{book_id}.json"),
    log:
        log_path("books/{book_id}.ingest"),
    group:
        "books"
    conda:
        "../../envs/corpus.yaml"
    resources:
        mem_mb=300,
        disk_mb=2 * config["mirror"]["max_text_mb"],
        runtime=5,
    params:
        doc_id=lambda wildcards: folder_document(wildcards)[0],
        file=lambda wildcards: folder_document(wildcards)[1],
        max_text_mb=config["mirror"]["max_text_mb"],
        # the document's content: an edit that keeps the modification time reruns it
        sha256=lambda wildcards: file_sha256(folder_document(wildcards)[2]),
    shell:
        '"$PUNCTSTYLE_JOB_PYTHON" -m punctstyle.book.jobs.ingest {wildcards.book_id} --document {input.document:q}'
        " --doc-id {params.doc_id:q} --file {params.file:q} --max-text-mb {params.max_text_mb}"
        " --text {output.text:q} --provenance {output.provenance:q} --log {log:q}"
