# Per-book jobs (two a book: its text, then rule extract_book). They share the group "books"
# so that a cluster profile can batch them
# (--group-components books=N) instead of submitting one tiny job per book and step.
# disk_mb is explicit: Snakemake's default (from the input sizes) is evaluated per job and
# made a full-catalogue `snakemake -n` (45k jobs) about 30% slower (benchmarks/bench_planning.py).

from punctstyle.plan.rule_support import extraction_mem_mb


# spaCy's tokenizer rules, exported once per spaCy version (the version is in the file name,
# so an upgrade re-exports them): extract_book replays them without importing spaCy, which
# cost about 1 CPU s a book (benchmarks/bench_workflow.py).
rule tokenizer_rules:
    output:
        plan_corpus.tokenizer_rules_file(config),
    log:
        log_path("tokenizer_rules"),
    conda:
        "../../envs/extract.yaml"
    script:
        "../../scripts/tokenizer_rules.py"


# A book's sequence, words and features files in one job, one Python process: the text is
# read, cleaned and extracted once, and the features are computed from the sequence in memory
# (punctstyle.book.jobs.extract). A `shell:` command, not a `script:`: importing Snakemake's
# script support alone cost each job about 0.1 CPU s (docs/performance.md, "A book's CPU").
# Its params are the inclusion settings: changing one reruns this job for every book (the
# extraction again with the features: 0.39 CPU s a book on the shared mirror, against 0.25 for
# the features job alone before), never the download (docs/performance.md, "A book's CPU").
rule extract_book:
    input:
        text=out("books/{book_id}.txt.gz"),
        provenance=out("books/{book_id}.json"),
        rules=rules.tokenizer_rules.output[0],
    output:
        sequence=out("sequences/{book_id}.parquet"),
        # word counts and stream for the word baselines (punctstyle.book.sequence_file.write_words)
        words=out("words/{book_id}.parquet"),
        features=out("features/{book_id}.parquet"),
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
        runtime=15,
    params:
        min_marks=config["extraction"]["min_marks"],
        require_quotation_marks=config["extraction"]["require_quotation_marks"],
        excerpt_marks=config["extraction"]["excerpt_marks"],
    shell:
        '"$PUNCTSTYLE_JOB_PYTHON" -m punctstyle.book.jobs.extract {wildcards.book_id} --text {input.text:q}'
        " --provenance {input.provenance:q} --rules {input.rules:q} --sequence {output.sequence:q}"
        " --words {output.words:q} --features {output.features:q} --min-marks {params.min_marks}"
        " --quotation {params.require_quotation_marks} --excerpt-marks {params.excerpt_marks}"
        " --log {log:q}"
