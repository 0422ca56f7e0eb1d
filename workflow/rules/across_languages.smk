# Across languages (issue 34): several TEI collections (config across_languages.collections)
# read in one pass and compared: the gaps' discrete Weibull law per language, the language and
# the time slot from punctuation, KL within and across languages, f1 per time slot. Off by
# default; planning in punctstyle.plan.across_languages, logic in
# punctstyle.jobs.across_languages.
from punctstyle.plan import across_languages as plan_languages

# enabled without a collection: one line naming the key (the schema cannot say it)
if plan_languages.across_languages_config_error(config):
    raise WorkflowError(plan_languages.across_languages_config_error(config))


rule across_languages:
    input:
        # each collection's TEI files and metadata table
        **analysis_inputs(PLAN, "across_languages", selected_book_ids),
    output:
        **plan_languages.across_languages_files(config),
    log:
        log_path("beyond/across_languages"),
    benchmark:
        out("benchmarks/beyond/across_languages.tsv")
    conda:
        "../../envs/analysis.yaml"
    threads: 1
    resources:
        mem_mb=4000,
        runtime=120,
    params:
        **analysis_params(PLAN, "across_languages"),
    script:
        "../../scripts/across_languages.py"
