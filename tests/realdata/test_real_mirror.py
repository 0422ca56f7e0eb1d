"""The workflow on real books: a 3-author subset of ../shared/gutenberg-mirror on loopback.

Skipped, with the reason, when ../shared is absent (a fresh clone without the shared data).
"""

from __future__ import annotations

import gzip
import json
import zipfile

import numpy as np
import pandas as pd
import pytest
import yaml

from punctstyle.text.clean import clean_text
from punctstyle.sources.download import SITE_URL_TEMPLATES
from punctstyle.text.chunk_cache import ChunkCachedExtractor
from punctstyle.text.extract import extract_with_spacy
from tests.conftest import require_mirror, snakemake
from tests.fixtures.mini_mirror import serve

pytestmark = pytest.mark.realdata


@pytest.fixture(scope="module")
def real_run(tmp_path_factory):
    mirror = require_mirror()
    outdir = tmp_path_factory.mktemp("real")
    config = {
        "outdir": str(outdir),
        # the shared mirror is laid out like www.gutenberg.org, catalog included
        "mirror": {"backoff_s": 0.1, "catalog_base_url": None, "url_templates": list(SITE_URL_TEMPLATES)},
        "selection": {"max_authors": 3, "max_docs": 30, "seed": 3},
        "consistency": {"baseline_pairs": 300, "top_k": [2, 3], "tasks": ["author"]},
        "recognition": {
            "class_sizes": ["all"],
            "seeds": [0],
            "genre_recognition": False,
            "mlp": {"hidden_units": 256, "max_epochs": 60, "threads": 2},
        },
    }
    path = outdir / "config.yaml"
    targets = [str(outdir / "analysis/consistency/summary.csv"), str(outdir / "analysis/recognition/author_tables.md")]
    with serve(mirror) as base_url:  # any folder laid out like the site, on 127.0.0.1
        config["mirror"]["base_url"] = base_url
        path.write_text(yaml.safe_dump(config))
        snakemake(*targets, "--cores", "2", "--configfile", str(path))
    return {"outdir": outdir, "mirror": mirror}


def test_selection_is_three_real_authors(real_run):
    selection = pd.read_parquet(real_run["outdir"] / "corpus/selection.parquet")
    assert selection["author"].nunique() == 3
    assert len(selection) == 30
    assert selection["birth"].notna().any()


def test_downloads_match_the_mirror_bytes(real_run):
    selection = pd.read_parquet(real_run["outdir"] / "corpus/selection.parquet")
    for book_id in selection["book_id"][:5]:
        provenance = json.loads((real_run["outdir"] / f"books/{book_id}.json").read_text())
        assert provenance["status"] == "ok"
        assert provenance["url"].endswith(f"files/{book_id}/{book_id}-0.zip")
        with zipfile.ZipFile(real_run["mirror"] / f"files/{book_id}/{book_id}-0.zip") as archive:
            original = archive.read(f"{book_id}-0.txt").decode("utf-8")
        stored = gzip.decompress((real_run["outdir"] / f"books/{book_id}.txt.gz").read_bytes()).decode()
        assert stored == original.lstrip("\ufeff")


def test_fast_extraction_equals_spacy_on_real_books(real_run):
    selection = pd.read_parquet(real_run["outdir"] / "corpus/selection.parquet")
    fast = ChunkCachedExtractor()
    for book_id in selection["book_id"][:3]:
        text = clean_text(gzip.decompress((real_run["outdir"] / f"books/{book_id}.txt.gz").read_bytes()).decode())
        a, b = fast(text), extract_with_spacy(text)
        np.testing.assert_array_equal(a.marks, b.marks)
        np.testing.assert_array_equal(a.gaps, b.gaps)
        assert len(a) > 1000  # a real novel has thousands of marks


def test_corpus_and_authors_are_consistent(real_run):
    out = real_run["outdir"]
    f3 = pd.read_parquet(out / "corpus/f3.parquet")
    assert len(f3) >= 20
    f1 = pd.read_parquet(out / "corpus/f1.parquet")
    # commas and periods are the commonest marks in real prose (paper: 42.5% and 28.3%)
    assert f1["f1[,]"].mean() > 0.25 and f1["f1[.]"].mean() > 0.15
    summary = pd.read_csv(out / "analysis/consistency/summary.csv").set_index("feature")
    # the paper's central finding: documents of one author are closer than random pairs
    assert summary.loc["f3", "within_mean"] < summary.loc["f3", "baseline_mean"]
    assert summary.loc["f3", "ks_pvalue"] < 1e-3


def test_recognition_beats_the_baseline(real_run):
    results = pd.read_csv(real_run["outdir"] / "analysis/recognition/author_results.csv")
    mlp = results[(results["method"] == "mlp") & (results["feature_set"] == "f3")]
    assert len(mlp) == 1
    assert mlp["accuracy"].iloc[0] > mlp["baseline"].iloc[0] + 0.2
