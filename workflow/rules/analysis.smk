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
    wildcard_constraints:
        task="author|genre",
        feature="f1|f3|f4|f5",
    conda:
        "../../envs/analysis.yaml"
    threads: 2
    resources:
        mem_mb=8000,
    params:
        consistency=config["consistency"],
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
        expand(out("corpus/{feature}.parquet"), feature=FEATURE_NAMES),
    output:
        results=out("analysis/recognition/{task}/seed{seed}_results.csv"),
        confusion=out("analysis/recognition/{task}/seed{seed}_confusion.parquet"),
        per_class=out("analysis/recognition/{task}/seed{seed}_per_class.csv"),
        models=directory(out("models/{task}/seed{seed}")),
    log:
        log_path("recognition/{task}_seed{seed}"),
    wildcard_constraints:
        task="author|genre",
        seed=r"\d+",
    conda:
        "../../envs/analysis.yaml"
    threads: config["recognition"]["mlp"]["threads"]
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        recognition=config["recognition"],
    script:
        "../../scripts/recognition.py"


rule recognition_tables:
    input:
        expand(
            out("analysis/recognition/{{task}}/seed{seed}_results.csv"),
            seed=config["recognition"]["seeds"],
        ),
    output:
        results=out("analysis/recognition/{task}_results.csv"),
        summary=out("analysis/recognition/{task}_summary.csv"),
        markdown=out("analysis/recognition/{task}_tables.md"),
    log:
        log_path("recognition/{task}_tables"),
    wildcard_constraints:
        task="author|genre",
    conda:
        "../../envs/analysis.yaml"
    script:
        "../../scripts/recognition_tables.py"
