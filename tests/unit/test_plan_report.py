"""The report's categories (punctstyle.plan.report): sections numbered by what ran (issue 38)."""

from __future__ import annotations

from types import SimpleNamespace

from punctstyle.plan.report import ReportFlags, Section, section_names


def test_sections_are_numbered_by_what_ran():
    assert section_names(True) == {
        "intro": "1. Introduction", "data": "2. Data and features", "authors": "3. Author analysis",
        "genres": "4. Genre analysis", "temporal": "5. Temporal analysis",
        "appendix": "Appendix: author and genre lists",
    }
    without = section_names(False)
    assert "genres" not in without
    assert without["temporal"] == "4. Temporal analysis"  # not 1, 2, 3, 5
    assert without["appendix"] == "Appendix: author lists"
    numbers = [int(name.split(".")[0]) for key, name in without.items() if key != "appendix"]
    assert numbers == list(range(1, len(numbers) + 1))
    assert (Section.INTRO, Section.DATA, Section.AUTHORS) == ("1. Introduction", "2. Data and features",
                                                              "3. Author analysis")


def test_the_flags_ask_whether_the_genre_analysis_ran_when_the_report_is_built():
    ran = {"genres": True}
    flags = ReportFlags("r").with_genre_check(lambda: ran["genres"])
    wildcards = SimpleNamespace()
    temporal = flags.section("temporal")
    appendix = flags.section("appendix")
    assert temporal(wildcards) == "5. Temporal analysis" and appendix(wildcards).endswith("author and genre lists")
    ran["genres"] = False  # asked again each time: decided by the corpus, known only after the run
    assert temporal(wildcards) == "4. Temporal analysis" and appendix(wildcards) == "Appendix: author lists"
    figure = flags.temporal_figure("f1_by_decade", "Punctuation over time")
    assert figure.flags["report"].category(wildcards) == "4. Temporal analysis"
    assert ReportFlags("r").section("temporal") == "5. Temporal analysis"  # no check: the full paper
