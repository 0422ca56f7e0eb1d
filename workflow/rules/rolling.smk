# Rolling attribution (issue 23) checked on synthetic collaborations of held-out books
# (config rolling.*); planning in punctstyle.plan.maps, logic in punctstyle.attribution.rolling
# and punctstyle.attribution.collaborations. Its env is figures.yaml: it draws its figure, and
# KL and Delta need no torch.
from punctstyle.plan.rule_support import PAPER_FEATURES
from punctstyle.plan import maps as plan_maps


rule rolling_collaborations:
    input:
        unpack(lambda wildcards: analysis_inputs(PLAN, "rolling", selected_book_ids)),
        tables=expand(out("corpus/{feature}.parquet"), feature=PAPER_FEATURES),
        sequences=attribution_sequences,
    output:
        records=out("analysis/rolling/collaborations.csv"),
        summary=out("analysis/rolling/summary.csv"),
        figure=report(
            png("rolling/collaborations"),
            caption=caption("rolling_collaborations"),
            category=plan_maps.SECTION_ROLLING,
        ),
        figure_pdf=pdf("rolling/collaborations"),
    log:
        log_path("rolling/collaborations"),
    benchmark:
        out("benchmarks/rolling/collaborations.tsv")
    conda:
        "../../envs/figures.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=120,
    params:
        **analysis_params(PLAN, "rolling"),
    script:
        "../../scripts/rolling_collaborations.py"
