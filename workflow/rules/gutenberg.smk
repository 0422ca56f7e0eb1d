# The Gutenberg source (config source: gutenberg): the catalog, the selection and the
# per-book download (the Snakefile includes this file or folder.smk).


rule download_catalog:
    output:
        out("catalog/pg_catalog.csv"),
    log:
        log_path("download_catalog"),
    conda:
        "../../envs/corpus.yaml"
    params:
        # the catalog's host: catalog_base_url, or base_url when that is null
        base_url=config["mirror"]["catalog_base_url"] or config["mirror"]["base_url"],
        catalog_path=config["mirror"]["catalog_path"],
        catalog_file=config["mirror"]["catalog_file"],
    script:
        "../../scripts/download_catalog.py"


checkpoint select_books:
    input:
        out("catalog/pg_catalog.csv"),
    output:
        selection=out("corpus/selection.parquet"),
        filters=out("corpus/selection_filters.csv"),
    log:
        log_path("select_books"),
    conda:
        "../../envs/corpus.yaml"
    params:
        # every key of the selection block decides the selection (see select_books)
        language=config["selection"]["language"],
        type=config["selection"]["type"],
        drop_authors=config["selection"]["drop_authors"],
        unique_titles=config["selection"]["unique_titles"],
        drop_title_words=config["selection"]["drop_title_words"],
        min_docs_per_author=config["selection"]["min_docs_per_author"],
        max_authors=config["selection"]["max_authors"],
        max_docs=config["selection"]["max_docs"],
        seed=config["selection"]["seed"],
    script:
        "../../scripts/select_books.py"


rule download_book:
    output:
        text=out("books/{book_id}.txt.gz"),
        provenance=out("books/{book_id}.json"),
    log:
        log_path("books/{book_id}.download"),
    group:
        "books"
    conda:
        "../../envs/corpus.yaml"
    resources:
        mirror_connections=1,
        mem_mb=300,
        disk_mb=2 * config["mirror"]["max_text_mb"],
        runtime=10,
    params:
        # Only what decides the book's bytes: changing timeouts, the attempt deadline or
        # retries reruns nothing ($PUNCTSTYLE_DOWNLOAD_POLICY: read from the environment when
        # the job runs, not a param; punctstyle.plan.book_jobs).
        base_url=config["mirror"]["base_url"],
        # a function, so that Snakemake leaves the templates' {id} alone
        url_templates=lambda wildcards: config["mirror"]["url_templates"],
        max_text_mb=config["mirror"]["max_text_mb"],
    # The command's text is Snakemake's code rerun trigger: changing it downloads every book
    # again (a results folder of a version with script: rules too: docs/performance.md, "A
    # book's CPU", says how to keep its downloads).
    shell:
        '"$PUNCTSTYLE_JOB_PYTHON" -m punctstyle.book.jobs.download {wildcards.book_id} --base-url {params.base_url:q}'
        " --templates {params.url_templates:q} --max-text-mb {params.max_text_mb}"
        ' --policy "$PUNCTSTYLE_DOWNLOAD_POLICY"'
        " --text {output.text:q} --provenance {output.provenance:q} --log {log:q}"
