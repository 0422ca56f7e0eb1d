# "Who punctuates like this?": the bundle read by `punctstyle attribute --model DIR`:
# an MLP trained on every corpus book (author labels), the author signatures (class-mean
# f1..f6), the minimum number of marks for attribution, Burrows' Delta on the most frequent
# words and on words with f1..f6 (issue 36; their held-out curves and the rolling default in
# threshold.json), and a manifest.
# Planning (targets, params, the word streams' inputs): punctstyle.plan.analyses "attribution".


rule attribution_model:
    input:
        # the books' word streams when the bundle holds word models (attribution.words > 0)
        unpack(
            lambda wildcards: analysis_inputs(PLAN, "attribution", selected_book_ids)
        ),
        tables=expand(out("corpus/{feature}.parquet"), feature=FEATURES),
        sequences=attribution_sequences,
    output:
        model=out("models/attribution/mlp.pt"),
        signatures=out("models/attribution/signatures.parquet"),
        threshold=out("models/attribution/threshold.json"),
        words=out("models/attribution/words.npz"),
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
        **analysis_params(PLAN, "attribution"),
        # only what decides the bundle: not recognition.mlp.threads/device (read at run time)
        feature_set=config["attribution"]["feature_set"],
        kl_features=config["attribution"]["kl_features"],
        threshold_features=config["attribution"]["threshold_features"],
        mark_grid=config["attribution"]["mark_grid"],
        fraction=config["attribution"]["fraction"],
        test_fraction=config["attribution"]["test_fraction"],
        seed=config["attribution"]["seed"],
        words=config["attribution"]["words"],
        collaborations=config["attribution"]["collaborations"],
        part_marks=config["attribution"]["part_marks"],
        # the corpus's extraction, recorded in the manifest (attribute/verify/rolling extract alike)
        language=plan_sources.corpus_language(config),
        dialogue_dash=config["extraction"]["dialogue_dash"],
    script:
        "../../scripts/attribution_model.py"
