# Beyond the paper (its first open question, section 5): author recognition accuracy against
# the length of the punctuation sequence, on the splits of Tables 2-3. Targets and inputs
# (its entry length_curve): punctstyle.plan.analyses; switch and settings in config length_curve.


rule length_curve_row:
    input:
        # texts, words files and tokenizer rules, when a method runs on words<k>
        unpack(
            lambda wildcards: analysis_inputs(PLAN, "length_curve", selected_book_ids)
        ),
        table=out("corpus/f1.parquet"),
        sequences=attribution_sequences,
        # the recognition grid's fits of the row (whole-book training mode)
        fitted=lambda wildcards: fitted_inputs(
            config, "author", wildcards.classes, wildcards.seed
        ),
    output:
        results=out("analysis/length/author/{classes}_classes/seed{seed}_results.csv"),
        excerpts=out("analysis/length/author/{classes}_classes/seed{seed}_excerpts.csv"),
    log:
        log_path("length/author_{classes}_classes_seed{seed}"),
    benchmark:
        out("benchmarks/length/author_{classes}_classes_seed{seed}.tsv")
    wildcard_constraints:
        classes=r"\d+",
        seed=r"\d+",
    conda:
        "../../envs/analysis.yaml"
    threads: config["recognition"]["mlp"]["threads"]
    resources:
        mem_mb=4000,
        runtime=240,
    params:
        # classifiers: every classifier's hyper-parameters (recognition.<name>)
        **analysis_params(PLAN, "length_curve"),
        # the splits and networks of Tables 2-3; not recognition.mlp.threads/device
        lengths=config["length_curve"]["lengths"],
        methods=plan_rows.length_methods(config),
        training=config["length_curve"]["training"],
        short_documents=config["length_curve"]["short_documents"],
        test_fraction=config["recognition"]["test_fraction"],
        # Burrows' Delta's variant (its options come from the config: a change reruns the rows)
        delta=config["recognition"]["delta"],
    script:
        "../../scripts/length_curve_row.py"


rule length_curve:
    input:
        results=lambda wildcards: plan_targets.length_row_files(
            config, "results.csv", corpus_class_count("author")
        ),
        excerpts=lambda wildcards: plan_targets.length_row_files(
            config, "excerpts.csv", corpus_class_count("author")
        ),
    output:
        **plan_targets.length_analysis_files(config),
    log:
        log_path("length/author_summary"),
    conda:
        "../../envs/analysis.yaml"
    script:
        "../../scripts/length_curve.py"


rule figures_length_curve:
    input:
        summary=plan_targets.length_analysis_files(config)["summary"],
    output:
        figure=FLAGS.beyond(
            "beyond/length_curve", "length_curve", "Accuracy against text length"
        ),
        figure_pdf=pdf("beyond/length_curve"),
        table=report(
            out("tables/beyond_length_curve.html"),
            caption=caption("length_curve_table"),
            category=Section.BEYOND,
            subcategory="Accuracy against text length",
        ),
    log:
        log_path("figures/beyond_length_curve"),
    conda:
        "../../envs/figures.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    script:
        "../../scripts/figures_length.py"
