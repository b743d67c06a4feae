"""The PLD refinement driver (issue 14): the predicted step, the float model that chooses the
first step, the CPU-second budget, the saddle-point locator of the Fourier route and the shared
float conversion of one-step PLDs."""

from __future__ import annotations

import math
import sys
import time
from fractions import Fraction

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import enclose, fourier, fourier_cost, passes, predict
from dpverify.theorems.numerics.pld.taylor import taylor_exact_step
from tests.test_pld import contains, gauss_eps, mp

discretize_module = sys.modules["dpverify.theorems.numerics.pld.discretize"]


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=1e-9, max_value=10.0))
def test_predicted_step_is_the_largest_eighth_quantum_below(x: float) -> None:
    h = enclose._predicted_step(x)
    assert 0 < h <= Fraction(x)
    e = math.floor(math.log2(h))
    m = h / Fraction(2) ** e  # the mantissa: one of 1, 9/8, ..., 15/8
    assert m in {Fraction(j, 8) for j in range(8, 16)}
    above = h + Fraction(2) ** e / 8  # the next quantum above h
    assert above > Fraction(x)
    assert taylor_exact_step(h)


def _fake_run(width_at_unit_h: float, sleep: float = 0.0, spin: float = 0.0):
    """A pass whose enclosure of 1 has relative width ``c h^2``, costing ``sleep`` seconds of
    wall time (no CPU) or ``spin`` seconds of CPU."""
    calls: list[Fraction] = []

    def run(h: Fraction) -> tuple[Fraction, Fraction]:
        calls.append(h)
        if sleep:
            time.sleep(sleep)
        end = time.process_time() + spin
        while time.process_time() < end:
            pass
        w = Fraction(width_at_unit_h) * h * h
        return 1 - w / 2, 1 + w / 2

    return run, calls


def _pair() -> pld.LossPair:
    return pld.sgm_pairs(Fraction(1, 100), Fraction(1), "add_remove")[0]


def test_two_passes_when_the_width_follows_the_h2_law() -> None:
    """The second step is predicted from c h^2 and meets the target: no third pass."""
    run, calls = _fake_run(300.0)
    enc = enclose._refine([_pair()], 10, run, 1e-5, 60.0, None)
    assert len(calls) == 2
    assert enc.rel_width() <= 1e-5
    # the coarsest quantised step of the law (with the margin), not a needlessly fine one
    law = float(calls[0]) * math.sqrt(1e-5 / enc.passes[0]["rel_width"])
    assert float(calls[1]) > 0.8 * law * enclose.MARGIN
    assert all("cpu" in p for p in enc.passes)


def test_wall_time_waits_do_not_force_coarser_passes() -> None:
    """A pass that waits (a loaded machine) but uses little CPU is predicted by its CPU time:
    the driver goes straight to the step of the target even with a small budget."""
    run, calls = _fake_run(300.0, sleep=0.3)
    enc = enclose._refine([_pair()], 10, run, 1e-5, 1.0, None)
    assert len(calls) == 2 and enc.rel_width() <= 1e-5


def test_the_cpu_budget_is_a_bound() -> None:
    """Passes that spend CPU stop the refinement when the next one would not fit: the
    enclosure is wider than asked (still the intersection of rigorous passes)."""
    run, calls = _fake_run(300.0, spin=0.2)
    enc = enclose._refine([_pair()], 10, run, 1e-12, 0.5, None)
    assert len(calls) <= 3
    assert enc.rel_width() > 1e-12


def test_the_wall_budget_is_a_bound_too() -> None:
    run, calls = _fake_run(300.0, sleep=0.2)
    enclose._refine([_pair()], 10, run, 1e-12, 0.1, None)
    assert len(calls) == 1


def _law_model(width_at_unit_h: float, spin: float = 0.0):
    """A float model predicting the fake pass of :func:`_fake_run` exactly."""

    def predict(h: Fraction) -> tuple[float, float]:
        end = time.process_time() + spin
        while time.process_time() < end:
            pass
        w = width_at_unit_h * float(h) ** 2
        return 1 - w / 2, 1 + w / 2

    return predict


def test_the_model_chooses_the_first_step() -> None:
    """With a model of the width law, the first rigorous pass is already at the law's step:
    one pass instead of two."""
    run, calls = _fake_run(300.0)
    enc = enclose._refine([_pair()], 10, run, 1e-5, 60.0, None, _law_model(300.0))
    assert len(calls) == 1 and enc.rel_width() <= 1e-5
    assert enc.model is not None and enc.model["rel_width"] > 1e-5
    law = float(Fraction(enc.model["h"])) * math.sqrt(1e-5 / enc.model["rel_width"])
    assert 0.8 * law * enclose.MARGIN < float(calls[0]) <= law * enclose.MARGIN


def test_without_a_model_a_first_pass_measures_the_law() -> None:
    run, calls = _fake_run(300.0)
    enc = enclose._refine([_pair()], 10, run, 1e-5, 60.0, None, lambda h: None)
    assert len(calls) == 2 and enc.model is None
    assert calls[0] == Fraction(enc.passes[0]["h"]) > calls[1]


def test_a_model_step_beyond_the_budget_is_not_taken() -> None:
    """The first rigorous pass chosen from the model is costed at ``MODEL_COST`` times the
    model's CPU time: with a small budget it is coarser than the law's step."""
    run, calls = _fake_run(300.0)
    enc = enclose._refine([_pair()], 10, run, 1e-5, 0.3, None, _law_model(300.0, spin=0.05))
    law = float(Fraction(enc.model["h"])) * math.sqrt(1e-5 / enc.model["rel_width"])
    assert float(calls[0]) > law


def test_float_model_reproduces_the_rigorous_pass() -> None:
    """At one step, the float model of a pass (the same constructions from float CDFs, the
    same composition) agrees with the rigorous pass to within 1 % of its width at both ends
    (a wrong Q-law, split or exchange in the model moves an end by a multiple of the width)."""
    directions = pld.sgm_composition([(Fraction(1, 100), Fraction(1), 200)])
    delta, h = Fraction(1, 10**5), Fraction(1, 128)
    abs_tol = 1e-5 * 2.0**-24
    _bits, tail = pld._plan(200, abs_tol)
    r_lo, r_hi = passes._eps_pass_parts(directions, delta, h, abs_tol, False, "fourier")
    got = predict.predicted_pass(directions, h, tail, lambda f: f.eps_float(1e-5), None, 1e-5)
    assert got is not None
    width = float(r_hi - r_lo)
    assert width > 0
    assert abs(got[0] - float(r_lo)) <= 0.01 * width
    assert abs(got[1] - float(r_hi)) <= 0.01 * width


def test_pairs_without_float_cdfs_have_no_model() -> None:
    assert predict.float_one_step(pld.Laplace(Fraction(1)), Fraction(1, 64), 1e-12) is None
    pair = pld.sgm_pairs(Fraction(1, 10), Fraction(1), "replace_one")[0]
    assert predict.float_one_step(pair, Fraction(1, 64), 1e-12) is None
    enc = pld.enclose_delta([pld.Laplace(Fraction(1))], 1, Fraction(1, 2), rel_width=1e-3)
    assert enc.model is None and enc.rel_width() <= 1e-3


def test_modelled_enclosure_contains_the_gaussian_value() -> None:
    """The driver with the model (q = 1, the Gaussian mechanism): the enclosure, from
    rigorous passes only, contains the exact value and meets the target."""
    pld._CACHE.clear()
    enc = pld.enclose_eps(pld.sgm_pairs(Fraction(1), Fraction(2)), 10, Fraction(1, 10**5),
                          rel_width=1e-4)
    assert enc.model is not None
    assert contains(enc, gauss_eps(mp.mpf(2) / mp.sqrt(10), mp.mpf("1e-5")))
    assert enc.rel_width() <= 1e-4
    assert all(Fraction(p["h"]) <= Fraction(enc.model["h"]) for p in enc.passes)


def test_deferred_lower_one_step_is_the_eager_one() -> None:
    """The lower PLD built on demand (after the upper, from the same tables) has the same
    masses, atom and shift as the one built with the upper in one go, and the cache builds
    it on the first call with ``lower`` without redoing the upper."""
    pair = pld.sgm_pairs(Fraction(1, 50), Fraction(1))[0]
    h, bits = Fraction(1, 1024), 70
    grid = discretize_module.grid_for(pair, h)
    eager_up, eager_lo = discretize_module.discretize(pair, grid, bits, 1e-14, lower=True)
    late_up, finish = discretize_module.discretize_deferred(pair, grid, bits, 1e-14)
    late_lo = finish()
    assert eager_lo is not None
    for a, b in ((eager_up, late_up), (eager_lo, late_lo)):
        assert (a.poly, a.inf, a.shift, a.kind) == (b.poly, b.inf, b.shift, b.kind)
    pld._CACHE.clear()
    up, lo = pld.one_step_plds(pair, h, bits, 1e-14, lower=False)
    assert lo is None
    up2, lo2 = pld.one_step_plds(pair, h, bits, 1e-14, lower=True)
    assert up2 is up and lo2 is not None
    assert pld.one_step_plds(pair, h, bits, 1e-14, lower=False)[1] is lo2


def test_a_pass_builds_the_lower_one_step_of_the_composed_direction_only() -> None:
    """Scenario-like add/remove composition: the pass composes the lower PLD of the direction
    with the larger upper end only, so the other direction's lower one-step PLD is never
    discretised (it cost 0.03-0.08 s a pass), and the pass is unchanged."""
    pld._CACHE.clear()
    directions = pld.sgm_composition([(Fraction(1, 100), Fraction(1), 200)])
    delta, h = Fraction(1, 10**5), Fraction(1, 128)
    got = passes._eps_pass_parts(directions, delta, h, 1e-5 * 2.0**-24, False, "fourier")
    built = {key[1]: one.lower is not None
             for key, one in pld._CACHE.items() if key[0] == "one"}
    assert sorted(built.values()) == [False, True]
    pld._CACHE.clear()
    bits, tail = pld._plan(200, 1e-5 * 2.0**-24)
    for parts in directions:  # the old order: every lower one-step PLD built first
        pld.one_step_plds(parts[0][0], h, bits, tail, lower=True)
    assert passes._eps_pass_parts(directions, delta, h, 1e-5 * 2.0**-24, False,
                                  "fourier") == got


@pytest.mark.parametrize(("q", "sigma"), [("256/60000", "11/10"), ("1/1000", "4/5"),
                                          ("1/2", "1/2")])
def test_quantiles_with_float_decisions_are_the_arb_ones(q: str, sigma: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The quantile bisection decided by the float CDFs away from u returns exactly the
    arb-only bisection's float (both directions, both tails, u from 0.1 to 1e-40)."""
    cases = [(u, upper) for u in (0.1, 1e-12, 1e-18, 2.0**-80, 1e-40) for upper in (False, True)]
    fast = {}
    for pair in pld.sgm_pairs(Fraction(q), Fraction(sigma)):
        for u, upper in cases:
            fast[(pair.direction, u, upper)] = pair._bisect_quantile(u, upper)
    monkeypatch.setattr(pld.LossPair, "_float_below", lambda *_a: None)
    for pair in pld.sgm_pairs(Fraction(q), Fraction(sigma)):
        for u, upper in cases:
            assert pair._bisect_quantile(u, upper) == fast[(pair.direction, u, upper)]


def _one_steps(h: Fraction) -> list[tuple[pld.DiscretePLD, int]]:
    bits, tail = pld._plan(1000, 1e-12)
    pair = pld.sgm_pairs(Fraction(1, 100), Fraction(1), "add_remove")[0]
    return [(pld.one_step_plds(pair, h, bits, tail, lower=False)[0], 1000)]


def _tilted_mean(ones: list[tuple[pld.DiscretePLD, int]], lam: float) -> float:
    out = 0.0
    for one, k in ones:
        z = float(one.shift) + float(one.h) * np.arange(len(one))
        with np.errstate(divide="ignore"):
            e = np.log(one.unit_floats()) + lam * z
        w = np.exp(e - np.max(e))
        out += k * float(np.dot(w, z) / np.sum(w))
    return out


@pytest.mark.parametrize("center", [0.3, 1.0, 1.8, 3.0])
def test_fourier_tilt_is_the_saddle_point(center: float) -> None:
    """The Newton locator's tilt puts the tilted composed mean at the centre, within its
    truncation to 8 significant bits (checked against the mean recomputed here)."""
    ones = _one_steps(Fraction(1, 256))
    lam = float(fourier.fourier_tilt(ones, center))
    assert lam > 0
    assert _tilted_mean(ones, lam * (1 - 2.0**-6)) <= center
    assert _tilted_mean(ones, lam * (1 + 2.0**-6)) >= center


def test_fourier_tilt_is_zero_below_the_untilted_mean() -> None:
    ones = _one_steps(Fraction(1, 256))
    assert fourier.fourier_tilt(ones, _tilted_mean(ones, 0.0) - 0.1) == 0
    assert fourier.fourier_tilt(ones, math.nan) == 0


def test_unit_floats_are_the_nearest_floats_of_the_integers() -> None:
    """Pins python-flint's ``fmpz.__float__`` rounding, which the error analyses of
    :mod:`.fourier` and :mod:`.fft` assume (nearest, relative error u): values that
    truncation and nearest rounding tell apart."""
    ints = [0, 1, 2**53 - 1, 2**53 + 1, 2**60 + 2**8 - 1, 2**60 + 2**7 + 1, 3**50, 2**70 - 1]
    d = pld.DiscretePLD("upper", Fraction(1, 8), Fraction(0), flint.fmpz_poly(ints), 0, 64, 0)
    got = d.unit_floats()
    assert got.tolist() == [float(i) for i in ints]
    assert got[4] == float(2**60 + 2**8)  # rounded up, not truncated
    assert not got.flags.writeable
    assert d.unit_floats() is got  # computed once
    d.poly = flint.fmpz_poly([5, 7])
    assert d.unit_floats().tolist() == [5.0, 7.0]  # a new poly is converted again


def test_from_discrete_rounds_outward_above_2_53() -> None:
    ints = [3, 2**53 + 1, 2**60]
    for kind in ("upper", "lower"):
        d = pld.DiscretePLD(kind, Fraction(1, 8), Fraction(0), flint.fmpz_poly(ints), 0, 0, 0)
        f = pld.FloatPLD.from_discrete(d)
        assert f.masses[0] == 3.0
        for v, i in zip(f.masses[1:].tolist(), ints[1:], strict=True):
            assert (Fraction(v) >= i) if kind == "upper" else (Fraction(v) <= i)


_NONNEG = st.one_of(
    st.floats(min_value=0.0, allow_nan=False, allow_infinity=True),
    st.integers(min_value=0, max_value=2**20).map(lambda i: i * 2.0**-1074),  # subnormals
    st.integers(min_value=-1074, max_value=1023).map(lambda e: 2.0**e),  # binade edges
    st.integers(min_value=-1073, max_value=1023).map(lambda e: math.nextafter(2.0**e, 0.0)),
)


@settings(max_examples=2000, deadline=None)
@given(_NONNEG)
def test_up_nonneg_is_at_least_one_float_up(x: float) -> None:
    """The cheap upward step of the Fourier bounds (scalar and array paths) is never below
    ``nextafter(x, +inf)`` and at most a few floats above it."""
    from dpverify.theorems.numerics.pld.fourier_pld import _up_nonneg

    nxt = math.nextafter(x, math.inf)
    for got in (float(_up_nonneg(x)), float(_up_nonneg(np.array([x]))[0])):
        assert got >= nxt
        if math.isfinite(nxt) and nxt < 2.0**1000:
            assert got <= math.nextafter(math.nextafter(math.nextafter(nxt, math.inf),
                                                        math.inf), math.inf) + 2.0**-1074


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(min_value=-1e3, max_value=1e3),
                          st.floats(min_value=-1e3, max_value=1e3)), min_size=1, max_size=300))
def test_fdot_is_within_the_dot_product_bound(pairs: list[tuple[float, float]]) -> None:
    """``fdot`` (the BLAS-free dot product of the certified queries) is within ``gamma_n
    sum |x_i y_i|`` of the exact value (Higham 2002, Sec. 3.1, any order)."""
    from dpverify.theorems.numerics.pld._arith import fdot

    x = np.array([a for a, _ in pairs])
    y = np.array([b for _, b in pairs])
    exact = sum((Fraction(a) * Fraction(b) for a, b in pairs), Fraction(0))
    n = len(pairs)
    gamma = Fraction(n, 2**53 - n)
    scale = sum((abs(Fraction(a) * Fraction(b)) for a, b in pairs), Fraction(0))
    assert abs(Fraction(fdot(x, y)) - exact) <= gamma * scale + Fraction(n, 2**1074)


def test_pld_engine_uses_no_blas_dot() -> None:
    """Multithreaded BLAS dots cost 10-50x their work in CPU on this machine (``_arith.fdot``):
    the PLD engine uses ``fdot`` instead."""
    import pathlib
    import re

    root = pathlib.Path(pld.__file__).resolve().parent
    offenders = [f"{path.name}:{i}" for path in sorted(root.glob("*.py"))
                 for i, line in enumerate(path.read_text().splitlines(), 1)
                 if re.search(r"np\.(dot|inner|vdot|matmul)\(|\.dot\(| @ ", line)]
    assert not offenders, offenders


@pytest.mark.parametrize("downward", [False, True])
@pytest.mark.parametrize("q, h", [("1/100", Fraction(1, 256)), ("256/60000", Fraction(3, 4096))])
def test_float_pouring_of_the_model_is_the_arb_pouring(q: str, h: Fraction,
                                                       downward: bool) -> None:
    """The model's pouring in floats places the atoms of :func:`.pour._lower_masses` (arb) on
    the same bins: every mass within 1e-9 of the total (a wrong target, fraction or emit
    moves whole bins, ~1e-4 of the total here)."""
    pair = pld.sgm_pairs(Fraction(q), Fraction(11, 10))[0]
    g = predict._model_grid(pair, h, 1e-16)
    assert g is not None
    n, hf, z0 = len(g.z), float(g.h), float(g.z[0])
    cuts = np.concatenate([[0.0], np.arange(n - 1) + 0.5, [n - 1.0]])
    pc, ps, qc, qs = g.cdfs(z0 + hf * cuts)
    p, qm = predict._differences(pc, ps), predict._differences(qc, qs)
    ez = np.exp(g.z)
    got = np.array(predict._poured_float(p.tolist(), qm.tolist(), ez.tolist(), z0, hf,
                                         downward))
    ball = [flint.arb(v) for v in p.tolist()], [flint.arb(v) for v in qm.tolist()]
    ref = pld.pour._lower_masses(*ball, [flint.arb(float(v)).exp() for v in g.z.tolist()],
                                 64, g.shift, g.h, downward=downward)
    ref_f = np.ldexp(np.array([float(v) for v in ref]), -64)
    assert float(np.sum(ref_f)) > 0.5
    assert float(np.max(np.abs(got - ref_f))) <= 1e-9 * float(np.sum(ref_f))


@pytest.mark.parametrize(("q", "sigma"), [("256/60000", "11/10"), ("1/1000", "4/5"),
                                          ("1/2", "1/2"), ("1", "2")])
def test_scalar_float_cdf_is_the_array_one(q: str, sigma: str) -> None:
    """``cdf_float_at`` (the quantile bisections' scalar path, libm's erfc) returns what
    ``cdf_sf_float`` (Cody's vectorised erfc) gives at that point within 1e-14 relative, both
    sides, across and beyond the support (below the add loss's lower edge, at 1e-300, near
    and past exp overflow)."""
    rng = np.random.default_rng(7)
    zs = [0.0, 1e-300, -1e-300, 708.9, 709.5, 709.9, 800.0, -800.0, 1e6, -1e6]
    zs += rng.normal(0.0, 3.0, 300).tolist() + rng.normal(0.0, 0.01, 100).tolist()
    for pair in pld.sgm_pairs(Fraction(q), Fraction(sigma)):
        for z in zs:
            with np.errstate(over="ignore"):
                cdf, sf = pair.cdf_sf_float(np.array([z]))
            for upper, want in ((False, float(cdf[0])), (True, float(sf[0]))):
                got = pair.cdf_float_at(z, upper)
                assert got == want or (math.isnan(got) and math.isnan(want)) \
                    or abs(got - want) <= 1e-14 * abs(want), (pair.direction, z, upper, got,
                                                               want)


def test_each_pass_is_told_its_predicted_width() -> None:
    """``_refine`` fills ``expect["width"]`` before each pass with the h^2 law's width at its
    step: from the model for the first pass, from the last pass afterwards; nothing without
    a prediction."""
    expect: dict[str, float] = {}
    seen: list[float | None] = []
    run, calls = _fake_run(300.0)

    def spy(h: Fraction) -> tuple[Fraction, Fraction]:
        seen.append(expect.get("width"))
        return run(h)

    enc = enclose._refine([_pair()], 10, spy, 1e-5, 60.0, None, _law_model(300.0), expect)
    assert enc.model is not None and len(seen) == 1
    want = enc.model["rel_width"] * float(calls[0] / Fraction(enc.model["h"])) ** 2
    assert seen[0] == pytest.approx(want) and seen[0] < 1e-5
    seen.clear()
    run, calls = _fake_run(300.0)
    enc = enclose._refine([_pair()], 10, spy, 1e-5, 60.0, None, None, expect)
    assert len(seen) == 2 and seen[0] is None
    first = enc.passes[0]["rel_width"] * float(calls[1] / calls[0]) ** 2
    assert seen[1] == pytest.approx(first)


def test_the_tilt_budget_is_a_share_of_the_predicted_slack() -> None:
    assert enclose._tilt_budget(1e-5, {}) is None
    assert enclose._tilt_budget(1e-5, {"width": 7e-6}) == pytest.approx(
        enclose.TILT_SHARE * 3e-6 / 2)
    floor = fourier_cost.TILT_BUDGET * 1e-5  # never below the rule without a model
    assert enclose._tilt_budget(1e-5, {"width": 9.9e-6}) == pytest.approx(floor)
    assert enclose._tilt_budget(1e-5, {"width": 2e-5}) == pytest.approx(floor)
