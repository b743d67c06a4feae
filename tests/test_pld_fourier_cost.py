"""Tests of the tilt chosen for cost (theorems/numerics/pld/fourier_cost.py) and of its use by
``composition_pld(..., "fourier", target=...)``.

References: the exact composition of the same one-step PLDs (``fmpz_poly`` powers, in arb;
tests/test_pld_fourier.py), the composition at the saddle tilt, the measured relative error of
step 5's two formulas on the composed window.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import flint
import pytest

from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import composition, fourier, fourier_cost
from tests.test_pld_fourier import exact_composition, one_steps

PAIR = pld.SubsampledGaussian(Fraction(1, 20), Fraction(4, 5), "add")
K, H, EPS = 50, Fraction(1, 64), 3.0  # saddle window 4096, a cost tilt's 2048


@pytest.fixture(autouse=True)
def _small_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cost tilt is tried on windows from 2^10 points (the product's MIN_WINDOW is 2^16:
    these tests are about the choice, not its threshold)."""
    monkeypatch.setattr(fourier_cost, "MIN_WINDOW", 1 << 10)


def _ones(kind: str) -> list[tuple[pld.DiscretePLD, int]]:
    return one_steps([(PAIR, K)], H, kind)


def test_without_target_or_delta_the_saddle_is_kept() -> None:
    ups = _ones("upper")
    lam_s = fourier.fourier_tilt(ups, EPS)
    assert fourier_cost.cost_tilt(ups, lam_s, EPS, 4e-4, 0.0) == lam_s
    assert fourier_cost.cost_tilt(ups, lam_s, EPS, None, 1e-3) == lam_s
    assert fourier_cost.cost_tilt(ups, Fraction(0), EPS, 4e-4, 1e-3) == 0


OTHER = pld.SubsampledGaussian(Fraction(1, 5), Fraction(2), "add")  # saddle window 2048


@pytest.mark.parametrize("pair", [PAIR, OTHER])
@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_cost_tilt_halves_the_window_and_brackets_the_exact_composition(
        kind: str, pair: pld.LossPair) -> None:
    """The cost tilt lies in [lam_s / 2, lam_s), its window is half the saddle's, its
    predicted and measured relative errors agree within 25 % and are within budget, and its
    bounds stay on the right side of the exact composition's, within that error (x 6)."""
    ones, ups = one_steps([(pair, K)], H, kind), one_steps([(pair, K)], H, "upper")
    exact = exact_composition(ones)
    delta = float(exact.delta_at(Fraction(EPS)).mid())
    lam_s = fourier.fourier_tilt(ups, EPS)
    lam = fourier_cost.cost_tilt(ups, lam_s, EPS, delta, 1e-3)
    assert lam_s / 2 <= lam < lam_s
    saddle, four = fourier.compose_fourier(ones, lam_s), fourier.compose_fourier(ones, lam)
    assert len(four) * 2 == len(saddle)
    measured = fourier_cost.relative_error(four, EPS)
    probe = fourier_cost.probe(fourier_cost.coarse(ones), H, lam)
    predicted = fourier_cost.predicted_error(probe, len(four), H, EPS, delta)
    assert abs(predicted / measured - 1) < 0.25
    assert measured <= fourier_cost.allowed_error(lam_s, EPS, 1e-3)
    assert measured > fourier_cost.relative_error(saddle, EPS)  # the price of the cost
    for e in ("2.5", "3", "3.5"):
        got, ex = four.delta_bound(Fraction(e)), exact.delta_at(Fraction(e))
        if kind == "upper":
            assert got.upper() >= ex.upper()
            assert float(got.upper() - ex.lower()) <= 6 * measured * float(ex.lower())
        else:
            assert got.lower() <= ex.lower()
            assert float(ex.upper() - got.lower()) <= 6 * measured * float(ex.upper())


def test_relative_error_is_outside_the_window_infinite() -> None:
    four = fourier.compose_fourier(_ones("upper"), Fraction(2))
    below = float(four.start) - 1.0
    assert fourier_cost.relative_error(four, below) == float("inf")


def _composition(target: float, kind: str = "upper") -> fourier.FourierPLD:
    composition._CACHE.clear()
    composition._CACHE_ORDER.clear()
    composition._DECISIONS.clear()
    bits, tail = pld._plan(K, 1e-14)
    return composition.composition_pld([(PAIR, K)], H, bits, tail, kind, "fourier", EPS,
                                       Fraction(4, 10**4), target)


def test_composition_takes_the_cost_tilt_only_with_a_target() -> None:
    lam_s = fourier.fourier_tilt(_ones("upper"), EPS)
    assert _composition(0.0).lam_h == lam_s * H
    for kind in ("upper", "lower"):
        got = _composition(1e-3, kind)
        assert got.lam_h < lam_s * H
        assert fourier_cost.relative_error(got, EPS) <= fourier_cost.allowed_error(
            lam_s, EPS, 1e-3)


def test_composition_recomposes_at_the_saddle_when_the_check_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A prediction that accepts a tilt whose measured error is over budget (planted: the
    predicted error 0, the budget 10^-9 of the measured one) ends at the saddle tilt."""
    lam_s = fourier.fourier_tilt(_ones("upper"), EPS)
    monkeypatch.setattr(fourier_cost, "predicted_error", lambda *_a, **_k: 0.0)
    monkeypatch.setattr(fourier_cost, "TILT_BUDGET", 1e-12)
    assert fourier_cost.cost_tilt(_ones("upper"), lam_s, EPS, 4e-4, 1e-3) < lam_s
    assert _composition(1e-3).lam_h == lam_s * H
    bits, tail = pld._plan(K, 1e-14)  # the lower kind after it: the verdict is shared
    lower = composition.composition_pld([(PAIR, K)], H, bits, tail, "lower", "fourier", EPS,
                                        Fraction(4, 10**4), 1e-3)
    assert lower.lam_h == lam_s * H


FINE = Fraction(1, 2048)  # one-step std of PAIR ~2^8 steps: blocks of 2^5 entries
SADDLE_CASES = [(PAIR, 2.0), (PAIR, EPS), (PAIR, 4.0), (OTHER, 3.0), (OTHER, 5.0)]


def check_blocked_saddle(pair: pld.SubsampledGaussian, center: float) -> None:
    """The saddle found on the cost search's blocks (of many entries at step ``FINE``) is
    :func:`.fourier.fourier_tilt`'s (the entries' tilted mean at ``center``) to within one
    unit of its 8 significant bits."""
    ups = one_steps([(pair, K)], FINE, "upper")
    parts = fourier_cost.coarse(ups)
    assert parts[0].w >= 15
    want = fourier.fourier_tilt(ups, center)
    got = fourier_cost.blocked_saddle(parts, FINE, center)
    assert got is not None and want > 0
    assert abs(got - want) <= want / 128, (float(got), float(want))


@pytest.mark.parametrize(("pair", "center"), SADDLE_CASES)
def test_blocked_saddle_is_the_saddle_of_the_entries(pair: pld.SubsampledGaussian,
                                                     center: float) -> None:
    check_blocked_saddle(pair, center)


def test_blocked_saddle_zero_below_the_mean_and_none_past_its_reach(
        monkeypatch: pytest.MonkeyPatch) -> None:
    parts = fourier_cost.coarse(one_steps([(PAIR, K)], FINE, "upper"))
    assert fourier_cost.blocked_saddle(parts, FINE, -1.0) == 0  # the untilted mean is above
    assert fourier_cost.blocked_saddle(parts, FINE, float("nan")) == 0
    assert fourier_cost.blocked_saddle(parts, FINE, EPS) is not None
    monkeypatch.setattr(fourier_cost, "SADDLE_REACH", 0.0)  # blocks of width > 0 only
    assert parts[0].w > 0
    assert fourier_cost.blocked_saddle(parts, FINE, EPS) is None


def test_composition_with_a_target_tilts_from_the_blocked_saddle(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a target the saddle comes from the blocks (``fourier_tilt`` is not run), and the
    composition at the tilt chosen still brackets the exact one."""
    composition._CACHE.clear()
    composition._DECISIONS.clear()
    calls: list[float] = []
    real = fourier.fourier_tilt
    monkeypatch.setattr(composition, "fourier_tilt",
                        lambda ones, c: calls.append(c) or real(ones, c))
    for kind in ("upper", "lower"):
        got = _composition(1e-3, kind)
        exact = exact_composition(_ones(kind))
        truth, bound = exact.delta_at(Fraction(EPS)), got.delta_bound(Fraction(EPS))
        if kind == "upper":
            assert bound.upper() >= truth.upper()
        else:
            assert bound.lower() <= truth.lower()
    assert calls == []


QPAIR, QK, QEPS = pld.SubsampledGaussian(Fraction(1, 50), Fraction(4, 5), "add"), 50, 3.0
#   saddle window 4096, 2048 at lam_s / 2, 1024 at lam_s / 4: a quarter window within reach


def _q_ones(kind: str) -> list[tuple[pld.DiscretePLD, int]]:
    return one_steps([(QPAIR, QK)], H, kind)


@functools.cache
def _q_exact(kind: str) -> flint.arb:
    return exact_composition(_q_ones(kind)).delta_at(Fraction(QEPS))


def _q_delta() -> float:
    return float(_q_exact("upper").mid())


def _budgeted(kind: str, budget: float) -> fourier.FourierPLD:
    bits, tail = pld._plan(QK, 1e-14)
    return composition.composition_pld([(QPAIR, QK)], H, bits, tail, kind, "fourier", QEPS,
                                       Fraction(_q_delta()), 1e-3, budget)


def _q_saddle() -> tuple[Fraction, int]:
    ups = _q_ones("upper")
    lam_s = fourier.fourier_tilt(ups, QEPS)
    return lam_s, len(fourier.compose_fourier(ups, lam_s))


def test_a_budget_tries_a_quarter_window_first() -> None:
    """With the driver's budget (here one any error fits) the search adds the largest tilt
    in [lam_s / 4, lam_s / 2) whose window is a quarter of the saddle's, before the half
    window's; without a budget, only the half window's (today's rule)."""
    ups, delta = _q_ones("upper"), _q_delta()
    lam_s, n_s = _q_saddle()
    assert fourier_cost.cost_tilts(ups, lam_s, QEPS, delta, 1e-3) == [
        fourier_cost.cost_tilt(ups, lam_s, QEPS, delta, 1e-3)]
    quarter, half = fourier_cost.cost_tilts(ups, lam_s, QEPS, delta, 1e-3, budget=1.0)
    assert lam_s / 4 <= quarter < lam_s / 2 <= half < lam_s
    assert len(fourier.compose_fourier(ups, quarter)) * 4 == n_s
    assert len(fourier.compose_fourier(ups, half)) * 2 == n_s
    # a budget no error fits: no candidate
    assert fourier_cost.cost_tilts(ups, lam_s, QEPS, delta, 1e-3, budget=1e-30) == []


def test_a_miss_at_a_quarter_window_recomposes_at_the_half_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A quarter window whose measured error fails the check (planted: every window below
    half the saddle's fails) sends both kinds to the half window, not to the saddle; the
    kinds share the verdicts."""
    composition._CACHE.clear()
    composition._DECISIONS.clear()
    _lam_s, n_s = _q_saddle()
    checked: list[int] = []

    def check(four: fourier.FourierPLD, *_a: object) -> bool:
        checked.append(len(four))
        return len(four) * 2 >= n_s

    monkeypatch.setattr(composition, "within_budget", check)
    for kind in ("upper", "lower"):
        assert len(_budgeted(kind, 1.0)) * 2 == n_s
    assert checked == [n_s // 4, n_s // 2]


def test_a_budgeted_composition_stays_within_its_budget() -> None:
    """The composition chosen with a budget has a measured error within it (whatever
    candidate the check kept), and brackets the exact composition."""
    lam_s, _n_s = _q_saddle()
    exact = {kind: _q_exact(kind) for kind in ("upper", "lower")}
    for budget in (1e-9, 1e-6, 1e-3):
        composition._CACHE.clear()
        composition._DECISIONS.clear()
        for kind in ("upper", "lower"):
            got = _budgeted(kind, budget)
            assert fourier_cost.relative_error(got, QEPS) <= budget * float(lam_s) * QEPS
            bound = got.delta_bound(Fraction(QEPS))
            if kind == "upper":
                assert bound.upper() >= exact[kind].upper()
            else:
                assert bound.lower() <= exact[kind].lower()
