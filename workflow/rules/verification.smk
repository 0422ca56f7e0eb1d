# "Is this text by this author?": General Imposters verification (issue 23), calibrated on
# held-out corpus texts. The band and the reference vectors of `punctstyle verify` go beside
# the attribution bundle (models/attribution/verification*.{json,parquet}); the PAN measures
# per family and length into analysis/verification/ and the report.
# Planning (settings, inputs, targets) in punctstyle.plan.verification.
from punctstyle.plan.rule_support import verification_config_error
from punctstyle.plan import verification as plan_verification

# bundle_family must be one of families: one line naming the keys (the schema cannot say it)
if plan_verification.verification_enabled(config) and verification_config_error(
    config["verification"]
):
    raise WorkflowError(verification_config_error(config["verification"]))


rule verification:
    input:
        unpack(
            lambda wildcards: analysis_inputs(PLAN, "verification", selected_book_ids)
        ),
        tables=expand(out("corpus/{feature}.parquet"), feature=FEATURES),
        sequences=attribution_sequences,
    output:
        record=out("models/attribution/verification.json"),
        reference=out("models/attribution/verification_reference.parquet"),
        results=out("analysis/verification/results.csv"),
        summary=out("analysis/verification/summary.csv"),
    log:
        log_path("verification"),
    benchmark:
        out("benchmarks/verification.tsv")
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=120,
    params:
        **analysis_params(PLAN, "verification"),
    script:
        "../../scripts/verification.py"


rule figures_verification:
    input:
        summary=out("analysis/verification/summary.csv"),
    output:
        figure=FLAGS.beyond(
            "beyond/verification", "verification", "Is this text by this author"
        ),
        figure_pdf=pdf("beyond/verification"),
        table=report(
            out("tables/beyond_verification.html"),
            caption=caption("verification_table"),
            category=Section.BEYOND,
            subcategory="Is this text by this author",
        ),
    log:
        log_path("figures/beyond_verification"),
    conda:
        "../../envs/figures.yaml"
    threads: 1
    resources:
        mem_mb=1000,
    script:
        "../../scripts/figures_verification.py"
