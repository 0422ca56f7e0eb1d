# Per-book jobs. They share the group "books" so that a cluster profile can batch them
# (--group-components books=N) instead of submitting one tiny job per book and step.
# disk_mb is explicit: Snakemake's default (from the input sizes) is evaluated per job and
# made a full-catalogue `snakemake -n` (45k jobs) about 30% slower (benchmarks/bench_planning.py).

from punctstyle.plan.rule_support import extraction_mem_mb


# spaCy's tokenizer rules, exported once per spaCy version (the version is in the file name,
# so an upgrade re-exports them): extract_book replays them without importing spaCy, which
# cost about 1 CPU s a book (benchmarks/bench_workflow.py).
rule tokenizer_rules:
    output:
        PLAN.tokenizer_rules_file(),
    log:
        log_path("tokenizer_rules"),
    conda:
        "../../envs/extract.yaml"
    script:
        "../../scripts/tokenizer_rules.py"


rule extract_book:
    input:
        text=out("books/{book_id}.txt.gz"),
        provenance=out("books/{book_id}.json"),
        rules=rules.tokenizer_rules.output[0],
    output:
        sequence=out("sequences/{book_id}.parquet"),
        # word counts for the word baselines (punctstyle.book.sequence_file.write_words)
        words=out("words/{book_id}.parquet"),
    log:
        log_path("books/{book_id}.extract"),
    group:
        "books"
    conda:
        "../../envs/extract.yaml"
    resources:
        # from the text's size (benchmarks/bench_extract_memory.py), so the budget is true
        mem_mb=lambda wildcards, input: extraction_mem_mb(
            input.text, config["mirror"]["max_text_mb"]
        ),
        disk_mb=2 * config["mirror"]["max_text_mb"],
        runtime=10,
    script:
        "../../scripts/extract_book.py"


rule book_features:
    input:
        out("sequences/{book_id}.parquet"),
    output:
        out("features/{book_id}.parquet"),
    log:
        log_path("books/{book_id}.features"),
    group:
        "books"
    conda:
        "../../envs/extract.yaml"
    resources:
        mem_mb=300,
        disk_mb=100,
        runtime=5,
    params:
        min_marks=config["extraction"]["min_marks"],
        require_quotation_marks=config["extraction"]["require_quotation_marks"],
        excerpt_marks=config["extraction"]["excerpt_marks"],
    script:
        "../../scripts/book_features.py"
