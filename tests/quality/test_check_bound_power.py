"""The bound checker's power: unsound bounds caught with certified counterexamples (one wrong
only in a corner, one wrong only inside the region), sound bounds never failed, a tight bound at
ratio 1. None of these bounds is known to the product."""

from __future__ import annotations

import math

import pytest

import dpverify

REGION = {"eps0": (0.01, 1), "k": (1, 200), "delta": (1e-10, 1e-2)}
GAUSS = {"sigma": (0.5, 20), "k": (1, 100), "delta": (1e-10, 1e-2)}


def _drv(eps0: float, k: int, delta: float) -> float:
    return k * eps0 * math.expm1(eps0) + eps0 * math.sqrt(2 * k * math.log(1 / delta))


def corner_flaw(eps0: float, k: int, delta: float) -> float:
    """Advanced composition, except a planted wrong value for eps0 > 0.9 and k > 150."""
    return 0.3 * k * eps0 if (eps0 > 0.9 and k > 150) else _drv(eps0, k, delta)


def interior_flaw(eps0: float, k: int, delta: float) -> float:
    """Advanced composition with a planted dent around eps0 = 0.93, k = 170 (no corner)."""
    d = math.hypot((eps0 - 0.93) / 0.99, (k - 170) / 199)
    return _drv(eps0, k, delta) * (1 - 0.85 * max(0.0, 1 - d / 0.25))


def _certified(r: dpverify.BoundCheck) -> None:
    cx = r.counterexample
    assert r.verdict == "failed" and cx is not None
    bound = max(cx["bound"]) if isinstance(cx["bound"], list) else cx["bound"]
    assert cx["reference"][0] > bound and cx["margin"] > 0


@pytest.mark.parametrize(("target", "against", "region"), [
    ("eps0*sqrt(2*k*log(1/delta))", "optimal-composition", REGION),
    ("k*eps0^2/2", "optimal-composition", REGION),
    ("sqrt(2*k*log(1/delta))/sigma", "gaussian", GAUSS),
    (corner_flaw, "optimal-composition", REGION),
])
def test_unsound_bounds_are_caught_with_certified_counterexamples(target, against, region):
    _certified(dpverify.check_bound(target, against=against, region=region, seed=0,
                                    budget=60))


def test_a_flaw_inside_the_region_is_found():
    _certified(dpverify.check_bound(interior_flaw, against="optimal-composition",
                                    region=REGION, seed=3, budget=60))


@pytest.mark.parametrize(("target", "against", "region"), [
    ("k*eps0", "optimal-composition", REGION),
    ("k*eps0^2/2 + eps0*sqrt(2*k*log(1/delta))", "optimal-composition",
     {"eps0": (0.05, 1), "k": (1, 40), "delta": (1e-8, 1e-3)}),
    ("KOV-34.eps", "optimal-composition", REGION),
    ("k/(2*sigma^2) + sqrt(2*k*log(1/delta))/sigma", "gaussian", GAUSS),
    (_drv, "optimal-composition", REGION),
])
def test_sound_bounds_are_never_failed(target, against, region):
    r = dpverify.check_bound(target, against=against, region=region, seed=1, budget=40)
    assert r.verdict in ("proved", "passed", "inconclusive")
    assert r.counterexample is None and r.document["points"]["violated"] == 0


def test_a_tight_bound_reports_ratio_1():
    r = dpverify.check_bound("KOV-EPS.eps", against="optimal-composition",
                             region={"eps0": (0.1, 1), "k": (1, 30), "delta": (1e-8, 1e-3)},
                             seed=0, budget=60)
    assert r.verdict != "failed"
    assert r.tightness["min"] == pytest.approx(1, abs=1e-12)
    assert r.tightness["max"] == pytest.approx(1, abs=1e-12)
