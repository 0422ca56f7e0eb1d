"""The one loader of the settings classes (punctstyle.settings.load_settings): defaults stated
once, in the schema; values given the schema's types, as Snakemake's ``--config`` hands them
over (nested values are strings)."""

from __future__ import annotations

import dataclasses

import pytest

from punctstyle.attribution.bundle import AttributionSettings
from punctstyle.attribution.collaborations import RollingSettings
from punctstyle.attribution.verification_run import VerificationSettings
from punctstyle.descriptive.maps import MapSettings
from punctstyle.classifiers.mlp import MLPParams
from punctstyle.classifiers.sequence_cnn import SequenceParams
from punctstyle.settings import load_settings, schema_default, schema_typed, schema_values

SETTINGS_CLASSES = (MLPParams, SequenceParams, VerificationSettings, AttributionSettings, MapSettings, RollingSettings)


@pytest.mark.parametrize("cls", SETTINGS_CLASSES, ids=lambda cls: cls.__name__)
def test_an_empty_block_reads_the_schemas_defaults(cls):
    settings = cls.from_config({})
    assert settings == cls.from_config(schema_default(*cls.SECTION))
    names = getattr(cls, "SCHEMA_NAMES", {})
    block = schema_default(*cls.SECTION)
    for field in dataclasses.fields(cls):
        key = names.get(field.name, field.name)
        if key in block:  # a config key: no default of the class's own
            assert field.default is dataclasses.MISSING, f"{cls.__name__}.{field.name} restates the schema"
            value = getattr(settings, field.name)
            assert value == (tuple(block[key]) if isinstance(block[key], list) else block[key])


def test_command_line_strings_get_the_schemas_types():
    # snakemake --config 'recognition={"mlp": {"hidden_units": "64", ...}}' hands strings over
    mlp = MLPParams.from_config({"hidden_units": "64", "learning_rate": "0.01", "tolerance": "0",
                                 "stopping": "validation", "threads": "3", "device": "cpu"})
    assert (mlp.hidden, mlp.learning_rate, mlp.tolerance, mlp.stopping) == (64, 0.01, 0.0, "validation")
    assert type(mlp.hidden) is int and type(mlp.learning_rate) is float and type(mlp.tolerance) is float
    verification = VerificationSettings.from_config({"max_texts": "null", "lengths": ["800", "200", "800"],
                                                     "seeds": ["4"], "iterations": "7", "feature_share": "1"})
    assert verification.max_texts is None and verification.lengths == (200, 800) and verification.seeds == (4,)
    assert verification.imposters.iterations == 7 and verification.imposters.feature_share == 1.0
    assert type(verification.imposters.feature_share) is float
    assert VerificationSettings.from_config({"max_texts": "12"}).max_texts == 12
    rolling = RollingSettings.from_config({"seeds": ["0", "2"], "part_marks": ["100", "200"], "window": "50"})
    assert rolling.seeds == (0, 2) and rolling.part_marks == (100, 200) and rolling.window == 50
    maps = MapSettings.from_config({"consensus_strength": "1", "seed": "3"})
    assert maps.consensus_strength == 1.0 and type(maps.consensus_strength) is float and maps.seed == 3
    sweep = MapSettings.from_config({"consensus": "random", "consensus_sweep_min": "1", "consensus_sweep_step": "0.2"})
    assert sweep.consensus == "random" and sweep.consensus_sweep_min == 1.0 and type(sweep.consensus_sweep_min) is float
    assert sweep.consensus_sweep_step == 0.2 and MapSettings.from_config({}).consensus == "sweep"
    attribution = AttributionSettings.from_config({"mark_grid": ["10", "20"], "fraction": "1"})
    assert attribution.mark_grid == (10, 20) and attribution.fraction == 1.0
    assert SequenceParams.from_config({"epochs": "3", "learning_rate": "1"}).learning_rate == 1.0


def test_schema_typed_reads_a_value_as_its_node_asks():
    assert schema_typed("3", {"type": "integer"}) == 3
    assert schema_typed(2, {"type": "number"}) == 2.0 and type(schema_typed(2, {"type": "number"})) is float
    assert schema_typed(2, {"type": ["integer", "null"]}) == 2
    assert schema_typed("null", {"type": ["integer", "null"]}) is None
    assert schema_typed("all", {"anyOf": [{"type": "integer"}, {"type": "string", "enum": ["all"]}]}) == "all"
    assert schema_typed(["1", 2], {"type": "array", "items": {"type": "number"}}) == (1.0, 2.0)
    assert schema_typed(True, {"type": "boolean"}) is True


def test_schema_values_leave_out_undeclared_keys_and_name_an_unknown_block():
    assert "no_such_key" not in schema_values(("maps",), {"no_such_key": 1})
    with pytest.raises(KeyError, match="no_such_block"):
        schema_values(("no_such_block",), {})


def test_a_field_without_a_config_key_keeps_the_class_default():
    assert RollingSettings.from_config({}).kinds == RollingSettings.__dataclass_fields__["kinds"].default
    assert load_settings(RollingSettings, {"methods": ["kl_f3"]}).methods == ("kl_f3",)
