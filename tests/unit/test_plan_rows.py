"""Planning functions (punctstyle.plan): what a configuration plans, without a Snakemake run."""

from __future__ import annotations

import copy

import pytest

from punctstyle.plan import rows, sources
from punctstyle.settings import EXECUTION_ONLY_KEYS, schema_defaults

GENRE_SKIP = [("genre analysis", "no genre column")]


def config(**changes):
    """The schema's defaults with dotted keys changed (``config(**{"recognition.seeds": [1]})``)."""
    result = copy.deepcopy(schema_defaults())
    for dotted, value in changes.items():
        node = result
        *parents, last = dotted.split(".")
        for key in parents:
            node = node[key]
        node[last] = value
    return result


def test_a_folder_corpus_without_genre_or_dates_skips_both_analyses():
    assert sources.skipped_analyses("gutenberg", []) == []
    skipped = sources.skipped_analyses("folder", ["file", "author"])
    assert [name for name, _ in skipped] == ["genre analysis", "temporal analysis"]
    assert sources.skipped_analyses("folder", ["author", "genre", "year"]) == []
    assert [n for n, _ in sources.skipped_analyses("folder", ["author", "author_death"])] == ["genre analysis"]


def test_genre_shelves_only_for_gutenberg():
    assert sources.corpus_genre_shelves(config(source="folder")) is None
    shelves = ["Science Fiction", "Poetry"]
    assert sources.corpus_genre_shelves(config(source="gutenberg", **{"genres.shelves": shelves})) == shelves


def test_genre_tasks_leave_with_the_genre_skip():
    cfg = config(**{"consistency.tasks": ["author", "genre"], "recognition.genre_recognition": True})
    assert rows.configured_consistency_tasks(cfg, []) == ["author", "genre"]
    assert rows.configured_consistency_tasks(cfg, GENRE_SKIP) == ["author"]
    assert rows.configured_recognition_tasks(cfg, []) == ["author", "genre"]
    assert rows.configured_recognition_tasks(cfg, GENRE_SKIP) == ["author"]
    off = config(**{"recognition.genre_recognition": False})
    assert rows.configured_recognition_tasks(off, []) == ["author"]


def test_one_genre_drops_the_genre_task_and_asks_only_when_needed():
    asked = []

    def count(task):
        asked.append(task)
        return 1

    assert rows.without_unfed_tasks(["author", "genre"], count) == ["author"] and asked == ["genre"]
    assert rows.without_unfed_tasks(["author", "genre"], lambda task: 2) == ["author", "genre"]
    assert rows.without_unfed_tasks(["author"], lambda task: 1 / 0) == ["author"]


def test_time_slot_and_gender_are_tasks_of_a_tei_corpus_by_default_and_switched_by_config():
    assert rows.metadata_tasks(config()) == [] and rows.metadata_tasks(config(source="folder")) == []
    assert rows.metadata_tasks(config(source="tei")) == ["time_slot", "gender"]
    assert rows.metadata_tasks(config(source="tei", metadata_tasks=[])) == []
    assert rows.metadata_tasks(config(metadata_tasks=["gender", "time_slot"])) == ["time_slot", "gender"]
    tei = config(source="tei", **{"recognition.genre_recognition": True})
    assert rows.configured_consistency_tasks(tei, GENRE_SKIP) == ["author", "time_slot", "gender"]
    assert rows.configured_recognition_tasks(tei, GENRE_SKIP) == ["author", "time_slot", "gender"]
    gutenberg = config(**{"consistency.tasks": ["author", "genre"], "recognition.genre_recognition": True})
    assert rows.configured_recognition_tasks(gutenberg, []) == ["author", "genre"]  # as before
    # the word baselines only where recognition.words.tasks names the task
    assert rows.word_tasks(tei, GENRE_SKIP) == ["author"]
    words = config(source="tei", **{"recognition.words.tasks": ["gender", "author", "time_slot"]})
    assert rows.word_tasks(words, GENRE_SKIP) == ["author", "time_slot", "gender"]
    off = config(source="tei", metadata_tasks=[], **{"recognition.words.tasks": ["author", "time_slot"]})
    assert rows.word_tasks(off, GENRE_SKIP) == ["author"]  # not a task: no word baseline for it


def test_tasks_with_fewer_than_two_classes_leave_and_author_is_never_asked():
    counts = {"genre": 3, "time_slot": 2, "gender": 1}
    asked = []

    def count(task):
        asked.append(task)
        return counts[task]

    tasks = ["author", "genre", "time_slot", "gender"]
    assert rows.without_unfed_tasks(tasks, count) == ["author", "genre", "time_slot"]
    assert asked == ["genre", "time_slot", "gender"]
    assert rows.without_unfed_tasks(["author", "gender"], lambda task: 0) == ["author"]


def test_class_sizes_once_in_order_and_capped_at_the_corpus():
    cfg = config(**{"recognition.class_sizes": [10, 5, 10, "all"]})
    sizes = rows.recognition_class_sizes(cfg)
    assert sizes == ["10", "5", "all"]
    # 8 classes: 10 is the "all" row's experiment, 5 computes something
    assert rows.computed_class_sizes(sizes, 8) == ["5", "all"]
    assert rows.computed_class_sizes(sizes, 20) == ["10", "5", "all"]
    assert rows.computed_class_sizes(["10", "5"], 3) == ["10", "5"]  # no "all": every row


def test_methods_without_sets_are_left_out_and_mlp_options_without_execution_keys():
    cfg = config(**{"recognition.methods": {"kl": ["f1"], "mlp": ["f3"], "delta": []}})
    methods = rows.recognition_methods(cfg)
    assert methods == {"kl": ["f1"], "mlp": ["f3"]}
    params = rows.classifier_params(cfg, methods)
    assert list(params) == ["mlp"]  # kl has no config section
    options = params["mlp"]
    assert options and "threads" not in options and "device" not in options
    assert options == {k: v for k, v in cfg["recognition"]["mlp"].items() if k not in {"threads", "device"}}
    assert rows.classifier_params(cfg, {"kl": ["f1"]}) == {}
    with pytest.raises(ValueError, match="unknown classifier 'kl_nearest'"):
        rows.classifier_params(cfg, {"kl_nearest": ["f1"]})


def test_execution_only_keys_cover_every_threads_and_device_key():
    def paths(node, prefix=()):
        for key, value in node.items():
            if isinstance(value, dict):
                yield from paths(value, prefix + (key,))
            else:
                yield prefix + (key,)

    execution = {p for p in paths(schema_defaults()) if p[-1] in {"threads", "device"}}
    assert execution and execution <= set(EXECUTION_ONLY_KEYS)


def test_sequence_params_hold_what_decides_the_results():
    cfg = config(**{"beyond.sequence.threads": 4, "beyond.sequence.device": "cpu"})
    params = rows.classifier_params(cfg, ["sequence_cnn"])["sequence_cnn"]
    assert not {"enabled", "class_sizes", "threads", "device"} & set(params)
    assert set(params) | {"enabled", "class_sizes", "threads", "device"} == set(cfg["beyond"]["sequence"])
    assert rows.sequence_class_sizes(config(**{"beyond.sequence.class_sizes": [5, 5, "all"]})) == ["5", "all"]


def test_sequence_excerpt_lengths_follow_the_length_curve():
    on = config(**{"length_curve.enabled": True, "length_curve.lengths": [100, 1000]})
    assert rows.sequence_excerpt_lengths(on) == [100, 1000]
    assert rows.sequence_excerpt_lengths(config(**{"length_curve.enabled": False})) == []


def test_excerpts_keep_the_word_baselines_and_word_tasks():
    words = {"tasks": ["author"], "top_k": [100], "methods": {"delta": ["words"]}}
    cfg = config(**{"recognition.words": words, "extraction.excerpt_marks": None})
    assert rows.excerpt_skips(cfg) == []
    assert rows.word_tasks(cfg, []) == ["author"]
    # excerpts: each excerpt's own word counts (the word matrix's rows), so the word rows run
    cut = config(**{"recognition.words": words, "extraction.excerpt_marks": 5000})
    assert "word baselines" not in [name for name, _ in rows.excerpt_skips(cut)]
    assert rows.word_tasks(cut, []) == ["author"]
    off = config(**{"recognition.words": {**words, "top_k": []}})
    assert rows.word_tasks(off, []) == []


def test_sequence_books_and_scatter_pairs():
    from punctstyle.plan import report

    assert report.n_sequence_books(config(**{"figures.sequence_books": None})) == report.DEFAULT_SEQUENCE_BOOKS
    assert [report.n_scatter_pairs(config(**{"figures.sequence_books": list(range(n))})) for n in (1, 2, 3, 5)] == [0, 1, 3, 5]


def test_the_appendix_orders_by_f3_else_the_first_feature():
    from punctstyle.plan import report

    assert report.consistency_feature(config(**{"consistency.features": ["f1", "f3"]})) == "f3"
    assert report.consistency_feature(config(**{"consistency.features": ["f5", "f1"]})) == "f5"
