# The f3 importance (beyond the paper, its open questions, section 5): which f3 transitions
# carry the author signal. Targets (entry importance): punctstyle.plan.analyses; switch in
# config beyond.importance.enabled (the config key and the output folder analysis/beyond/ keep
# their names for existing configs and results folders).


rule f3_importance_row:
    input:
        out("corpus/f3.parquet"),
        # the recognition grid's f3 MLP of the row
        fitted=lambda wildcards: fitted_inputs(
            config, "author", wildcards.classes, wildcards.seed
        ),
    output:
        out("analysis/beyond/f3_importance/{classes}_classes_seed{seed}.json"),
    log:
        log_path("beyond/f3_importance_{classes}_classes_seed{seed}"),
    benchmark:
        out("benchmarks/beyond/f3_importance_{classes}_classes_seed{seed}.tsv")
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
        **analysis_params(PLAN, "importance"),
        # the splits and networks of Tables 2-3; not recognition.mlp.threads/device
        repeats=config["beyond"]["importance"]["repeats"],
        top_k=config["beyond"]["importance"]["top_k"],
        holdout_fraction=config["beyond"]["importance"]["holdout_fraction"],
        test_fraction=config["recognition"]["test_fraction"],
    script:
        "../../scripts/importance_row.py"


rule f3_importance:
    input:
        plan_targets.importance_row_files(config),
    output:
        **plan_targets.importance_analysis_files(config),
    log:
        log_path("beyond/f3_importance"),
    conda:
        "../../envs/analysis.yaml"
    script:
        "../../scripts/importance.py"


rule figures_f3_importance:
    input:
        **plan_targets.importance_analysis_files(config),
    output:
        heatmap=FLAGS.beyond(
            "beyond/f3_importance", "f3_importance", "Which f3 transitions matter"
        ),
        heatmap_pdf=pdf("beyond/f3_importance"),
        top_k=FLAGS.beyond("beyond/f3_top_k", "f3_top_k", "Which f3 transitions matter"),
        top_k_pdf=pdf("beyond/f3_top_k"),
        table=report(
            out("tables/beyond_f3_importance.html"),
            caption=caption("f3_importance_table"),
            category=Section.BEYOND,
            subcategory="Which f3 transitions matter",
        ),
    log:
        log_path("figures/beyond_f3_importance"),
    benchmark:
        out("benchmarks/beyond/figures_f3_importance.tsv")
    conda:
        "../../envs/figures.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    script:
        "../../scripts/figures_importance.py"
