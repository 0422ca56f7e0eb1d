"""Planning of the maps, rolling, verification and cross analyses (punctstyle.plan.maps,
plan.verification, plan.cross): targets and inputs per config, without a Snakemake run."""

from __future__ import annotations

from punctstyle.plan import cross, maps, verification
from tests.unit.test_plan_rows import config


def test_maps_targets_follow_the_families_and_vanish_when_disabled():
    assert maps.maps_outputs(config(**{"maps.enabled": False})) == []
    files = maps.maps_outputs(config(outdir="r", **{"maps.enabled": True, "maps.families": ["f3", "words"]}))
    assert len(files) == 2 * (3 + 2 * len(maps.MAP_FIGURES)) - 2 == 20  # no KL map for words
    assert "r/figures/maps/f3_mds_kl.png" in files and not any("words_mds_kl" in f for f in files)
    assert files[:3] == ["r/analysis/maps/f3_coordinates.csv", "r/analysis/maps/f3_consensus_edges.csv",
                         "r/analysis/maps/f3_summary.json"]
    assert "r/figures/maps/words_dendrogram.pdf" in files and not any("/all_" in f for f in files)


def test_map_inputs_and_names_per_family():
    cfg = config(outdir="r", **{"maps.words": 250})
    assert maps.map_tables(cfg, "f1+f3") == ["r/corpus/f1.parquet", "r/corpus/f3.parquet"]
    assert maps.map_tables(cfg, "words") == ["r/corpus/f1.parquet"]  # the documents' rows
    assert maps.map_words(cfg, "words") == ["r/corpus/words.npz"] and maps.map_words(cfg, "f3") == []
    assert maps.map_words_k(cfg, "words") == 250 and maps.map_words_k(cfg, "all") == 0
    assert maps.map_family_name(cfg, "words") == "the 250 most frequent words"
    assert maps.map_family_name(cfg, "f3") == "punctuation f3"


def test_rolling_targets_and_word_inputs_only_with_a_word_method():
    assert maps.rolling_outputs(config(**{"rolling.enabled": False})) == []
    assert maps.rolling_outputs(config(outdir="r", **{"rolling.enabled": True}))[0] == "r/analysis/rolling/collaborations.csv"
    assert maps.rolling_word_inputs(config(**{"rolling.methods": ["kl_f3", "delta_punct"]}), [1, 2], "rules.json") == {}
    inputs = maps.rolling_word_inputs(config(outdir="r", **{"rolling.methods": ["kl_f3", "delta_both"]}), [7, 9],
                                      "rules.json")
    assert inputs == {"texts": ["r/books/7.txt.gz", "r/books/9.txt.gz"],
                      "word_files": ["r/words/7.parquet", "r/words/9.parquet"], "words": "r/corpus/words.npz",
                      "rules": "rules.json"}


def test_verification_targets_and_word_inputs_follow_the_families_and_lengths():
    assert verification.verification_outputs(config(**{"verification.enabled": False})) == []
    files = verification.verification_outputs(config(outdir="r", **{"verification.enabled": True}))
    assert files[0] == "r/models/attribution/verification.json" and len(files) == 7
    assert "r/figures/beyond/verification.png" in files and files[-1] == "r/tables/beyond_verification.html"
    punctuation = {"verification.families": ["f3", "all"], "verification.bundle_family": "f3"}
    assert verification.verification_word_inputs(config(**punctuation), [1], "rules.json") == {}
    whole_only = {"verification.families": ["f3+words"], "verification.bundle_family": "f3+words",
                  "verification.lengths": []}
    assert verification.verification_word_inputs(config(outdir="r", **whole_only), [1], "x") == {
        "word_matrix": "r/corpus/words.npz"}
    inputs = verification.verification_word_inputs(config(outdir="r", **{**whole_only, "verification.lengths": [200]}),
                                                   [4], "rules.json")
    assert inputs["texts"] == ["r/books/4.txt.gz"] and inputs["words"] == ["r/words/4.parquet"]
    assert inputs["rules"] == "rules.json"


def test_cross_runs_only_when_enabled_on_a_gutenberg_corpus():
    on = config(outdir="r", **{"cross.enabled": True})
    assert cross.cross_enabled(on) and not cross.cross_enabled(config(**{"cross.enabled": False}))
    folder = config(**{"cross.enabled": True, "source": "folder"})
    assert not cross.cross_enabled(folder) and cross.cross_outputs(folder) == []
    tables = cross.cross_analysis_files(on)
    assert list(tables) == list(cross.CROSS_TABLES) and tables["gap_weibull"] == "r/analysis/cross/gap_weibull.csv"
    figures = cross.cross_figure_files(on)
    assert figures["translators_pdf"] == "r/figures/beyond/translators.pdf"
    assert figures["table"] == "r/tables/beyond_cross.html" and len(figures) == 2 * len(cross.CROSS_FIGURES) + 1
    assert cross.cross_outputs(on) == [*tables.values(), *figures.values()]
