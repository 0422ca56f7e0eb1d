# The TEI source (config source: tei): a folder of TEI files (e.g. a cloned ELTeC collection)
# and an optional metadata table, in place of the Gutenberg catalog and download (the
# Snakefile includes this file, folder.smk or gutenberg.smk). The selection and the per-book
# files are the folder source's (punctstyle.sources.tei_job).
from punctstyle.plan.rule_support import file_sha256
from punctstyle.plan.tei import tei_inputs, tei_select_params


# The TEI files and the metadata table: each file parsed once (refused files, table rows
# without a file and files in another language are left out, one line each).
checkpoint select_books:
    input:
        tei_inputs(config),
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
        config=tei_select_params(config, plan_sources.corpus_language(config)),
    script:
        "../../scripts/select_tei.py"


# A TEI corpus: the text of one file's <body> in place of the download (same outputs).
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
        mem_mb=500,
        disk_mb=2 * config["mirror"]["max_text_mb"],
        runtime=5,
    params:
        doc_id=lambda wildcards: folder_document(wildcards)[0],
        file=lambda wildcards: folder_document(wildcards)[1],
        parts=config["tei"]["parts"],
        notes=config["tei"]["notes"],
        max_text_mb=config["mirror"]["max_text_mb"],
        # the document's content: an edit that keeps the modification time reruns it
        sha256=lambda wildcards: file_sha256(folder_document(wildcards)[2]),
    shell:
        '"$PUNCTSTYLE_JOB_PYTHON" -m punctstyle.book.jobs.ingest_tei {wildcards.book_id} --document {input.document:q}'
        " --doc-id {params.doc_id:q} --file {params.file:q} --parts {params.parts:q}"
        " --notes {params.notes} --max-text-mb {params.max_text_mb}"
        " --text {output.text:q} --provenance {output.provenance:q} --log {log:q}"
