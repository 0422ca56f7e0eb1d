# "Who punctuates like this?": the bundle read by `punctstyle attribute --model DIR`:
# an MLP trained on every corpus book (author labels), the author signatures (class-mean
# f1..f6), the minimum number of marks for attribution, Burrows' Delta on the most frequent
# words and on words with f1..f6 (issue 36; their held-out curves and the rolling default in
# threshold.json), and a manifest.
from punctstyle.plan.targets import word_stream_inputs


rule attribution_model:
    input:
        unpack(
            lambda wildcards: (
                word_stream_inputs(
                    config,
                    selected_book_ids(),
                    PLAN.tokenizer_rules_file(),
                    words_key="word_files",
                )
                if config["attribution"]["words"] > 0
                else {}
            )
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
        language=PLAN.corpus_language(),
        dialogue_dash=config["extraction"]["dialogue_dash"],
        classifiers=PLAN.attribution_classifier_params(),
    script:
        "../../scripts/attribution_model.py"
