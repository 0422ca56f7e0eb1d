"""benchmarks/compare_outputs.py: equal folders pass, a moved value or a missing file fails."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np
import pandas as pd

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "compare_outputs.py"


def load():
    spec = importlib.util.spec_from_file_location("compare_outputs", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def results(root: Path, accuracy: float, port: int = 8000) -> Path:
    (root / "analysis").mkdir(parents=True)
    (root / "corpus").mkdir()
    pd.DataFrame({"method": ["kl", "mlp"], "accuracy": [0.5, accuracy], "train_seconds": [port, 1.0]}).to_csv(
        root / "analysis/results.csv", index=False
    )
    pd.DataFrame({"book_id": [1], "reason": [f"http://127.0.0.1:{port}/x.txt: gone"]}).to_parquet(
        root / "corpus/exclusions.parquet"
    )
    (root / "analysis/summary.json").write_text(json.dumps({"n": 3, "ks": float("nan"), "wall_s": port}))
    np.savez(root / "analysis/values.npz", within=np.array([0.25, accuracy]))
    return root


def test_equal_folders_pass_and_timings_and_ports_are_ignored(tmp_path, capsys):
    compare = load()
    old, new = results(tmp_path / "old", 0.75, 8000), results(tmp_path / "new", 0.75, 9000)
    assert compare.main([str(old), str(new)]) == 0
    assert "4 files compared, 0 differ" in capsys.readouterr().out


def test_a_moved_value_and_a_missing_file_fail(tmp_path, capsys):
    compare = load()
    old, new = results(tmp_path / "old", 0.75), results(tmp_path / "new", 0.5)
    (new / "analysis/extra.csv").write_text("a\n1\n")
    assert compare.main([str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "only in new: analysis/extra.csv" in out
    assert "differs: analysis/results.csv (max abs difference 0.25) columns accuracy" in out
    assert "differs: analysis/values.npz (max abs difference 0.25) arrays within" in out
