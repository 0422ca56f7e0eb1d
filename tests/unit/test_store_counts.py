"""The counts benchmarks/store_counts.py adds to stored evidence (issue 35: the whole numbers of the
record traced), each derived from a stored table, the run, the config or the package."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from punctstyle.settings import schema_defaults
from tests.conftest import load_benchmark as load

EVIDENCE = Path(__file__).resolve().parents[2] / "docs" / "evidence"


@pytest.fixture(scope="module")
def counts():
    return load("store_counts")


def as_dict(frame: pd.DataFrame) -> dict[str, float]:
    return dict(zip(frame["quantity"], frame["value"], strict=True))


def test_class_counts_count_excerpts_and_their_novels(counts, tmp_path):
    (tmp_path / "corpus").mkdir()
    pd.DataFrame({"book_id": [1, 2, 3, 4, 5], "source_id": [10, 10, 11, 12, 12],
                  "author": ["a", "a", "a", "b", "b"], "time_slot": ["T1", "T1", "T2", "T2", "T2"],
                  "gender": ["F", "F", "F", "M", None]}).to_parquet(tmp_path / "corpus" / "f1.parquet")
    got = as_dict(counts.class_counts(tmp_path))
    assert (got["documents"], got["texts"], got["authors"]) == (5, 3, 2)
    assert (got["documents time_slot=T1"], got["texts time_slot=T1"]) == (2, 1)
    assert (got["documents time_slot=T2"], got["texts time_slot=T2"]) == (3, 2)
    assert (got["documents gender=F"], got["texts gender=F"], got["documents gender=M"]) == (3, 2, 1)


def test_class_counts_of_whole_texts_count_book_ids(counts, tmp_path):
    (tmp_path / "corpus").mkdir()
    pd.DataFrame({"book_id": [1, 2, 3], "author": ["a", "b", "b"], "time_slot": ["T1", "T4", "T4"],
                  "gender": ["M", "F", "F"]}).to_parquet(tmp_path / "corpus" / "f1.parquet")
    got = as_dict(counts.class_counts(tmp_path))
    assert (got["texts"], got["texts time_slot=T4"], got["texts gender=F"]) == (3, 2, 2)


def test_metadata_counts_read_the_table_and_the_files(counts, tmp_path):
    collection = tmp_path / "ELTeC-xxx"
    (collection / "level1").mkdir(parents=True)
    (collection / "level1" / "XXX1.xml").write_text("<TEI/>")
    pd.DataFrame({"reference-year": ["1850", "1901", "NA"], "time-slot": ["T1", "T4", "T4"],
                  "author-gender": ["F", "M", "M"]}).to_csv(collection / "ELTeC-xxx_metadata.tsv", sep="\t", index=False)
    got = as_dict(counts.metadata_counts(collection))
    assert (got["ELTeC-xxx rows"], got["ELTeC-xxx files"]) == (3, 1)
    assert (got["ELTeC-xxx first reference year"], got["ELTeC-xxx last reference year"]) == (1850, 1901)
    assert (got["ELTeC-xxx rows time-slot=T4"], got["ELTeC-xxx rows author-gender=F"]) == (2, 1)


def test_fused_adam_counts(counts):
    networks = pd.DataFrame({"n_classes": [10, 10, 50], "seed": [0, 1, 0], "feature_set": ["f1", "f3", "f1"],
                             "accuracy_difference": [0.0, 0.0, 0.01]})
    got = as_dict(counts.fused_adam_counts(networks))
    assert (got["pairs"], got["feature sets"], got["seeds"], got["pairs with another accuracy"]) == (3, 2, 2, 1)
    assert (got["pairs at 10 classes"], got["pairs at 50 classes"]) == (2, 1)


def test_command_options_keep_each_number_of_each_option(counts):
    run = {"command": "python b.py RESULTS --sizes 10 50 --task genre --rate 0.5 --seed 0 --evidence OUT"}
    got = counts.command_options(run)
    assert list(zip(got["quantity"], got["value"], strict=True)) == [
        ("--sizes", 10), ("--sizes", 50), ("--rate", 0.5), ("--seed", 0)]
    both = counts.command_options({"commands": [{"command": "x --n 3"}, {"command": "y --n 4"}]})
    assert both["value"].tolist() == [3, 4]


def test_length_settings_are_the_curves_lengths_sizes_and_short_books(counts):
    curve = pd.DataFrame({"length": ["50", "whole", "400", "50"], "feature_set": ["f1", "words100", "words20", "all"]})
    found = counts.length_settings(curve, np.array([30, 60, 399, 400, 5000]))
    assert found[found["quantity"] == "length_marks"]["value"].tolist() == [50, 400]
    assert found[found["quantity"] == "word_vocabulary_k"]["value"].tolist() == [20, 100]
    got = as_dict(found)
    assert (got["books_shorter_than_50"], got["books_shorter_than_400"]) == (1, 3)
    assert got["share_shorter_than_400"] == pytest.approx(0.6)


def test_protocol_counts_count_the_cells_beyond_their_sd(counts):
    effect = pd.DataFrame({"task": ["genre"] * 3 + ["author"], "n_classes": [10, 10, 14, 10],
                           "effect": [-0.06, 0.01, 0.04, 0.0], "effect_sd": [0.05, 0.02, 0.03, 0.1]})  # fmt: skip
    got = as_dict(counts.protocol_counts(effect, {"recognition": {"mlp": {"max_epochs": 7, "patience": 3,
                                                                        "validation_fraction": 0.2}}}))  # fmt: skip
    assert (got["genre_10_cells"], got["genre_10_cells_effect_beyond_sd"], got["genre_10_cells_within_sd"]) == (2, 1, 1)
    assert (got["genre_10_cells_effect_at_least_0"], got["genre_all_cells_effect_beyond_sd"]) == (1, 2)
    assert got["genre_all_cells"] == 3
    assert (got["author_10_cells_effect_at_least_0"], got["max_epochs"], got["validation_fraction"]) == (1, 7, 0.2)


def test_mark_totals_sum_each_mark_over_the_books(counts):
    books = pd.DataFrame({"book_id": [1, 2], "ours !": [3, 4], "theirs !": [3, 5], "same_marks": [True, True]})
    assert as_dict(counts.mark_totals(books)) == {"total ours !": 7, "total theirs !": 8}


def test_the_stored_counts_are_those_of_the_stored_tables(counts):
    """Re-derived from the folders' own tables: protocol_rows/counts.csv and authors_code/counts.csv
    are what the script writes from protocol_effect.csv and books.csv."""
    effect = pd.read_csv(EVIDENCE / "protocol_rows" / "protocol_effect.csv")
    stored = pd.read_csv(EVIDENCE / "protocol_rows" / "counts.csv")
    derived = counts.protocol_counts(effect, schema_defaults())
    assert as_dict(stored) == pytest.approx(as_dict(derived))
    books = pd.read_csv(EVIDENCE / "authors_code" / "books.csv")
    assert as_dict(pd.read_csv(EVIDENCE / "authors_code" / "counts.csv")) == as_dict(counts.mark_totals(books))


def test_fused_adam_sizes_count_changes_per_class_size(counts):
    networks = pd.DataFrame({
        "n_classes": [10, 10, 10, 50, 50], "seed": [0, 1, 2, 0, 1], "feature_set": ["f1", "f3", "f4", "f4", "f5"],
        "accuracy_foreach": [0.5, 0.6, 0.7, 0.4, 0.3], "accuracy_fused": [0.5, 0.6, 0.7, 0.45, 0.3],
        "accuracy_difference": [0.0, 0.0, 0.0, 0.05, 0.0], "documents_predicted_differently": [0, 0, 0, 2, 1],
        "epochs_foreach": [100, 50, 60, 30, 30], "epochs_fused": [101, 47, 60, 30, 30]})
    got = counts.fused_adam_sizes(networks).set_index("n_classes")
    assert got.loc[10, ["networks_other_accuracy", "networks_other_epochs", "epoch_difference_min",
                        "epoch_difference_max"]].tolist() == [0, 2, 1, 3]
    assert pd.isna(got.loc[10, "sets_predicting_differently"]) and pd.isna(got.loc[10, "changed_seed"])
    assert got.loc[50, ["networks_other_accuracy", "networks_other_epochs"]].tolist() == [1, 0]
    assert got.loc[50, "sets_predicting_differently"] == "f4 or f5"
    assert got.loc[50, ["changed_seed", "changed_feature_set", "changed_accuracy_foreach",
                        "changed_accuracy_fused", "changed_documents"]].tolist() == [0, "f4", 0.4, 0.45, 2]


def test_book_cpu_cells_set_each_side_of_each_measure(counts):
    differences = pd.DataFrame({"what": ["whole call, a book"], "this_tree": [0.6], "baseline": [0.7],
                                "difference": [-0.1], "ratio": [0.6 / 0.7]})
    calls = pd.DataFrame({"tree": ["this tree", "baseline"], "commit": ["bbb", "aaa"], "load_1min_after": [2.1, 2.8]})
    got = counts.book_cpu_cells(differences, calls, {"corpus_tables_identical": True, "package_bytecode": "cached"})
    assert got[["what", "tree", "commit", "value"]].values.tolist() == [
        ["whole call, a book", "baseline", "aaa", 0.7], ["whole call, a book", "this tree", "bbb", 0.6],
        ["load_1min_after", "this tree", "bbb", 2.1], ["load_1min_after", "baseline", "aaa", 2.8],
        ["corpus_tables_identical", "baseline", "aaa", 1.0]]
    assert got["difference"].tolist()[:2] == [pytest.approx(np.nan, nan_ok=True), -0.1]
    assert (got["package_bytecode"] == "cached").all()


def test_ready_times_split_minutes_and_seconds(counts):
    got = counts.ready_times({"ready_s_after_start": {"corpus tables": 280, "Table 4": 621, "start": 59}})
    assert got.values.tolist() == [["corpus tables", 280, 4, 40], ["Table 4", 621, 10, 21], ["start", 59, 0, 59]]


def test_equal_experiments_compare_value_for_value(counts):
    keys = {"task": ["author"] * 3, "n_classes": [10] * 3, "seed": [0] * 3, "method": ["kl", "mlp", "svm"],
            "feature_set": ["f1"] * 3, "n_train": [140] * 3, "n_test": [32] * 3}
    paper = pd.DataFrame(keys | {"accuracy": [0.5, 0.625, 0.7]})
    default = pd.DataFrame(keys | {"accuracy": [0.5, 0.625, 0.7000001]})
    assert counts.equal_experiments(paper, default) == (3, 2)
    assert counts.equal_experiments(paper, default.iloc[:1]) == (3, 1)


def test_run_overview_matches_the_stored_default_run(counts):
    row = counts.run_overview(EVIDENCE, 10, 100).iloc[0]
    filters = pd.read_csv(EVIDENCE / "default_run" / "selection_filters.csv")
    assert row["catalog_rows"] == filters["removed"].sum() + filters["remaining"].iloc[-1]
    assert row["authors_dropped_corpus"] == row["authors_selected"] - row["authors_in_corpus"]
    assert row["excluded_by_stage_features"] == row["excluded_few_marks"] + row["excluded_no_quotation_mark"]
    assert row["paper_experiments"] == len(pd.read_csv(EVIDENCE / "paper_only_run" / "author_results.csv")) + len(
        pd.read_csv(EVIDENCE / "paper_only_run" / "genre_results.csv"))
    assert (row["min_docs_per_author"], row["min_marks"]) == (10, 100)


def test_job_groups_sum_families_and_keep_the_rest(counts):
    assert [counts.job_group(f) for f in ("recognition/author_10_classes", "recognition/gender_tables",
                                          "beyond/across_languages", "beyond/f3_importance_10_classes",
                                          "beyond/book_parts", "length/author_summary", "figures/corpus",
                                          "attribution_model", "maps/f3")] == [
        "recognition", "recognition", "across_languages", "importance", "other", "length", "figures", "other",
        "other"]  # fmt: skip
    costs = pd.DataFrame({"collection": ["A", "A", "A", "B"],
                          "family": ["recognition/author_10_classes", "recognition/gender_all_classes",
                                     "figures/corpus", "beyond/across_languages"],
                          "jobs": [5, 5, 1, 1], "cpu_s": [10.0, 6.0, 2.0, 30.0]})  # fmt: skip
    calls = pd.DataFrame({"collection": ["A", "A", "B", "B"], "call": ["run", "report"] * 2,
                          "cpu_s": [24.0, 1.0, 40.0, 5.0]})  # fmt: skip
    groups = counts.job_groups(costs, calls)
    cells = {(c, g): (round(v, 6), round(s, 6)) for c, g, v, s in groups.itertuples(index=False)}
    assert cells == {
        ("A", "figures"): (2.0, 0.08), ("A", "recognition"): (16.0, 0.64), ("A", "rest"): (7.0, 0.28),
        ("B", "across_languages"): (30.0, 0.666667), ("B", "rest"): (15.0, 0.333333),
        ("all", "figures"): (2.0, 0.028571), ("all", "recognition"): (16.0, 0.228571), ("all", "rest"): (22.0, 0.314286),
        ("all", "across_languages"): (30.0, 0.428571),
    }  # fmt: skip
