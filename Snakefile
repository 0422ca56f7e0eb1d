# punctstyle: stylometry without words (Darmon, Bazzi, Howison, Porter).
# Catalog -> selection -> per-book download, extraction, features -> corpus tables ->
# consistency, recognition, temporal analysis -> figures and report.
from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version

from punctstyle.plan.analyses import analysis_rule_files
from punctstyle.plan.rule_support import config_file_error, uncomputed_rows_lines

min_version("9.0")

# a config file that does not parse stops the run in one line naming it
if config_file_error("config/config.yaml"):
    raise WorkflowError(config_file_error("config/config.yaml"))


configfile: "config/config.yaml"


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
# the selection and the books' texts: Gutenberg (catalog, download) or a folder of your own
include: f"workflow/rules/{config['source']}.smk"
include: "workflow/rules/corpus.smk"
include: "workflow/rules/books.smk"


# each analysis' rule files, from its entry in punctstyle.plan.analyses.ANALYSES (a new
# analysis' rule file is included with no edit here)
for rule_file in analysis_rule_files():

    include: rule_file


# trivial aggregation jobs (tables and summaries of small files): run in the main process's
# machine, never submitted to a cluster
localrules:
    all,
    consistency_summary,
    recognition_tables,
    recognition_word_tables,
    skipped_analyses,
    config_used,
    length_curve,
    sequence_table,


rule all:
    input:
        # every per-book file: one deleted makes its book and everything downstream rerun
        lambda wildcards: plan_corpus.per_book_files(config, selected_book_ids()),
        plan_corpus.corpus_table_files(config),
        # the figure rules' outputs: the genre figures follow the corpus tables (two genres or none)
        lambda wildcards: plan_paper.figure_outputs(PLAN, rules, corpus_counts()),
        # every analysis of punctstyle.plan.analyses.ANALYSES: the files the config decides,
        config_targets(PLAN),
        # and those asked for once the corpus tables exist (they follow the corpus' shape)
        lambda wildcards: corpus_targets(PLAN, corpus_counts()),


onsuccess:
    # the end of a run lists the skipped analyses with their cause, one line each
    for line in plan_tasks.skipped_analysis_lines(PLAN):
        print(line)
    # and the configured class sizes that have no row, the corpus having fewer classes
    for line in uncomputed_rows_lines(config):
        print(line)
