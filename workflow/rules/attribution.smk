# "Who punctuates like this?": the bundle read by `punctstyle attribute --model DIR`:
# an MLP trained on every corpus book (author labels), the author signatures (class-mean
# f1..f6), the minimum number of marks for attribution, and a manifest.


rule attribution_model:
    input:
        tables=expand(out("corpus/{feature}.parquet"), feature=FEATURES),
        sequences=attribution_sequences,
    output:
        model=out("models/attribution/mlp.pt"),
        signatures=out("models/attribution/signatures.parquet"),
        threshold=out("models/attribution/threshold.json"),
        manifest=out("models/attribution/manifest.json"),
    log:
        log_path("attribution_model"),
    benchmark:
        out("benchmarks/attribution_model.tsv")
    conda:
        "../../envs/analysis.yaml"
    threads: config["recognition"]["mlp"]["threads"]
    resources:
        mem_mb=8000,
        runtime=240,
    params:
        # only what decides the bundle: not recognition.mlp.threads/device (read at run time)
        feature_set=config["attribution"]["feature_set"],
        kl_features=config["attribution"]["kl_features"],
        threshold_features=config["attribution"]["threshold_features"],
        mark_grid=config["attribution"]["mark_grid"],
        fraction=config["attribution"]["fraction"],
        test_fraction=config["attribution"]["test_fraction"],
        seed=config["attribution"]["seed"],
        mlp=without_execution_keys(config)["recognition"]["mlp"],
    script:
        "../../scripts/attribution_model.py"
