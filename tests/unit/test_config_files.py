"""A config file that does not parse is named in one line (issue 22 item 5)."""

from __future__ import annotations

from pathlib import Path

import yaml

from punctstyle.settings import config_file_error, configfile_arguments, main

REPO = Path(__file__).resolve().parents[2]


def test_a_flow_list_with_braces_is_named_with_its_line(tmp_path):
    bad = tmp_path / "my.yaml"
    bad.write_text("outdir: out\nmirror:\n  url_templates: [cache/epub/{id}/pg{id}.txt, files/{id}/{id}-0.txt]\n")
    error = config_file_error(bad)
    assert error.startswith(f"{bad}: not valid YAML: line 3, column ")
    assert "\n" not in error


def test_other_problems_are_one_line_too(tmp_path):
    assert config_file_error(tmp_path / "none.yaml").startswith(f"{tmp_path / 'none.yaml'}: cannot read the config file")
    listing = tmp_path / "list.yaml"
    listing.write_text("- a\n- b\n")
    assert config_file_error(listing) == f"{listing}: the config file must be a mapping of keys (found a list)"
    binary = tmp_path / "bin.yaml"
    binary.write_bytes(b"outdir: \xff\xfe\n")
    assert config_file_error(binary).startswith(f"{binary}: not a UTF-8 text")
    good = tmp_path / "good.yaml"
    good.write_text('mirror:\n  url_templates:\n    - "cache/epub/{id}/pg{id}.txt"\n')
    assert config_file_error(good) is None


def test_the_shipped_configs_and_their_commented_examples_parse():
    for path in sorted((REPO / "config").glob("*.yaml")):
        assert config_file_error(path) is None, path
    # the commented url_templates example of config/config.yaml, uncommented, is valid YAML
    lines = (REPO / "config" / "config.yaml").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "#   url_templates:")
    block = []
    for line in lines[start:]:
        if not line.lstrip().startswith("#   "):
            break
        block.append(line.lstrip()[2:])
    example = yaml.safe_load("\n".join(block))
    assert example["url_templates"][0] == "cache/epub/{id}/pg{id}.txt" and len(example["url_templates"]) == 5


def test_the_run_script_check_reads_configfile_options(tmp_path, capsys):
    assert configfile_arguments(["--cores", "2", "--configfile", "a.yaml", "b.yaml", "-n"]) == ["a.yaml", "b.yaml"]
    assert configfile_arguments(["--configfile=c.yaml", "--configfiles", "d.yaml"]) == ["c.yaml", "d.yaml"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [x, {y]\n")
    assert main(["--cores", "1", "--configfile", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"punctstyle: {bad}: not valid YAML: line 1") and "\n" not in err
    assert main(["--configfile", str(REPO / "config" / "test.yaml")]) == 0
