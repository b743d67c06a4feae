"""Tests of the certified queries of a Fourier-composed PLD on its suffix-sum table
(theorems/numerics/pld/fourier_pld.py, module docstring "Query table") and of the eps search.

References: the exact weighted sum ``sum_t v+_t m'_t`` of the window at 40 digits (mpmath, the
weights from their definition), the exact composition of the same one-step PLDs (integer
polynomial powers, tests/test_pld_fourier.py), bisection on the same certified predicate.
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from dpverify.theorems.ctx import arb_precision
from dpverify.theorems.numerics import pld
from dpverify.theorems.numerics.pld import fourier, fourier_pld, passes
from tests.test_pld import mp
from tests.test_pld_fourier import exact_composition, one_steps

CASES = [
    ([(pld.SubsampledGaussian(Fraction(1, 20), Fraction(1), "add"), 6)], Fraction(1, 128), 1.0),
    ([(pld.SubsampledGaussian(Fraction(1, 10), Fraction(4, 5), "remove"), 5)],
     Fraction(1, 128), 1.0),
    ([(pld.SubsampledGaussian(Fraction(1, 10), Fraction(1), "add"), 60)], Fraction(1, 64), 2.0),
    ([(pld.Laplace(Fraction(1)), 5)], Fraction(1, 64), 2.0),
]
DELTA = Fraction(1, 10**4)
SHORT_SPAN, SHORT_MARGIN = (1.0, 3.0), (0.5, 2.0)  # tables ending before the window's end


@pytest.fixture(autouse=True)
def _fourier_at_every_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(passes, "FOURIER_MIN_SIZE", 0)


def composed(case: tuple, kind: str) -> fourier.FourierPLD:
    pairs, h, center = case
    ones = one_steps(pairs, h, kind)
    return fourier.compose_fourier(ones, fourier.fourier_tilt(ones, center))


def exact_weighted_sum(four: fourier.FourierPLD, eps: Fraction, t0: int, end: int) -> mp.mpf:
    """``sum_{t0 <= t < end} max(v_t, 0) m'_t`` at 40 digits, the weights from their
    definition ``e^{-lam h (t - t0)} (1 - e^{eps - z_t})``."""
    with mp.workdps(40):
        lam_h = mp.mpf(four.lam_h.numerator) / four.lam_h.denominator
        h = mp.mpf(four.h.numerator) / four.h.denominator
        rho = mp.exp(mp.mpf((eps - four.start - t0 * four.h).numerator)
                     / (eps - four.start - t0 * four.h).denominator)
        total = mp.mpf(0)
        for t in range(t0, end):
            v = float(four.values[t])
            if v > 0:
                s = t - t0
                total += mp.mpf(v) * mp.exp(-lam_h * s) * (1 - rho * mp.exp(-h * s))
        return total


def check_table_dots(four: fourier.FourierPLD, points: int = 12) -> None:
    """At queries spread over the table (and cells' interiors): the table's ball holds the
    exact weighted sum over the table; for the upper kind, whose ball adds the bound of the
    terms beyond the table, its upper end holds the whole window's."""
    tab = four._table
    assert tab is not None
    n = len(four.values)
    step = max(1, (tab.b - tab.a) // points)
    for t0 in range(tab.a, min(tab.b, n - 1), step):
        for frac in (Fraction(0), Fraction(1, 3), Fraction(99, 100)):
            eps = four.start + (t0 - 1 + frac) * four.h
            assert math.floor((eps - four.start) / four.h) + 1 == t0
            ball = four._table_dot(tab, t0, eps)
            inside = exact_weighted_sum(four, eps, t0, tab.b)
            whole = exact_weighted_sum(four, eps, t0, n) if four.kind == "upper" else inside
            beyond = 0  # the upper kind's bound of the terms beyond, up to its rounding
            if four.kind == "upper" and tab.b < n:
                with mp.workdps(40):
                    rest = mp.fsum(mp.mpf(float(x)) for x in four.values[tab.b:] if x > 0)
                    c1 = mp.mpf(four.lam_h.numerator) / four.lam_h.denominator
                    beyond = mp.exp(-c1 * (tab.b - t0)) * rest * (1 + mp.mpf(2)**-40)
            assert mp.mpf(ball.lower()) <= inside + beyond, (t0, frac, ball, inside)
            assert whole <= mp.mpf(ball.upper()), (t0, frac, ball, whole)


@pytest.mark.parametrize("case", CASES[:3])
@pytest.mark.parametrize("kind", ["upper", "lower"])
@pytest.mark.parametrize("span", [fourier_pld.TABLE_SPAN, SHORT_SPAN])
def test_table_ball_holds_the_exact_weighted_sum(case: tuple, kind: str, span: tuple,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Default tables (reaching the window's end) and short ones (the terms beyond counted)."""
    monkeypatch.setattr(fourier_pld, "TABLE_SPAN", span)
    if span == SHORT_SPAN:
        monkeypatch.setattr(fourier_pld, "TABLE_MARGIN", SHORT_MARGIN)
    four = composed(case, kind)
    four._locate(float(DELTA))
    if span == SHORT_SPAN and case is CASES[2]:
        assert four._table is not None and four._table.b < len(four.values)
    check_table_dots(four)


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_table_and_dot_product_queries_agree(case: tuple, kind: str) -> None:
    """The table's bound and the dot product's bound of the same query are on the same side
    of the exact composition's delta, and the table's is at least as tight (within 1e-12)."""
    four = composed(case, kind)
    exact = exact_composition(one_steps(case[0], case[1], kind))
    center = Fraction(four._locate(float(DELTA)))
    tab = four._table
    for off in (-20, -3, 0, 2, 15):
        eps = center + off * four.h / 3
        on_table = four.delta_at(eps)
        four._table = None
        direct = four.delta_at(eps)
        four._table = tab
        truth = exact.delta_at(eps)
        if kind == "upper":
            assert truth.upper() <= on_table.upper()
            assert on_table.upper() <= direct.upper() + 1e-12 * abs(direct.upper())
        else:
            assert truth.lower() >= on_table.lower()
            assert on_table.lower() >= direct.lower() - 1e-12 * abs(direct.lower())


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_eps_bound_is_certified_and_within_resolution(case: tuple, kind: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The eps search: its result holds (certified, and against the exact composition), the
    same predicate fails within 2 RESOLUTION of it, it agrees with bisection on that predicate
    over the window, and every query it makes is on the table (no dot product)."""
    four = composed(case, kind)
    exact = exact_composition(one_steps(case[0], case[1], kind))
    dots = []
    real = fourier.FourierPLD._direct_dot
    monkeypatch.setattr(fourier.FourierPLD, "_direct_dot",
                        lambda self, t0, eps: dots.append(eps) or real(self, t0, eps))
    e = four.eps_bound(DELTA)
    assert dots == []
    upper = kind == "upper"

    def ok(x: Fraction) -> bool:
        d = four.delta_at(x)
        return bool(d <= pld._arb(DELTA)) if upper else bool(d > pld._arb(DELTA))

    assert ok(e)
    assert (exact.delta_at(e) <= pld._arb(DELTA)) if upper else (exact.delta_at(e) >
                                                                 pld._arb(DELTA))
    step = Fraction(2 * fourier_pld.RESOLUTION) * max(1, abs(e))
    assert not ok(e - step if upper else e + step)
    bottom, top = four.start, four.start + len(four.values) * four.h
    bis = fourier_pld._bisect(ok, bottom, top, upper, 2.0**-46)
    assert abs(float(e - bis)) <= 2 * fourier_pld.RESOLUTION * max(1.0, abs(float(e)))


@pytest.mark.parametrize("kind", ["upper", "lower"])
def test_eps_bound_without_a_table_is_certified(kind: str, monkeypatch: pytest.MonkeyPatch
                                                ) -> None:
    """The dot-product route (no table, e.g. a crossing where no table can be built) gives a
    certified result within COARSE_RESOLUTION of the table route's."""
    case = CASES[2]
    with_table = composed(case, kind).eps_bound(DELTA)
    monkeypatch.setattr(fourier.FourierPLD, "_build_table", lambda self, p: None)
    four = composed(case, kind)
    e = four.eps_bound(DELTA)
    assert four._table is None
    exact = exact_composition(one_steps(case[0], case[1], kind))
    if kind == "upper":
        assert exact.delta_at(e) <= pld._arb(DELTA) and four.delta_at(e) <= pld._arb(DELTA)
    else:
        assert exact.delta_at(e) > pld._arb(DELTA) and four.delta_at(e) > pld._arb(DELTA)
    assert abs(float(e - with_table)) <= 4 * fourier_pld.COARSE_RESOLUTION * float(abs(e))


def test_positive_sum_bound_covers_the_exact_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    """The chunked bound of ``sum(max(x, 0))`` is at least the exact sum (math.fsum) and
    within its stated slack ``2 gamma_{N+2}`` (about ``2 N u``, relative) of it, across chunk
    boundaries (chunks of 1, 7 and the default)."""
    import numpy as np

    rng = np.random.default_rng(7)
    for chunk in (1, 7, fourier_pld.CROSSING_CHUNK):
        monkeypatch.setattr(fourier_pld, "CROSSING_CHUNK", chunk)
        for size in (1, 5, 100, 70_000):
            x = rng.standard_normal(size) * 10.0 ** rng.integers(-300, 3, size)
            exact = math.fsum(float(v) for v in x if v > 0)
            got = fourier_pld._positive_sum_up(x)
            assert exact <= got <= exact * (1 + 3 * (size + 2) * 2.0**-53) + 1e-300, (chunk, size)


DECAY_RATES = [Fraction(1, 8000), Fraction(95, 32768), Fraction(1, 64), Fraction(3, 2)]


def check_decay_table(c: Fraction, t: int) -> None:
    """Every sampled entry of the decaying table (block boundaries and random indices) is
    within its stated relative error of ``e^{-c i}`` (arb, 128 bits)."""
    import flint
    import numpy as np

    from dpverify.theorems.numerics.pld import decay

    table, rel = decay.reciprocal(c, t)
    assert len(table) == t
    idx = {0, 1, t - 1} | {i for i in range(0, t, decay._BLOCK)} | {
        i - 1 for i in range(decay._BLOCK, t, decay._BLOCK)}
    idx |= set(np.random.default_rng(3).integers(0, t, 200).tolist())
    with arb_precision(128):
        for i in sorted(idx):
            exact = (-pld._arb(c * i)).exp()
            err = abs(flint.arb(float(table[i])) - exact) / exact
            assert err.upper() <= rel, (c, i, float(table[i]), rel)


@pytest.mark.parametrize("c", DECAY_RATES)
def test_decay_tables_are_within_their_bound_and_prefixes(c: Fraction) -> None:
    """Within the stated error, up to the capacity; and every table is the prefix of the
    longest one, whatever was built before (a shorter table first, or after a cleared
    cache)."""
    from dpverify.theorems.numerics.pld import decay

    cap = decay.capacity(c)
    t = min(cap, 200_000)
    check_decay_table(c, t)
    decay._RECIP.clear()
    short = decay.reciprocal(c, min(t, 777))[0].copy()
    long = decay.reciprocal(c, t)[0]
    assert (long[:len(short)] == short).all()
    decay._RECIP.clear()
    assert (decay.reciprocal(c, t)[0] == long).all()
    with pytest.raises(pld.PrecisionExhausted):
        decay.reciprocal(c, cap + decay._BLOCK + 1)
