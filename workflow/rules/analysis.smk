# Sections 3-4: consistency (KL divergence) and recognition (KL nearest class, MLP).


rule consistency:
    input:
        out("corpus/{feature}.parquet"),
    output:
        table=out("analysis/consistency/{task}_{feature}.csv"),
        summary=out("analysis/consistency/{task}_{feature}.json"),
        values=out("analysis/consistency/{task}_{feature}_kl.npz"),
        heatmaps=out("analysis/consistency/{task}_{feature}_top.npz"),
    log:
        log_path("consistency/{task}_{feature}"),
    benchmark:
        out("benchmarks/consistency/{task}_{feature}.tsv")
    wildcard_constraints:
        feature=wildcard_pattern(DISTRIBUTION_FEATURES),
    conda:
        "../../envs/analysis.yaml"
    threads: 2
    resources:
        mem_mb=8000,
    params:
        baseline_pairs=config["consistency"]["baseline_pairs"],
        seed=config["consistency"]["seed"],
        top_k=config["consistency"]["top_k"],
    script:
        "../../scripts/consistency.py"


rule consistency_summary:
    input:
        expand(
            out("analysis/consistency/{task}_{feature}.json"),
            task=consistency_tasks(),
            feature=config["consistency"]["features"],
        ),
    output:
        out("analysis/consistency/summary.csv"),
    log:
        log_path("consistency/summary"),
    conda:
        "../../envs/analysis.yaml"
    script:
        "../../scripts/consistency_summary.py"


rule recognition:
    input:
        expand(out("corpus/{feature}.parquet"), feature=FEATURES),
    output:
        results=out(
            "analysis/recognition/{task}/{classes}_classes/seed{seed}_results.csv"
        ),
        confusion=out(
            "analysis/recognition/{task}/{classes}_classes/seed{seed}_confusion.parquet"
        ),
        per_class=out(
            "analysis/recognition/{task}/{classes}_classes/seed{seed}_per_class.csv"
        ),
        models=directory(out("models/{task}/{classes}_classes/seed{seed}")),
    log:
        log_path("recognition/{task}_{classes}_classes_seed{seed}"),
    benchmark:
        out("benchmarks/recognition/{task}_{classes}_classes_seed{seed}.tsv")
    wildcard_constraints:
        classes=r"\d+|all",
        seed=r"\d+",
    conda:
        "../../envs/analysis.yaml"
    threads: config["recognition"]["mlp"]["threads"]
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        methods=recognition_methods(),
        test_fraction=config["recognition"]["test_fraction"],
        mlp=recognition_mlp_params(),
        # a size capped to every class is the "all" row: computed there, once
        all_configured="all" in recognition_class_sizes(),
    script:
        "../../scripts/recognition.py"


rule recognition_tables:
    input:
        lambda wildcards: recognition_row_files(wildcards.task, "results.csv"),
    output:
        results=out("analysis/recognition/{task}_results.csv"),
        summary=out("analysis/recognition/{task}_summary.csv"),
        markdown=out("analysis/recognition/{task}_tables.md"),
    log:
        log_path("recognition/{task}_tables"),
    conda:
        "../../envs/analysis.yaml"
    script:
        "../../scripts/recognition_tables.py"
