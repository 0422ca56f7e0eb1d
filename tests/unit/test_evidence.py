"""Numbers in docs/ traced to stored outputs (issue 35 item 1, for the sections that cite one).

A section of a page under docs/ (from one ``##`` heading to the next) that names folders
``docs/evidence/<name>/`` must quote only numbers found in those folders' stored outputs: every
decimal number of its prose and tables (fenced code blocks left out) equals, at the precision it
is written with, a value of one of the cited folders' CSV files or of their ``run.json``, and so does
every whole number (a count, a size, a seed; ``1,600`` is 1600), except the names of things that are not
measurements: references (``Table 2``, ``section 3``, ``issue 26 item 2``), the year of a citation
(``Stamatatos (2017)``, ``et al., 2023``) and the parts of identifiers (``f3``, ``T1``, ``torch 2.13.0``,
a commit). A number that is neither is reported with its section. Values the paper quotes are stored
too, in a ``paper.csv`` of the folder that cites them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[2]
EVIDENCE = REPO / "docs" / "evidence"
CITED = re.compile(r"docs/evidence/([\w.-]+)/")
DECIMAL = re.compile(r"(?<![\w.])-?\d+\.\d+(?![\w.])")
FENCE = re.compile(r"```.*?```", re.S)
# not measurements: addresses (a DOI's 10.5281) and licence versions (CC BY 4.0)
NAMES = re.compile(r"https?://\S+|\bCC BY(?:-[A-Z]+)* \d+\.\d+")
# a whole number standing alone (digits, or digits in groups of three after commas: 12,800);
# not a part of a decimal, a version or an identifier (f3, T1-T4, 24680b5, ENG18460)
# (nor the exponent of 5.6e-16)
WHOLE = re.compile(
    r"(?<![\w.,])(?<![eE][-+])-?\d{1,3}(?:,\d{3})+(?![\w.]|,\d)|(?<![\w.,])(?<![eE][-+])-?\d+(?![\w.]|,\d{3}(?!\d))"
)
# names, not measurements: references to a table, figure, section, issue, item, stop, equation or
# page (with their lists and ranges: Tables 2-4, items 1 and 3), and the year of a citation
REFERENCE = re.compile(
    r"\b(?:Tables?|Figures?|Fig\.|[Ss]ections?|§|[Ii]ssues?|[Ii]tems?|[Ss]tops?|[Ee]quations?|[Ee]q\.|pages?|pp?\.)"
    r"\s*\d+(?:(?:\s*(?:-|–|,|and|to)\s*)\d+)*"
    r"|\((?:[^()]*?,\s*)?(?:1[5-9]|20)\d\d[a-z]?\)|\bet al\.,?\s+(?:1[5-9]|20)\d\d\b"
)


def sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) of every ``##`` section of a markdown page, code blocks, addresses and
    licence names removed."""
    text = NAMES.sub("", FENCE.sub("", text))
    parts = re.split(r"^(## .*)$", text, flags=re.M)
    return [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts) - 1, 2)]


def _json_numbers(value) -> list[float]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int | float):
        return [float(value)]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _json_numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _json_numbers(v)]
    return []


def stored_values(folder: Path) -> np.ndarray:
    """Every finite number of the folder's CSV files and run.json, sorted."""
    values: list[float] = []
    for csv in sorted(folder.glob("*.csv")):
        frame = pd.read_csv(csv)
        numeric = frame.select_dtypes("number").to_numpy(dtype=float).ravel()
        values.extend(numeric[np.isfinite(numeric)].tolist())
    run = folder / "run.json"
    if run.is_file():
        values.extend(_json_numbers(json.loads(run.read_text(encoding="utf-8"))))
    return np.sort(np.asarray(values, dtype=float))


def untraced(body: str, values: np.ndarray) -> list[str]:
    """The decimal numbers of ``body`` that no stored value rounds to: ``|v - x| <= 10^-d / 2``
    for a number ``x`` written with ``d`` decimals."""
    missing = []
    for match in DECIMAL.finditer(body):
        written = match.group()
        x = float(written)
        half = 0.5 * 10.0 ** -len(written.split(".")[1]) * (1 + 1e-9)
        lo = np.searchsorted(values, x - half, side="left")
        hi = np.searchsorted(values, x + half, side="right")
        if hi <= lo:
            missing.append(written)
    return missing


def untraced_whole(body: str, values: np.ndarray) -> list[str]:
    """The whole numbers of ``body`` (references and citation years left out) that are not a stored
    value: ``x`` in ``values`` exactly (``1,600`` read as 1600)."""
    body = REFERENCE.sub(" ", body)
    missing = []
    for match in WHOLE.finditer(body):
        x = float(match.group().replace(",", ""))
        i = np.searchsorted(values, x - 1e-9, side="left")
        if i >= len(values) or abs(values[i] - x) > 1e-9:
            missing.append(match.group())
    return missing


def cited_sections() -> list[tuple[str, str, tuple[str, ...], str]]:
    """(page, heading, evidence folder names, body) of every docs section citing stored outputs."""
    found = []
    for page in sorted((REPO / "docs").glob("*.md")):
        for heading, body in sections(page.read_text(encoding="utf-8")):
            names = tuple(sorted(set(CITED.findall(body))))
            if names:
                found.append((page.name, heading, names, body))
    return found


def test_the_matcher_reports_a_number_not_stored(tmp_path):
    pd.DataFrame({"a": [0.12345, 7.0], "label": ["x", "y"]}).to_csv(tmp_path / "t.csv", index=False)
    (tmp_path / "run.json").write_text(json.dumps({"seeds": [0, 1], "rate": 0.5}))
    values = stored_values(tmp_path)
    assert values.tolist() == [0.0, 0.12345, 0.5, 1.0, 7.0]
    body = "KL 0.123 (0.1235), rate 0.50, ratio 7.00; but 0.124 and 0.12346 are not stored; 3 seeds, f1 v1.2.3"
    assert untraced(body, values) == ["0.124", "0.12346"]
    assert sections("## A\nx 0.1\n```\n0.9\n```\n## B\ny\n") == [("## A", "\nx 0.1\n\n"), ("## B", "\ny\n")]
    assert sections("## C\nCC BY 4.0, https://doi.org/10.5281/z.3 and 0.2\n") == [("## C", "\n,  and 0.2\n")]


def test_the_whole_number_matcher_reads_counts_and_leaves_names_out():
    values = np.array([-3.0, 0.0, 1.0, 4.0, 7.0, 1600.0, 1840.0, 12800.0])
    body = (
        "1,600 marks and 12800 more, 7 seeds (T1-T4, f3, f9, 24680b5, torch 2.13.0, 0.5 and 8.25); "
        "Tables 2-4, section 3, issue 26 item 2, Stamatatos (2017), Smith et al., 2023, "
        "(Darmon et al., 2019); a range 1840-1920, -3 and 12,345 and 5 and 6%, p below 5.6e-16 or 1e+25"
    )
    assert untraced_whole(body, values) == ["1920", "12,345", "5", "6"]


def test_some_section_cites_stored_outputs():
    assert {name for _, _, names, _ in cited_sections() for name in names} >= {"editions", "languages"}


CITING = cited_sections()


@pytest.mark.parametrize(
    ("page", "heading", "names", "body"), CITING, ids=[f"{p}:{'+'.join(n)}:{h[3:40]}" for p, h, n, _ in CITING]
)
def test_every_decimal_of_a_citing_section_is_a_stored_value(page, heading, names, body):
    for name in names:
        assert (EVIDENCE / name).is_dir(), f"docs/{page} {heading}: cites docs/evidence/{name}/, which does not exist"
    values = np.sort(np.concatenate([stored_values(EVIDENCE / name) for name in names]))
    missing = untraced(body, values)
    cited = ", ".join(f"docs/evidence/{name}/" for name in names)
    assert not missing, f"docs/{page} {heading}: numbers not in {cited}: {', '.join(missing)}"


RECORD_CITING = [case for case in CITING if case[0] in ("results.md", "performance.md", "method.md", "languages.md")]


@pytest.mark.parametrize(
    ("page", "heading", "names", "body"), RECORD_CITING,
    ids=[f"{p}:{'+'.join(n)}:{h[3:40]}" for p, h, n, _ in RECORD_CITING],
)  # fmt: skip
def test_every_whole_number_of_a_record_section_is_a_stored_value(page, heading, names, body):
    """Issue 35's target: 100% of the numbers of the record traced, counts included."""
    values = np.sort(np.concatenate([stored_values(EVIDENCE / name) for name in names]))
    missing = untraced_whole(CITED.sub(" ", body), values)
    cited = ", ".join(f"docs/evidence/{name}/" for name in names)
    assert not missing, f"docs/{page} {heading}: whole numbers not in {cited}: {', '.join(missing)}"


def absolute_paths(value: object) -> list[str]:
    """The strings of a parsed JSON value that name an absolute path (``/...``, ``C:\\...``,
    ``~/...``)."""
    if isinstance(value, dict):
        return [path for item in value.values() for path in absolute_paths(item)]
    if isinstance(value, list):
        return [path for item in value for path in absolute_paths(item)]
    if isinstance(value, str) and re.match(r"(/|~/|[A-Za-z]:\\)", value):
        return [value]
    return []


def test_no_stored_run_names_a_folder_of_a_developers_machine():
    """A run.json describes its corpus (counts, a fingerprint of its book ids), not its path."""
    assert absolute_paths({"a": ["/tmp/x", "ELTeC-eng/a.xml"], "b": {"c": "~/d"}}) == ["/tmp/x", "~/d"]
    found = {str(path.relative_to(REPO)): absolute_paths(json.loads(path.read_text(encoding="utf-8")))
             for path in sorted(EVIDENCE.rglob("*.json"))}  # fmt: skip
    assert {name: paths for name, paths in found.items() if paths} == {}


# The project's record (issues 34 and 35): every section of these pages that quotes a decimal cites the
# stored outputs it comes from, but those listed here, which are not traced yet.
RECORD_PAGES = ("results.md", "performance.md", "method.md", "languages.md")
NOT_TRACED_YET: set[tuple[str, str]] = set()


def uncited_sections(pages: tuple[str, ...]) -> set[tuple[str, str]]:
    """(page, heading) of every section of ``pages`` with a number (a decimal, or a whole number
    that is not a reference) and no cited folder; the text above a page's first ``##`` heading is
    the section ``(preamble)``."""
    found = set()
    for page in pages:
        text = (REPO / "docs" / page).read_text(encoding="utf-8")
        preamble = NAMES.sub("", FENCE.sub("", re.split(r"^## ", text, maxsplit=1, flags=re.M)[0]))
        for heading, body in [("(preamble)", preamble), *sections(text)]:
            quotes_numbers = DECIMAL.search(body) or WHOLE.search(REFERENCE.sub(" ", body))
            if quotes_numbers and not CITED.search(body):
                found.add((page, heading))
    return found


def test_every_section_of_the_record_quoting_numbers_cites_stored_outputs():
    """A new section with numbers must cite its evidence; a section traced leaves the list."""
    assert uncited_sections(RECORD_PAGES) == NOT_TRACED_YET
