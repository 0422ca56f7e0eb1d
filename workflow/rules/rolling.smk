# Rolling attribution (issue 23) checked on synthetic collaborations of held-out books
# (config rolling.*); functions in maps_common.smk, logic in punctstyle.attribution.rolling
# and punctstyle.experiments.collaborations.


rule rolling_collaborations:
    input:
        unpack(rolling_word_inputs),
        tables=expand(out("corpus/{feature}.parquet"), feature=PAPER_FEATURES),
        sequences=attribution_sequences,
    output:
        records=out("analysis/rolling/collaborations.csv"),
        summary=out("analysis/rolling/summary.csv"),
        figure=flag_for_report(
            png("rolling/collaborations"),
            caption=caption("rolling_collaborations"),
            category=SECTION_ROLLING,
        ),
        figure_pdf=pdf("rolling/collaborations"),
    log:
        log_path("rolling/collaborations"),
    benchmark:
        out("benchmarks/rolling/collaborations.tsv")
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=120,
    params:
        settings=config["rolling"],
    script:
        "../../scripts/rolling_collaborations.py"
