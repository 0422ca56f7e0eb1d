# Beyond the paper: a classifier on raw punctuation sequences (a 1-D convolutional network over
# windows of marks and word gaps), on the author samples, splits and seeds of Tables 2-3, against
# the feature MLP of the same rows. Targets and inputs: punctstyle.plan.analyses; switch in
# config beyond.sequence.enabled.


rule sequence_row:
    input:
        table=out("corpus/f1.parquet"),
        sequences=attribution_sequences,
    output:
        row=out("analysis/beyond/sequence/author_{classes}_classes_seed{seed}.csv"),
        lengths=out(
            "analysis/beyond/sequence/author_{classes}_classes_seed{seed}_lengths.csv"
        ),
    log:
        log_path("beyond/sequence_author_{classes}_classes_seed{seed}"),
    benchmark:
        out("benchmarks/beyond/sequence_author_{classes}_classes_seed{seed}.tsv")
    wildcard_constraints:
        classes=r"\d+",
        seed=r"\d+",
    conda:
        "../../envs/analysis.yaml"
    threads: config["beyond"]["sequence"]["threads"]
    resources:
        mem_mb=4000,
        runtime=120,
    params:
        # what decides the results; not beyond.sequence.threads/device
        **analysis_params(PLAN, "sequence"),
        test_fraction=config["recognition"]["test_fraction"],
        # the length curve's grid, so that both score the same test excerpts
        lengths=plan_rows.sequence_excerpt_lengths(config),
        short_documents=config["length_curve"]["short_documents"],
    script:
        "../../scripts/sequence_row.py"


rule sequence_table:
    input:
        rows=lambda wildcards: plan_targets.sequence_row_files(
            config, "", corpus_class_count("author")
        ),
        lengths=lambda wildcards: plan_targets.sequence_row_files(
            config, "_lengths", corpus_class_count("author")
        ),
        recognition=lambda wildcards: plan_targets.sequence_recognition_files(
            config, corpus_class_count("author")
        ),
    output:
        csv=out("analysis/beyond/sequence_model.csv"),
        markdown=out("analysis/beyond/sequence_model.md"),
        lengths=out("analysis/beyond/sequence_model_lengths.csv"),
        table=report(
            out("tables/beyond_sequence_model.html"),
            caption=caption("sequence_model"),
            category=Section.BEYOND,
            subcategory="A classifier on raw sequences",
        ),
    log:
        log_path("beyond/sequence_table"),
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    script:
        "../../scripts/sequence_table.py"
