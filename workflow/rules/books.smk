# Per-book jobs. They share the group "books" so that a cluster profile can batch them
# (--group-components books=N) instead of submitting one tiny job per book and step.


rule download_book:
    output:
        text=out("books/{book_id}.txt.gz"),
        provenance=out("books/{book_id}.json"),
    log:
        log_path("books/{book_id}.download"),
    params:
        mirror=config["mirror"],
    group:
        "books"
    resources:
        mirror_connections=1,
        mem_mb=300,
        runtime=10,
    conda:
        "../../envs/corpus.yaml"
    script:
        "../../scripts/download_book.py"


rule extract_book:
    input:
        text=out("books/{book_id}.txt.gz"),
        provenance=out("books/{book_id}.json"),
    output:
        out("sequences/{book_id}.parquet"),
    log:
        log_path("books/{book_id}.extract"),
    group:
        "books"
    resources:
        mem_mb=1000,
        runtime=10,
    conda:
        "../../envs/extract.yaml"
    script:
        "../../scripts/extract_book.py"


rule book_features:
    input:
        out("sequences/{book_id}.parquet"),
    output:
        out("features/{book_id}.parquet"),
    log:
        log_path("books/{book_id}.features"),
    params:
        extraction=config["extraction"],
    group:
        "books"
    resources:
        mem_mb=300,
        runtime=5,
    conda:
        "../../envs/extract.yaml"
    script:
        "../../scripts/book_features.py"
