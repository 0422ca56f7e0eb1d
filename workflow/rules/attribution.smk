# "Who punctuates like this?": the bundle read by `punctstyle attribute --model DIR`:
# an MLP trained on every corpus book (author labels), the author signatures (class-mean
# f1..f6), the minimum number of marks for attribution, and a manifest.


rule attribution_model:
    input:
        tables=expand(out("corpus/{feature}.parquet"), feature=FEATURE_NAMES),
        sequences=attribution_sequences,
    output:
        model=out("models/attribution/mlp.pt"),
        signatures=out("models/attribution/signatures.parquet"),
        threshold=out("models/attribution/threshold.json"),
        manifest=out("models/attribution/manifest.json"),
    log:
        log_path("attribution_model"),
    conda:
        "../../envs/analysis.yaml"
    threads: config["recognition"]["mlp"]["threads"]
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        attribution=config["attribution"],
        mlp=config["recognition"]["mlp"],
        config_used={
            "attribution": config["attribution"],
            "recognition": {"mlp": config["recognition"]["mlp"]},
            "selection": config["selection"],
            "extraction": config["extraction"],
        },
    script:
        "../../scripts/attribution_model.py"
