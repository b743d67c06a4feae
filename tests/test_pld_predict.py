"""The float model's cheaper parts (:mod:`.predict`): the model mode of the Fourier composition,
the Newton Chernoff locator (:mod:`.log_mgf`), the model PLDs without ``fmpz_poly``."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import (
    composition,
    fourier,
    fourier_window,
    log_mgf,
    passes,
    predict,
)

H = Fraction(1, 256)
K = 300


def _ones(kind: str = "upper", q: str = "1/50", k: int = K) -> list:
    pair = pld.sgm_pairs(Fraction(q), Fraction(1))[0]
    bits, tail = passes._plan(k, 1e-5 * 2.0**-24)
    up, lo = composition.one_step_plds(pair, H, bits, tail)
    return [(up if kind == "upper" else lo, k)]


@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_model_mode_is_the_rigorous_window_without_its_bounds(kind: str) -> None:
    """The model mode computes the same window (tilt, locator, fold, transforms, power,
    inverse): the same values, start and scale; its error terms are 0 and it certifies
    nothing (eps_bound raises), while the rigorous one keeps its positive error terms."""
    ones = _ones(kind)
    lam = fourier.fourier_tilt(ones, 2.0)
    exact = fourier.compose_fourier(ones, lam)
    model = fourier.compose_fourier(ones, lam, model=True)
    assert isinstance(model, fourier.FourierModel)
    assert not isinstance(exact, fourier.FourierModel)
    assert (model.start, model.lam_h, len(model)) == (exact.start, exact.lam_h, len(exact))
    assert np.array_equal(model.values, exact.values)
    assert float(model.log_c.mid()) == float(exact.log_c.mid())
    assert model.eta == model.a == 0 and exact.eta > 0 and exact.a > 0
    assert model.eps_float(1e-5) == exact.eps_float(1e-5)
    with pytest.raises(TypeError):
        model.eps_bound(Fraction(1, 10**5))
    at = Fraction(2)
    ball, sure = model.delta_at(at), exact.delta_at(at)
    assert not ball.is_finite()  # no certified comparison holds on a model's value
    assert not (ball <= 1) and not (ball >= 0)
    assert abs(float(ball.mid()) - float(sure.mid())) <= 1e-9 * abs(float(sure.mid()))


def test_model_inf_atom_is_the_exact_one() -> None:
    """The model's ``+inf`` atom (floats, no cancellation) is the arb one to 1e-12 relative,
    here with an atom planted at ``+inf`` of 2^-30 of the mass."""
    (one, _k), = _ones()
    planted = pld.DiscretePLD(one.kind, one.h, one.shift, one.poly,
                              one.inf + (one.total_units() >> 30), one.B, one.trim)
    ones = [(planted, 7), (one, 5)]
    exact = fourier._inf_mass(ones)
    got = fourier._inf_mass_float(ones)
    assert float(exact.mid()) > 0
    assert abs(got / float(exact.mid()) - 1) < 1e-12


def _value(mgf: log_mgf.LogMgf, lam: float, delta: float) -> float:
    cgf = mgf.moments(lam)[0]
    return (cgf - math.log(delta) + lam * math.log(lam) - (lam + 1) * math.log1p(lam)) / lam


@pytest.mark.parametrize(("q", "delta"), [("1/50", 1e-5), ("1/5", 1e-8), ("1/1000", 1e-6)])
def test_newton_chernoff_is_the_minimum_over_lam(q: str, delta: float) -> None:
    """The Newton locator returns the minimum of the RDP-style conversion over ``LAM_RANGE``:
    at most the least value on the old 121-point grid, and within 1e-9 (relative) of the
    least value on a fine grid (20001 points, refined around its best point)."""
    ones = _ones("upper", q)
    mgf = log_mgf.LogMgf(ones)
    got = mgf.chernoff(delta)
    grid = min(_value(mgf, lam, delta) for lam in np.geomspace(1e-3, 1e3, 121).tolist())
    assert got <= grid
    fine = np.geomspace(1e-3, 1e3, 20001).tolist()
    best = min(fine, key=lambda lam: _value(mgf, lam, delta))
    finer = np.linspace(best / 1.001, best * 1.001, 2001).tolist()
    ref = min(_value(mgf, lam, delta) for lam in finer)
    assert abs(got - ref) <= 1e-9 * abs(ref)
    assert got == log_mgf.chernoff_eps(ones, delta) == fourier.chernoff_eps(ones, delta)


def test_model_pld_builds_the_same_discrete_pld() -> None:
    """The model's one-step PLDs without ``fmpz_poly``: where the model composes exactly, the
    DiscretePLD built on demand holds the same integers and floats."""
    pair = pld.sgm_pairs(Fraction(1, 50), Fraction(1))[0]
    g = predict._model_grid(pair, H, 1e-16)
    assert g is not None
    model = predict._upper(g)
    d = model.discrete()
    assert d is model.discrete()
    assert len(d) == len(model) and d.inf == model.inf and d.B == predict.UNIT_BITS
    assert np.array_equal(d.unit_floats(), model.unit_floats())
    assert [int(c) for c in d.poly.coeffs()] == [int(v) for v in model.units.tolist()]
    got = predict.float_one_step(pair, H, 1e-16)
    assert got is not None and got[0].poly == d.poly


def test_model_window_takes_a_shorter_smooth_length_within_the_tail() -> None:
    """Scenario B's add direction (the model's one-step PLD at the driver's first step): the
    model's window is 3/4 of the rigorous one's power of 2 (pocketfft's radix 3), its right
    tail within ``TAIL`` by the same locator, and its eps estimate the rigorous window's to
    1e-12 (relative): the aliased mass it admits is far below the estimate's resolution."""
    pair = pld.sgm_pairs(Fraction(1, 1000), Fraction(4, 5))[0]
    h, k = Fraction(3, 16384), 10000
    g = predict._model_grid(pair, h, passes._plan(k, 1e-6 * 2.0**-24)[1])
    assert g is not None
    ones = [(predict._upper(g), k)]
    mgf = log_mgf.LogMgf(ones)
    lam = mgf.tilt(mgf.chernoff(1e-6))
    exact = fourier.compose_fourier([(one.discrete(), k) for one, k in ones], lam)
    model = fourier.compose_fourier(ones, lam, model=True)
    assert len(model) < len(exact)
    assert len(model) in {len(exact) // 8 * e for e in fourier_window.MODEL_LENGTHS}
    assert abs(model.eps_float(1e-6) / exact.eps_float(1e-6) - 1) < 1e-12


def test_tilt_from_a_coarser_grids_tilt_is_the_same_dyadic() -> None:
    """Newton started at the tilt of the same centre on a 4x coarser grid (the model's step
    against the pass's) reaches the tilt found from 0, in fewer evaluations of the moments."""
    pair = pld.sgm_pairs(Fraction(1, 50), Fraction(1))[0]
    bits, tail = passes._plan(K, 1e-5 * 2.0**-24)
    coarse = log_mgf.LogMgf([(composition.one_step_plds(pair, H, bits, tail)[0], K)])
    fine_ones = [(composition.one_step_plds(pair, H / 4, bits, tail)[0], K)]
    for center in (1.0, 2.0, 3.0):
        fine = _Counted(fine_ones)
        base = fine.tilt(center)
        n_base, fine.calls = fine.calls, 0
        got = fine.tilt(center, start=float(coarse.tilt(center)))
        assert got == base and 0 < got
        assert fine.calls < n_base


class _Counted(log_mgf.LogMgf):
    calls = 0

    def moments(self, lam: float) -> tuple[float, float, float]:
        self.calls += 1
        return super().moments(lam)


def test_lower_model_in_the_upper_models_window() -> None:
    """The lower model composed in the upper model's window (no locator of its own) gives the
    eps estimate of its own window to 1e-12 (relative); an ``o`` past the composition's end
    is clamped."""
    ups, los = _ones("upper"), _ones("lower")
    lam = fourier.fourier_tilt(ups, 2.0)
    up = fourier.compose_fourier(ups, lam, model=True)
    own = fourier.compose_fourier(los, lam, model=True)
    o = round((up.start - los[0][0].shift * K) / H)
    shared = fourier.compose_fourier(los, lam, model=True, window=(o, len(up)))
    assert (shared.start, len(shared)) == (up.start, len(up)) != (own.start, len(own))
    assert abs(shared.eps_float(1e-5) / own.eps_float(1e-5) - 1) < 1e-12
    far = fourier.compose_fourier(los, lam, model=True, window=(10**9, len(up)))
    assert far.start + len(far) * H <= los[0][0].shift * K + (len(los[0][0]) - 1) * K * H + H


@pytest.mark.parametrize(("q", "sigma", "h"), [("1/1000", "4/5", Fraction(3, 16384)),
                                               ("1/100", "1", Fraction(1, 512))])
def test_dual_upper_reads_the_add_bin_ends(q: str, sigma: str, h: Fraction) -> None:
    """The remove pair's grid points are the negated bin ends of the add pair's grid: its CDFs
    read there agree with its own evaluation to 1e-11 of each CDF (the points differ by their
    rounding, amplified near the support's edge, where the loss is singular in y), and the add
    lower model built from the shared bin ends is the one built alone, bit for bit."""
    add, remove = pld.sgm_pairs(Fraction(q), Fraction(sigma))
    tail = 1e-16
    ga, gr = predict._model_grid(add, h, tail), predict._model_grid(remove, h, tail)
    assert ga is not None and gr is not None and gr.dual == add.key()
    ends = predict._BinEnds(ga)
    shared = predict._dual_cdfs(gr, ends)
    assert shared is not None
    for got, want in zip(shared, gr.cdfs(gr.z), strict=True):
        assert np.all(np.abs(got - want) <= 1e-11 * np.maximum(want, 1e-300) + 1e-300)
    alone = predict._lower(ga)
    together = predict._lower(ga, ends)
    assert np.array_equal(alone.units, together.units) and alone.inf == together.inf
