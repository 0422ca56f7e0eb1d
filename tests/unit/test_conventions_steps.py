"""docs/CONVENTIONS.md, "Where a change goes", done step by step (issue 21 item 7): a classifier with
one hyper-parameter, and a figure, each in three files, planned and run by the workflow's own
functions (punctstyle.plan, the rules' job functions), without a Snakemake run. The classifier's
option reaches every analysis that trains (issue 32 item 2): the grid, the word baselines, the
length curve and the cross-domain records train the toy with it; the f3 importance and the
sequence rows, whose classifiers are fixed (mlp and kl; the sequence network), train the toy
registered in their place with an option of that classifier's section."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
import yaml
from snakemake.utils import validate

from punctstyle import classifiers
from punctstyle.analyses.recognition import run_recognition_grid
from punctstyle.classifiers.options import options_by_classifier
from punctstyle.corpus.summary import corpus_summary, write_corpus_summary
from punctstyle.corpus.exclusions import EXCLUSION_COLUMNS, write_exclusions
from punctstyle.marks import feature_column_names
from punctstyle.plan import paper
from punctstyle.plan import rows
from punctstyle.plan.analyses import analysis_params
from punctstyle.plan.checkpoints import CorpusCounts
from punctstyle.plan.workflow import WorkflowPlan
from punctstyle.report.figure_jobs import corpus_figures
from punctstyle.report.plots import corpus as corpus_plots
from punctstyle.report.plots.base import new_figure
from punctstyle.settings import SCHEMA_PATH

REPO = Path(__file__).resolve().parents[2]
LOG = logging.getLogger("conventions")

# step 1 of "Adding a classifier": punctstyle/classifiers/<name>.py (here a module of the test's own)
CLASSIFIER_MODULE = '''
import numpy as np


class ShrunkCentroid:
    """Nearest centroid, the centroids pulled toward the grand mean by params["shrink"] (0: none, 1: all)."""

    def __init__(self, *, seed, feature_set, params):
        self.shrink = float(params["shrink"])

    def fit(self, X, y):
        self.classes = np.unique(y)
        centroids = np.stack([X[y == c].mean(axis=0) for c in self.classes])
        self.centroids = (1 - self.shrink) * centroids + self.shrink * X.mean(axis=0)
        return self

    def predict(self, X):
        distance = ((X[:, None, :] - self.centroids[None, :, :]) ** 2).sum(axis=2)
        return self.classes[np.argmin(distance, axis=1)]


class ShrunkCentroidOnDevice(ShrunkCentroid):
    """The same, registered as a classifier that runs on a device (the MLP's road): the device and
    threads of the run are required keywords."""

    def __init__(self, *, seed, feature_set, params, device, num_threads):
        super().__init__(seed=seed, feature_set=feature_set, params=params)
        self.device, self.num_threads = device, num_threads


class ShrunkMarkCentroid(ShrunkCentroid):
    """The same on raw punctuation sequences (the sequence network's road): the centroids of the
    documents' mark frequencies."""

    def __init__(self, *, seed, params, device, num_threads):
        super().__init__(seed=seed, feature_set=(), params=params)
        self.device, self.num_threads = device, num_threads

    @staticmethod
    def frequencies(documents):
        return np.stack([np.bincount(marks, minlength=10) / len(marks) for marks, _ in documents])

    def fit(self, documents, y):
        return super().fit(self.frequencies(documents), np.asarray(y, dtype=object))

    def predict(self, documents):
        return super().predict(self.frequencies(documents))
'''


def schema_with(tmp_path: Path, edit) -> Path:
    """A copy of the config schema, changed by ``edit(schema)`` (step 3 of both recipes)."""
    schema = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))
    edit(schema)
    path = tmp_path / "config.schema.yaml"
    path.write_text(yaml.safe_dump(schema, sort_keys=False), encoding="utf-8")
    return path


def test_a_classifier_with_one_hyper_parameter_takes_three_files(tmp_path, monkeypatch):
    # 1. the module
    (tmp_path / "shrunk_centroid.py").write_text(CLASSIFIER_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    # 2. one entry in punctstyle.classifiers.CLASSIFIERS
    monkeypatch.setitem(
        classifiers.CLASSIFIERS, "shrunk", classifiers.ClassifierSpec("shrunk centroid", "shrunk_centroid:ShrunkCentroid")
    )

    # 3. the schema: its feature sets under recognition.methods (and recognition.words.methods, for
    # the word baselines), its hyper-parameter block recognition.shrunk
    def add_classifier(schema):
        recognition = schema["properties"]["recognition"]["properties"]
        recognition["methods"]["properties"]["shrunk"] = {
            "type": "array",
            "items": {"type": "string"},
            "description": "Nearest shrunk centroid.",
        }
        recognition["words"]["properties"]["methods"]["properties"]["shrunk"] = {
            "type": "array",
            "items": {"type": "string", "enum": ["words"]},
            "description": "Nearest shrunk centroid on word frequencies.",
        }
        recognition["shrunk"] = {
            "type": "object",
            "default": {},
            "description": "The shrunk centroid's hyper-parameter.",
            "properties": {"shrink": {"type": "number", "default": 0.0, "description": "Pull toward the mean."}},
        }

    schema = schema_with(tmp_path, add_classifier)

    def planned_accuracy(user_config: dict) -> tuple[dict, float]:
        """What the recognition rule hands its job (params.classifiers -> options_by_classifier), run."""
        config = {"outdir": "r", **user_config}
        validate(config, str(schema))  # fills in the schema's defaults, as common.smk does
        plan = WorkflowPlan(config)
        params = analysis_params(plan, "paper")["classifiers"]
        options = options_by_classifier(config, params, 1)
        rng = np.random.default_rng(0)
        labels = np.repeat(["a", "b", "c", "d"], 20)
        X = rng.normal(size=(80, 10)) + 4.0 * (np.arange(80)[:, None] // 20 == np.arange(10)[None, :] % 4)
        results = run_recognition_grid(
            {"f1": X}, labels, task="author", class_sizes=[4], seeds=[0], methods=rows.recognition_methods(plan.config),
            test_fraction=0.25, classifier_options=options,
        )
        assert results["method"].tolist() == ["shrunk"]
        return params, float(results["accuracy"].iloc[0])

    methods = {"recognition": {"methods": {"shrunk": ["f1"]}}}
    params, accuracy = planned_accuracy(methods)
    assert params == {"shrunk": {"shrink": 0.0}} and accuracy == 1.0
    # the hyper-parameter reaches the factory: every centroid at the mean predicts one class
    params, accuracy = planned_accuracy({"recognition": {**methods["recognition"], "shrunk": {"shrink": 1.0}}})
    assert params == {"shrunk": {"shrink": 1.0}} and accuracy == pytest.approx(0.25)
    # the recognition rule's params carry every configured classifier's hyper-parameters
    assert '**analysis_params(PLAN, "paper")' in (REPO / "workflow/rules/analysis.smk").read_text()
    assert classifiers.display_name("shrunk") == "shrunk centroid"

    # the same option reaches the word baselines, the length curve and the cross-domain records by
    # the same road, and each of them trains with it (shrink 1: every prediction is one class)
    for shrink, expected in ((0.0, 1.0), (1.0, 0.25)):
        accuracies = analysis_accuracies(shrink, schema)
        assert accuracies == pytest.approx({name: expected for name in accuracies}), (shrink, accuracies)
        assert set(accuracies) == {"word baselines", "length curve", "cross-domain within", "cross-domain cross"}
    shrunk = {
        "recognition": {
            **methods["recognition"], "shrunk": {"shrink": 1.0},
            "words": {"tasks": ["author"], "top_k": [50], "methods": {"shrunk": ["words"]}},
        },
        "length_curve": {"methods": {"shrunk": ["f1"]}},
    }  # fmt: skip
    options = planned_options(shrunk, schema)
    assert options["word baselines"] == {"shrunk": {"params": {"shrink": 1.0}}, "delta": DELTA_DEFAULTS}
    for analysis in ("grid", "word baselines", "length curve"):
        assert options[analysis]["shrunk"] == {"params": {"shrink": 1.0}}, analysis
    # the importance trains kl and mlp only (training.importance.IMPORTANCE_METHODS): not the toy
    assert "shrunk" not in options["importance"]
    # but the classifier registered as "mlp" gets its options there (below: the toy in its place)
    # an MLP hyper-parameter (recognition.mlp.hidden_units) reaches every analysis that trains
    # the MLP, with the device and threads of the run
    mlp = {"recognition": {"mlp": {"hidden_units": 7, "device": "cpu"}}, "length_curve": {"methods": {"mlp": ["f1"]}},
           "cross": {"genres": {"methods": {"mlp": ["f3"]}}}}  # fmt: skip
    options = planned_options(mlp, schema)
    trains_mlp = ["grid", "word baselines", "length curve", "importance", "attribution bundle", "cross-domain"]
    assert [name for name, by_classifier in options.items() if "mlp" in by_classifier] == trains_mlp
    for analysis in trains_mlp:
        assert options[analysis]["mlp"]["params"]["hidden_units"] == 7, analysis
        assert (options[analysis]["mlp"]["device"], options[analysis]["mlp"]["num_threads"]) == ("cpu", 3), analysis
        assert not {"device", "threads"} & set(options[analysis]["mlp"]["params"]), analysis
    sequence = planned_options({"beyond": {"sequence": {"channels": 3}}}, schema)["sequence network"]["sequence_cnn"]
    assert sequence["params"]["channels"] == 3 and sequence["num_threads"] == 3
    assert not {"enabled", "class_sizes", "device", "threads"} & set(sequence["params"])


DELTA_DEFAULTS = {"variant": "centroid", "zscore_over": "training"}


def separable_documents(n_columns: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """80 documents of 4 authors (20 each) as rows of relative frequencies over ``n_columns``
    entries, author ``c`` heavy on the entries ``j = c (mod 4)``: any nearest centroid separates them."""
    rng = np.random.default_rng(seed)
    labels = np.repeat(np.array(["a", "b", "c", "d"], dtype=object), 20)
    author = np.repeat(np.arange(4), 20)
    X = rng.uniform(0.5, 1.0, size=(80, n_columns)) + 20.0 * (np.arange(n_columns)[None, :] % 4 == author[:, None])
    return X / X.sum(axis=1, keepdims=True), labels


def analysis_accuracies(shrink: float, schema: Path) -> dict[str, float]:
    """The toy's test accuracies (4 authors, one seed) in the word baselines, the length curve and
    the cross-domain records, each run by its own function with the options its rule plans."""
    from punctstyle.featuresets import word_methods
    from punctstyle.analyses.recognition import word_experiments
    from punctstyle.training.cross_domain import CorpusInputs, DistortionOptions, cross_domain_records
    from punctstyle.training.length_curve import length_curve_row
    from punctstyle.book.excerpts import Document

    config = {
        "recognition": {
            "methods": {"shrunk": ["f1"]}, "shrunk": {"shrink": shrink},
            "words": {"tasks": ["author"], "top_k": [8], "methods": {"shrunk": ["words"]}},
        },
        "length_curve": {"methods": {"shrunk": ["f1"]}, "training": ["whole"]},
        "cross": {"genres": {"methods": {"shrunk": ["f1"]}}},
    }  # fmt: skip
    options = planned_options(config, schema)
    X, labels = separable_documents(10)
    grid = {"task": "author", "class_sizes": [4], "seeds": [0], "test_fraction": 0.25}
    word_sets = word_methods(config["recognition"]["words"], "author")
    assert word_sets == {"shrunk": ["words8"]}
    (words,) = word_experiments({"f1": X}, labels, sp.csr_matrix(X), methods=word_sets,
                                classifier_options=options["word baselines"], **grid)  # fmt: skip
    rng = np.random.default_rng(1)
    marks = [rng.choice(10, size=400, p=X[i]) for i in range(labels.size)]
    length = length_curve_row(
        lambda i: Document(i, marks[i], np.ones(400, dtype=np.int64)), labels, task="author", n_classes=4, seed=0,
        test_fraction=0.25, lengths=[200], methods={"shrunk": ["f1"]}, training=["whole"],
        classifier_options=options["length curve"],
    ).results  # fmt: skip
    genres = np.tile(np.array(["g1", "g2"], dtype=object), 40)  # every author: 10 books in each genre
    inputs = CorpusInputs({"f1": X}, sp.csr_matrix((80, 1)), np.ones(80), np.zeros(80), np.full(80, 400))
    cross = cross_domain_records(
        inputs, labels, {"genre": genres}, {"shrunk": ["f1"]}, [0], min_docs=5, min_authors=4, test_fraction=0.5,
        distortion_options=DistortionOptions((1,)), classifier_options=options["cross-domain"],
    ).groupby("condition")["accuracy"].mean()  # fmt: skip
    return {
        "word baselines": words.row()["accuracy"],
        "length curve": float(length.loc[length["length"] == "whole", "accuracy"].item()),
        **{f"cross-domain {condition}": float(cross[condition]) for condition in ("within", "cross")},
    }


def test_the_classifier_registered_as_mlp_gets_its_options_in_the_importance(tmp_path, monkeypatch):
    """The f3 importance builds the classifiers of IMPORTANCE_METHODS from the registry with the
    options its rule plans: the toy registered in the MLP's place, with a hyper-parameter in the
    MLP's section, trains there with it (shrink 1: one class predicted)."""
    from punctstyle.jobs.importance import importance_job

    (tmp_path / "shrunk_centroid.py").write_text(CLASSIFIER_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = classifiers.ClassifierSpec("shrunk network", "shrunk_centroid:ShrunkCentroidOnDevice", runs_on_device=True)
    monkeypatch.setitem(classifiers.CLASSIFIERS, "mlp", spec)

    def add_option(schema):
        mlp = schema["properties"]["recognition"]["properties"]["mlp"]
        mlp["properties"]["shrink"] = {"type": "number", "default": 0.0, "description": "Pull toward the mean."}

    schema = schema_with(tmp_path, add_option)
    X, labels = separable_documents(100)
    table = pd.DataFrame(X, columns=feature_column_names("f3"))
    table.insert(0, "author", labels)
    table.insert(0, "book_id", np.arange(80))
    for shrink, expected in ((0.0, 1.0), (1.0, 0.25)):
        config = {"recognition": {"mlp": {"shrink": shrink, "device": "cpu"}}}
        options = planned_options(config, schema)["importance"]
        assert options["mlp"] == {"params": {**options["mlp"]["params"], "shrink": shrink}, "device": "cpu",
                                  "num_threads": 3}  # fmt: skip
        row = importance_job(
            table, tmp_path / f"importance{shrink}.json", class_size=4, seed=0, test_fraction=0.25, top_k=[5],
            repeats=2, holdout_fraction=0.25, classifier_options=options,
        )  # fmt: skip
        by_method = {(line["method"], line["k"]): line["accuracy"] for line in row.top_k}
        assert by_method[("mlp", 100)] == pytest.approx(expected)
        assert by_method[("mlp", 5)] == pytest.approx(expected)  # the top-k MLP: trained by the toy too


def planned_options(user_config: dict, schema: Path) -> dict[str, dict]:
    """What each training rule hands its job with 3 threads: the plan's ``params.classifiers`` of
    the rule, through ``options_by_classifier`` (as every script does)."""
    config = {"outdir": "r", **user_config}
    validate(config, str(schema))
    plan = WorkflowPlan(config)
    params = {
        "grid": analysis_params(plan, "paper")["classifiers"],
        "word baselines": paper.recognition_word_classifier_params(plan, "author"),
        "length curve": analysis_params(plan, "length_curve")["classifiers"],
        "importance": analysis_params(plan, "importance")["classifiers"],
        "sequence network": analysis_params(plan, "sequence")["classifiers"],
        "attribution bundle": analysis_params(plan, "attribution")["classifiers"],
        "cross-domain": analysis_params(plan, "cross")["classifiers"],
    }
    return {analysis: options_by_classifier(config, by_classifier, 3) for analysis, by_classifier in params.items()}


def marks_per_document(table: pd.DataFrame):
    """Step 1 of "Adding a figure": the figure function (data in, Figure out)."""
    fig, ax = new_figure(figsize=(4.0, 3.0))
    ax.hist(table["n_marks"].to_numpy(), bins=5)
    return fig


FIGURE_OUTPUTS = """        marks_per_document=report(
            png("corpus/marks_per_document"),
            caption=caption("marks_per_document"),
            category=Section.DATA,
            subcategory="Data set",
        ),
        marks_per_document_pdf=pdf("corpus/marks_per_document"),
"""


def workflow_copy(tmp_path: Path) -> Path:
    """The repository's Snakefile, rules, report captions and configs in ``tmp_path/repo``."""
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(REPO / "Snakefile", repo / "Snakefile")
    for folder in ("workflow", "config", "envs"):
        shutil.copytree(REPO / folder, repo / folder, symlinks=False)
    return repo


def parsed_rules(repo: Path, outdir: Path):
    """The rules of the workflow in ``repo`` as Snakemake parses them (no job runs)."""
    from snakemake.api import SnakemakeApi
    from snakemake.settings.types import ConfigSettings, OutputSettings, ResourceSettings

    with SnakemakeApi(OutputSettings()) as api:
        workflow = api.workflow(
            resource_settings=ResourceSettings(),
            config_settings=ConfigSettings(configfiles=[repo / "config/test.yaml"], config={"outdir": str(outdir)}),
            snakefile=repo / "Snakefile",
            workdir=repo,
        )
        from snakemake.rules import RuleProxy

        # the Snakefile's ``rules`` namespace: each rule's outputs as a job sees them
        return {rule.name: RuleProxy(rule) for rule in workflow._workflow.rules}, workflow._workflow.config


def test_a_figure_takes_three_files(tmp_path, monkeypatch):
    # 1. punctstyle/report/plots/corpus.py: the function and its FIGURES entry
    monkeypatch.setitem(corpus_plots.FIGURES, "marks_per_document", marks_per_document)
    repo = workflow_copy(tmp_path)
    # 2. workflow/rules/figures.smk: two outputs of the family's rule
    rules_file = repo / "workflow/rules/figures.smk"
    text = rules_file.read_text(encoding="utf-8")
    anchor = "        documents_per_author_pdf=pdf(\"corpus/documents_per_author\"),\n"
    assert anchor in text
    rules_file.write_text(text.replace(anchor, anchor + FIGURE_OUTPUTS), encoding="utf-8")
    # 3. workflow/report/<name>.rst: the caption
    (repo / "workflow/report/marks_per_document.rst").write_text("Punctuation marks per document.\n")

    outdir = tmp_path / "results"
    rules, config = parsed_rules(repo, outdir)
    rule = rules["figures_corpus"]
    # the target rule all asks for it (rule outputs read off the parsed rules)
    plan = WorkflowPlan(config)
    targets = paper.figure_outputs(plan, SimpleNamespace(**rules), CorpusCounts({"author": 2, "genre": 0}))
    png, pdf = str(outdir / "figures/corpus/marks_per_document.png"), str(outdir / "figures/corpus/marks_per_document.pdf")
    assert png in targets and pdf in targets

    # the rule's job draws it (the corpus figures' inputs written by the package's writers)
    columns = feature_column_names("f1")
    table = pd.DataFrame(np.full((4, len(columns)), 0.1), columns=columns)
    table.insert(0, "author", ["a", "a", "b", "b"])
    table.insert(0, "book_id", [1, 2, 3, 4])
    table["n_marks"], table["genre"], table["title"] = [10, 20, 30, 40], None, "t"
    inputs = SimpleNamespace(f1=tmp_path / "f1.parquet", summary=tmp_path / "s.json", exclusions=tmp_path / "e.csv")
    table.to_parquet(inputs.f1)
    exclusions = pd.DataFrame(columns=list(EXCLUSION_COLUMNS))
    write_exclusions(inputs.exclusions, exclusions)
    write_corpus_summary(inputs.summary, corpus_summary(table, table, exclusions))
    outputs = rule.output  # the parsed rule's outputs, named as the job sees them
    assert "marks_per_document" in outputs.keys()
    corpus_figures(inputs, outputs, LOG)
    assert Path(png).stat().st_size > 0 and Path(pdf).stat().st_size > 0
    assert Path(str(outputs.documents_per_author)).exists()


def test_the_classifier_registered_as_the_sequence_network_gets_its_options(tmp_path, monkeypatch):
    """The sequence rows build the registered sequence classifier with the options their rule plans
    (beyond.sequence): the toy in the network's place, with a hyper-parameter in its section, trains
    on the row's sequence files with it (shrink 1: one class predicted)."""
    from punctstyle.book.sequence_file import write_sequence
    from punctstyle.jobs.sequence import SEQUENCE_METHOD, sequence_row_job
    from punctstyle.text.extract import PunctuationSequence

    (tmp_path / "shrunk_centroid.py").write_text(CLASSIFIER_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = classifiers.ClassifierSpec("shrunk sequences", "shrunk_centroid:ShrunkMarkCentroid", input_kind="sequence",
                                      config_section=("beyond", "sequence"), runs_on_device=True,
                                      plan_keys=("enabled", "class_sizes"))  # fmt: skip
    monkeypatch.setitem(classifiers.SEQUENCE_CLASSIFIERS, SEQUENCE_METHOD, spec)

    def add_option(schema):
        sequence = schema["properties"]["beyond"]["properties"]["sequence"]
        sequence["properties"]["shrink"] = {"type": "number", "default": 0.0, "description": "Pull toward the mean."}

    schema = schema_with(tmp_path, add_option)
    X, labels = separable_documents(10)
    rng = np.random.default_rng(2)
    paths = []
    for book_id, p in enumerate(X):
        paths.append(tmp_path / f"{book_id}.parquet")
        marks = rng.choice(10, size=400, p=p).astype(np.uint8)
        write_sequence(paths[-1], book_id, PunctuationSequence(marks, np.ones(400, dtype=np.uint32), 400))
    table = pd.DataFrame({"book_id": np.arange(80), "author": labels})
    for shrink, expected in ((0.0, 1.0), (1.0, 0.25)):
        options = planned_options({"beyond": {"sequence": {"shrink": shrink, "device": "cpu"}}}, schema)
        assert options["sequence network"][SEQUENCE_METHOD]["params"]["shrink"] == shrink
        outputs = {"row": tmp_path / f"row{shrink}.csv", "lengths": tmp_path / f"lengths{shrink}.csv"}
        row = sequence_row_job(
            table, paths, outputs, class_size=4, seed=0, test_fraction=0.25,
            classifier_options=options["sequence network"], lengths=[], short_documents="whole",
        )  # fmt: skip
        assert row["accuracy"].tolist() == pytest.approx([expected])
