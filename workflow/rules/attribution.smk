# "Who punctuates like this?": the bundle read by `punctstyle attribute --model DIR`:
# an MLP trained on every corpus book (author labels), the author signatures (class-mean
# f1..f6), the minimum number of marks for attribution, and a manifest.

ATTRIBUTION_FILES = ["mlp.pt", "signatures.parquet", "threshold.json", "manifest.json"]


def attribution_config():
    """The `attribution` config block ({} until config and schema define it: package defaults)."""
    return config.get("attribution", {})


def attribution_outputs():
    return [out(f"models/attribution/{name}") for name in ATTRIBUTION_FILES]


def attribution_sequences(wildcards):
    """Sequences of every selected book; the script keeps those of the corpus books."""
    return expand(out("sequences/{book_id}.parquet"), book_id=selected_book_ids(wildcards))


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
    params:
        attribution=attribution_config(),
        mlp=config["recognition"]["mlp"],
        feature_sets=config["recognition"]["mlp_feature_sets"],
        config_used={
            "attribution": attribution_config(),
            "recognition": {
                "mlp": config["recognition"]["mlp"],
                "mlp_feature_sets": config["recognition"]["mlp_feature_sets"],
            },
            "selection": config["selection"],
            "extraction": config["extraction"],
        },
    threads: config["recognition"]["mlp"]["threads"]
    resources:
        mem_mb=8000,
        runtime=240,
    conda:
        "../../envs/analysis.yaml"
    script:
        "../../scripts/attribution_model.py"
