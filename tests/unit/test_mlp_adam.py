"""``recognition.mlp.adam`` (issue 37 item 3): the config option reaches the networks' optimiser,
the fused and the grouped update on one exact step, a bad value refused in one line."""

from __future__ import annotations

import dataclasses

import pytest
import torch

from punctstyle import classifiers
from punctstyle.classifiers import mlp
from punctstyle.classifiers.options import classifier_params, options_by_classifier
from punctstyle.settings import config_error, schema_default, schema_defaults
from tests.unit.recognition_data import gaussian_classes, mlp_params


def test_the_default_is_the_grouped_update():
    assert schema_default("recognition", "mlp", "adam") == "foreach"
    assert mlp.MLPParams.from_config({}).adam == "foreach"


def test_the_config_option_reaches_the_optimiser(monkeypatch):
    built = []
    real = mlp.adam

    def spy(parameters, learning_rate, update="foreach"):
        built.append(real(parameters, learning_rate, update))
        return built[-1]

    monkeypatch.setattr(mlp, "adam", spy)
    X, y = gaussian_classes(2, 10, 3, seed=1)
    for update in ("fused", "foreach"):
        config = schema_defaults()
        config["recognition"]["mlp"].update(hidden_units=8, max_epochs=2, adam=update, device="cpu")
        # the workflow's road: the rule's params, then the factory's options
        options = options_by_classifier(config, classifier_params(config, ["mlp"]), 1)["mlp"]
        assert options["params"]["adam"] == update
        model = classifiers.build_classifier("mlp", seed=0, feature_set=("f1",), **options).fit(X, y)
        assert model.params.adam == update and model.fitted_state()[1]["protocol"]["adam"] == update
        group = built[-1].param_groups[0]
        assert bool(group["fused"]) is (update == "fused") and bool(group["foreach"]) is (update == "foreach")
    assert len(built) == 2


def one_step(update: str, w0: torch.Tensor, gradient: torch.Tensor, learning_rate: float) -> torch.Tensor:
    weights = torch.nn.Parameter(w0.clone())
    optimiser = mlp.adam([weights], learning_rate, update)
    weights.grad = gradient.clone()
    optimiser.step()
    return weights.detach()


def test_one_step_of_the_fused_and_the_grouped_update_on_an_exact_example():
    # Adam's first step: m = (1 - b1) g, v = (1 - b2) g^2, and with the bias corrections
    # w1 = w0 - lr * g / (|g| + eps): each weight moves by lr (to float32 rounding), against its gradient
    w0 = torch.tensor([1.0, -2.0, 0.5, 0.0, 3.0])
    gradient = torch.tensor([0.5, -0.25, 2.0, 1.0, -4.0])
    learning_rate = 1e-3
    exact = w0.double() - learning_rate * gradient.double() / (gradient.double().abs() + 1e-8)
    after = {update: one_step(update, w0, gradient, learning_rate) for update in mlp.ADAM_UPDATES}
    for update, weights in after.items():
        assert float((weights.double() - exact).abs().max()) <= 2.4e-7, update  # one float32 ulp of 2 or 3
    # the two updates agree to one ulp on the first step (to the bit on the machine measured)
    assert float((after["fused"] - after["foreach"]).abs().max()) <= 2.4e-7


def test_through_training_the_two_updates_give_other_networks():
    X, y = gaussian_classes(3, 20, 6, seed=2)
    params = mlp_params(hidden=32, max_epochs=30, patience=30, batch_size=16)
    trained = {update: mlp.train_mlp(X, y, params=dataclasses.replace(params, adam=update), seed=0,
                                     num_threads=1) for update in mlp.ADAM_UPDATES}
    weights = {update: torch.cat([p.detach().ravel() for p in model.network.parameters()])
               for update, model in trained.items()}
    difference = float((weights["fused"] - weights["foreach"]).abs().max())
    # 4 steps an epoch, 30 epochs: the weights part (3.0e-8 on the machine measured)
    assert 0 < difference < 1e-6
    assert trained["fused"].epochs == trained["foreach"].epochs == 30


def test_a_bad_update_is_refused_in_one_line():
    config = {**schema_defaults(), "outdir": "x"}
    config["recognition"]["mlp"]["adam"] = "fast"
    error = config_error(config)
    assert error.startswith("config recognition.mlp.adam: 'fast' is not one of") and "\n" not in error
    with pytest.raises(ValueError, match=r"^bad MLP Adam update 'fast': expected one of \('foreach', 'fused'\)$"):
        mlp.MLPParams.from_config({"adam": "fast"})
    with pytest.raises(ValueError, match="bad Adam update 'fast'"):
        mlp.adam([torch.nn.Parameter(torch.zeros(1))], 1e-3, "fast")


def test_a_fit_stored_before_the_option_loads_as_the_grouped_update():
    X, y = gaussian_classes(2, 10, 3, seed=1)
    params = mlp_params(hidden=8, max_epochs=2)
    model = mlp.MLPClassifier(seed=0, feature_set=("f1",), params=params, num_threads=1).fit(X, y)
    arrays, meta = model.fitted_state()
    old = {**meta, "protocol": {k: v for k, v in meta["protocol"].items() if k != "adam"}}
    fresh = mlp.MLPClassifier(seed=0, feature_set=("f1",), params=params, num_threads=1)
    assert (fresh.load_fitted_state(arrays, old).predict(X) == model.predict(X)).all()
    fused = mlp.MLPClassifier(seed=0, feature_set=("f1",), params=mlp_params(hidden=8, max_epochs=2, adam="fused"))
    with pytest.raises(ValueError, match="protocol differ"):
        fused.load_fitted_state(arrays, old)
