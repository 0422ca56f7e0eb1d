rule download_catalog:
    output:
        out("catalog/pg_catalog.csv"),
    log:
        log_path("download_catalog"),
    conda:
        "../../envs/corpus.yaml"
    params:
        base_url=config["mirror"]["base_url"],
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
        selection=config["selection"],
    script:
        "../../scripts/select_books.py"


rule corpus_tables:
    input:
        selection=out("corpus/selection.parquet"),
        rows=all_feature_rows,
    output:
        tables=expand(out("corpus/{feature}.parquet"), feature=FEATURE_NAMES),
        exclusions=out("corpus/exclusions.csv"),
        summary=out("corpus/summary.json"),
    log:
        log_path("corpus_tables"),
    conda:
        "../../envs/corpus.yaml"
    resources:
        mem_mb=4000,
    params:
        min_docs_per_author=config["selection"]["min_docs_per_author"],
        genres=config["genres"],
    script:
        "../../scripts/corpus_tables.py"
