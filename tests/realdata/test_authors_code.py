"""Our extraction and d_KL equal the authors' own package on real mirror books.

benchmarks/bench_authors_code.py on the 3 smallest mirror books of at least 60,000 bytes: the
authors' ``punctuation-stylometry`` 0.0.11 from PyPI (``--no-deps``, a spaCy model stub) gives
the same marks (ellipses aside, which it never counts) and word gaps on the same cleaned
text, and the same d_KL on f1 and f3 of excerpts. Skipped, with the reason, when ../shared
is absent or the package cannot be installed (no PyPI).
"""

from __future__ import annotations

import csv
import importlib.util
import subprocess
import sys

import numpy as np
import pytest

from tests.conftest import REPO, require_mirror


def load_benchmark():
    spec = importlib.util.spec_from_file_location("bench_authors_code", REPO / "benchmarks/bench_authors_code.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def smallest_books(mirror, n, min_bytes=60_000):
    with open(mirror / "MANIFEST.csv", newline="", encoding="utf-8") as handle:
        rows = [(int(r["text_bytes"]), mirror / r["file"]) for r in csv.DictReader(handle)]
    return [path for size, path in sorted(rows) if size >= min_bytes][:n]


def test_extraction_and_kl_equal_the_authors_code(tmp_path):
    mirror = require_mirror()
    bench = load_benchmark()
    try:
        bench.install_authors_package(tmp_path / "site")
    except subprocess.CalledProcessError as error:
        pytest.skip(f"real-data test: {bench.PACKAGE} could not be installed from PyPI ({error})")
    from punctstyle.text.chunk_cache import ChunkCachedExtractor

    get_textinfo, d_KL = bench.import_authors_code(tmp_path / "site")
    extractor = ChunkCachedExtractor()
    results = [bench.compare_book(bench.read_zip_text(p), get_textinfo, extractor) for p in smallest_books(mirror, 3)]
    for result in results:
        assert result["n_ours"] > 500
        assert result["same_marks"] and result["same_gaps"], result["counts"]
    sequences = [result["ours_sequence"] for result in results]
    for feature in ("f1", "f3"):
        vectors = bench.excerpt_vectors(sequences, feature, 200)
        assert len(vectors) >= 10
        kl = bench.compare_kl(vectors, d_KL, 300, seed=0)
        assert kl["max_abs_diff"] < 1e-12 and kl["max_abs_diff_matrix"] < 1e-12
        assert kl["mean_kl"] > 0


def test_without_ellipses_adds_their_gaps_to_the_next_mark():
    bench = load_benchmark()
    # marks: , ... . ...  (codes 4, 9, 5, 9) with gaps 2, 3, 4, 5
    marks, gaps = bench.without_ellipses(np.array([4, 9, 5, 9]), np.array([2, 3, 4, 5]))
    assert marks.tolist() == [4, 5] and gaps.tolist() == [2, 7]
