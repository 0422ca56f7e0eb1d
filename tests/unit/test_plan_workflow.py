"""punctstyle.plan.workflow and punctstyle.plan.checkpoints: what the rules ask for, planned from the
config and the checkpoints' files without a Snakemake run."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pandas as pd
import pytest

from punctstyle.io import InputError
from punctstyle.plan import corpus as plan_corpus
from punctstyle.plan import paper
from punctstyle.plan import tasks
from punctstyle.plan import rows, targets
from punctstyle.plan.analyses import analysis, analysis_inputs
from punctstyle.plan.checkpoints import CorpusCounts, SelectedBooks
from punctstyle.plan.workflow import TEMPORAL_ANALYSIS, WorkflowPlan
from tests.unit.test_plan_rows import config

THREE_AUTHORS_ONE_GENRE = CorpusCounts({"author": 3, "genre": 1})
THREE_AUTHORS_TWO_GENRES = CorpusCounts({"author": 3, "genre": 2})


def test_corpus_counts_and_selected_books_read_the_checkpoints_files(tmp_path):
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps({"authors_in_corpus": 36, "genres_in_corpus": 4, "n_books": 9}))
    counts = CorpusCounts.read(summary)
    assert counts("author") == 36 and counts("genre") == 4
    summary.write_text(json.dumps({"authors_in_corpus": 36}))
    with pytest.raises(InputError, match="summary.json: the corpus summary has no genres_in_corpus"):
        CorpusCounts.read(summary)
    selection = tmp_path / "selection.parquet"
    pd.DataFrame({"book_id": [7, 3], "title": ["a", "b"]}).to_parquet(selection)
    assert SelectedBooks.read(selection).ids == (7, 3) and SelectedBooks.read(selection).documents == {}
    folder = pd.DataFrame({"book_id": [1], "doc_id": ["d"], "file": ["d.txt"], "path": ["/x/d.txt"]})
    folder.to_parquet(tmp_path / "folder.parquet")
    assert SelectedBooks.read(tmp_path / "folder.parquet").documents == {1: ("d", "d.txt", "/x/d.txt")}


def test_per_book_files_and_corpus_outputs():
    plan = WorkflowPlan(config(outdir="r"))
    files = plan_corpus.per_book_files(plan.config, [5, 6])
    assert files[:3] == ["r/books/5.json", "r/books/6.json", "r/books/5.txt.gz"] and len(files) == 10
    assert plan_corpus.corpus_table_files(plan.config)[-2:] == ["r/corpus/exclusions.csv", "r/corpus/summary.json"]
    assert plan_corpus.tokenizer_rules_file(plan.config).startswith("r/extraction/tokenizer_rules-spacy")
    assert plan_corpus.part_tables(plan.config) == ["r/corpus/f1.parquet", "r/corpus/f3.parquet", "r/corpus/f5.parquet"]
    out, log_path = targets.output_paths(plan.config)
    assert (out("a/b.csv"), log_path("maps/f3")) == ("r/a/b.csv", "r/logs/maps/f3.log")


def test_a_skipped_analysis_follows_the_metadata_columns():
    assert not tasks.analysis_skipped(WorkflowPlan(config(outdir="r")), TEMPORAL_ANALYSIS)
    no_years = WorkflowPlan(config(outdir="r", source="folder"), ("file", "author"))
    assert tasks.analysis_skipped(no_years, TEMPORAL_ANALYSIS)
    assert any(line.startswith(f"skipped {TEMPORAL_ANALYSIS}: ") for line in tasks.skipped_analysis_lines(no_years))


def test_the_genre_analysis_follows_the_corpus_genres():
    plan = WorkflowPlan(config(outdir="r", **{"recognition.genre_recognition": True}))
    assert analysis("paper").planned(plan, THREE_AUTHORS_ONE_GENRE) == [
        "r/analysis/consistency/summary.csv",
        "r/analysis/recognition/author_summary.csv",
        "r/analysis/recognition/author_tables.md",
        "r/analysis/skipped_analyses.csv",
    ]
    assert "r/analysis/recognition/genre_tables.md" in analysis("paper").planned(plan, THREE_AUTHORS_TWO_GENRES)
    wildcards = paper.figure_rule_wildcards(plan, THREE_AUTHORS_ONE_GENRE)
    assert wildcards["figures_recognition"] == {"task": ["author"]}
    assert paper.consistency_summary_inputs(plan, THREE_AUTHORS_TWO_GENRES)[0] == "r/analysis/consistency/author_f1.json"


def test_corpus_counts_of_time_slot_and_gender_are_zero_without_their_keys(tmp_path):
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps({"authors_in_corpus": 5, "genres_in_corpus": 0, "time_slots_in_corpus": 3}))
    counts = CorpusCounts.read(summary)
    assert (counts("author"), counts("genre"), counts("time_slot"), counts("gender")) == (5, 0, 3, 0)
    with pytest.raises(KeyError):
        THREE_AUTHORS_ONE_GENRE("nonsense")


def test_a_tei_plan_has_time_slot_and_gender_targets_under_their_own_names():
    plan = WorkflowPlan(config(outdir="r", source="tei", **{"recognition.class_sizes": [2, "all"],
                                                            "recognition.seeds": [0, 1]}), ("file", "author", "year"))
    counts = CorpusCounts({"author": 3, "genre": 0, "time_slot": 4, "gender": 1})
    assert rows.metadata_tasks(plan.config) == ["time_slot", "gender"]
    assert tasks.consistency_tasks(plan, counts) == ["author", "time_slot"]
    assert analysis("paper").planned(plan, counts) == [
        "r/analysis/consistency/summary.csv",
        "r/analysis/recognition/author_summary.csv",
        "r/analysis/recognition/time_slot_summary.csv",
        "r/analysis/recognition/author_tables.md",
        "r/analysis/recognition/time_slot_tables.md",
        "r/analysis/skipped_analyses.csv",
    ]
    assert paper.consistency_summary_inputs(plan, counts)[-1] == "r/analysis/consistency/time_slot_f7.json"
    # 4 time slots: the 2-class rows and the "all" row (capped rows as for genre), each seed
    assert paper.corpus_row_files(plan.config, "time_slot", "results.csv", counts) == [
        f"r/analysis/recognition/time_slot/{size}_classes/seed{seed}_results.csv"
        for size in ("2", "all") for seed in (0, 1)
    ]
    wildcards = paper.figure_rule_wildcards(plan, counts)
    assert wildcards["figures_kl"] == wildcards["appendix_table"] == {"task": ["author", "time_slot"]}
    assert wildcards["figures_recognition"] == {"task": ["author", "time_slot"]}
    assert paper.appendix_inputs(plan, "time_slot")["per_class"] == [
        f"r/analysis/recognition/time_slot/all_classes/seed{seed}_per_class.csv" for seed in (0, 1)
    ]
    both = CorpusCounts({"author": 3, "genre": 0, "time_slot": 2, "gender": 2})
    assert tasks.recognition_tasks(plan, both) == ["author", "time_slot", "gender"]
    off = WorkflowPlan(config(outdir="r", source="tei", metadata_tasks=[]), ("file", "author", "year"))
    assert tasks.recognition_tasks(off, both) == ["author"]


def test_a_gutenberg_plan_is_unchanged_by_the_metadata_tasks():
    plan = WorkflowPlan(config(outdir="r"))
    counts = CorpusCounts({"author": 3, "genre": 2})  # a Gutenberg summary: no time slot or gender count
    assert rows.metadata_tasks(plan.config) == []
    assert tasks.consistency_tasks(plan, counts) == ["author", "genre"]
    assert analysis("paper").planned(plan, counts) == [
        "r/analysis/consistency/summary.csv",
        "r/analysis/recognition/author_summary.csv",
        "r/analysis/recognition/genre_summary.csv",
        "r/analysis/recognition/author_tables.md",
        "r/analysis/recognition/genre_tables.md",
        "r/analysis/skipped_analyses.csv",
    ]
    assert paper.figure_rule_wildcards(plan, counts)["figures_recognition"] == {"task": ["author", "genre"]}


def test_capped_recognition_rows_are_not_planned():
    plan = WorkflowPlan(config(outdir="r", **{"recognition.class_sizes": [2, 3, 50, "all"], "recognition.seeds": [0]}))
    assert paper.corpus_row_files(plan.config, "author", "results.csv", THREE_AUTHORS_ONE_GENRE) == [
        "r/analysis/recognition/author/2_classes/seed0_results.csv",
        "r/analysis/recognition/author/all_classes/seed0_results.csv",
    ]


def test_length_and_sequence_rows_are_named_by_the_authors_they_hold():
    """Issue 26 item 8: 10 and 50 requested of 3 authors is one row of 3 authors, named 3."""
    cfg = config(outdir="r", **{"length_curve.class_sizes": [2, 10, 50], "recognition.seeds": [0],
                                "beyond.sequence.class_sizes": [2, 10], "recognition.class_sizes": [2, "all"]})
    plan = WorkflowPlan(cfg)
    assert targets.length_row_files(plan.config, "results.csv", THREE_AUTHORS_ONE_GENRE("author")) == [
        "r/analysis/length/author/2_classes/seed0_results.csv",
        "r/analysis/length/author/3_classes/seed0_results.csv",
    ]
    assert targets.sequence_row_files(plan.config, "", THREE_AUTHORS_ONE_GENRE("author")) == [
        "r/analysis/beyond/sequence/author_2_classes_seed0.csv",
        "r/analysis/beyond/sequence/author_3_classes_seed0.csv",
    ]
    # the sequence row of every author compares with the "all" row of Tables 2-3
    assert targets.sequence_recognition_files(plan.config, THREE_AUTHORS_ONE_GENRE("author")) == [
        "r/analysis/recognition/author/2_classes/seed0_results.csv",
        "r/analysis/recognition/author/all_classes/seed0_results.csv",
    ]
    assert rows.held_class_sizes(["10", "2", "3"], 3) == ["3", "2"]
    assert rows.held_class_sizes(["10", "2"], 1) == ["10", "2"]  # nothing can run: the job says why
    assert targets.length_row_files(cfg, "results.csv")[-1].endswith("50_classes/seed0_results.csv")


def test_figure_outputs_are_the_figure_rules_outputs():
    plan = WorkflowPlan(config(outdir="r", **{"consistency.features": ["f1", "f3"], "consistency.tasks": ["author"]}))
    names = paper.figure_rule_wildcards(plan, THREE_AUTHORS_ONE_GENRE)
    rules = SimpleNamespace(**{name: SimpleNamespace(output=[]) for name in names})
    # one figures_kl job per task (every feature in it), one heat-map job for every feature
    rules.figures_kl = SimpleNamespace(output=["r/figures/kl/consistency_{task}_f1.png", "r/figures/kl/consistency_{task}_f3.png"])
    rules.figures_kl_heatmaps = SimpleNamespace(output=["r/figures/kl/heatmap_f1_top2.png"])
    rules.figures_corpus = SimpleNamespace(output=["r/figures/corpus/documents_per_author.png"])
    assert paper.figure_outputs(plan, rules, THREE_AUTHORS_ONE_GENRE) == [
        "r/figures/corpus/documents_per_author.png",
        "r/figures/kl/consistency_author_f1.png",
        "r/figures/kl/consistency_author_f3.png",
        "r/figures/kl/heatmap_f1_top2.png",
    ]
    assert names["figures_kl"] == {"task": ["author"]} and names["figures_kl_heatmaps"] == {}
    # the heat maps are of authors: no job without the author task
    genre_only = WorkflowPlan(config(outdir="r", **{"consistency.tasks": ["genre"]}))
    assert "figures_kl_heatmaps" not in paper.figure_rule_wildcards(genre_only, THREE_AUTHORS_TWO_GENRES)


def test_one_consistency_job_per_task_lists_every_feature():
    plan = WorkflowPlan(config(outdir="r", **{"consistency.features": ["f1", "f3"]}))
    assert paper.consistency_inputs(plan.config) == ["r/corpus/f1.parquet", "r/corpus/f3.parquet"]
    assert paper.consistency_files(plan.config, "_kl.npz") == [
        "r/analysis/consistency/{task}_f1_kl.npz",
        "r/analysis/consistency/{task}_f3_kl.npz",
    ]
    assert paper.consistency_files(plan.config, ".json", task="author") == [
        "r/analysis/consistency/author_f1.json",
        "r/analysis/consistency/author_f3.json",
    ]


def test_folder_corpus_problems_stop_in_one_line(tmp_path):
    with pytest.raises(InputError, match="config folder.path: needed with source: folder"):
        WorkflowPlan.from_config(config(source="folder"))
    with pytest.raises(InputError, match="is not a folder"):
        WorkflowPlan.from_config(config(source="folder", **{"folder.path": str(tmp_path / "none")}))
    (tmp_path / "metadata.csv").write_text("file,author,year\na.txt,Ann,1850\n")
    plan = WorkflowPlan.from_config(config(source="folder", outdir="r", **{"folder.path": str(tmp_path)}))
    assert plan.folder_columns == ("file", "author", "year")
    assert [name for name, _ in plan.skipped_analyses()] == ["genre analysis"]
    assert plan.publication_years_csv() == "r/corpus/publication_years.csv"
    assert analysis_inputs(plan, "temporal", list)["years"] == "r/corpus/publication_years.csv"
    with pytest.raises(InputError, match="temporal.publication_years_csv: .* is not a file"):
        WorkflowPlan.from_config(config(**{"temporal.publication_years_csv": str(tmp_path / "no.csv")}))


def test_word_inputs_only_with_word_methods():
    plan = WorkflowPlan(config(outdir="r", **{"length_curve.methods": {"kl": ["f3"]}}))
    assert analysis_inputs(plan, "length_curve", lambda: [1]) == {}
    plan = WorkflowPlan(config(outdir="r", **{"length_curve.methods": {"delta": ["words20"]}}))
    assert analysis_inputs(plan, "length_curve", lambda: [1]) == {
        "texts": ["r/books/1.txt.gz"],
        "words": ["r/words/1.parquet"],
        "rules": plan_corpus.tokenizer_rules_file(plan.config),
    }


def test_beyond_and_length_outputs_follow_their_switches():
    counts3 = THREE_AUTHORS_ONE_GENRE
    off = config(**{"beyond.importance.enabled": False, "beyond.parts.enabled": False,
                    "beyond.sequence.enabled": False, "length_curve.enabled": False})
    names = ("importance", "parts", "sequence", "length_curve")
    assert [path for name in names for path in analysis(name).planned(WorkflowPlan(off), counts3)] == []
    on = WorkflowPlan(config(outdir="r", **{"beyond.parts.enabled": True, "length_curve.enabled": True}))
    assert "r/figures/beyond/parts_kl.png" in analysis("parts").planned(on, counts3)
    assert "r/figures/beyond/length_curve.pdf" in analysis("length_curve").planned(on)
