"""DRS-SUBSAMPLE claim 4 (C_q(f) >= f, C_1(f) = f, C_q decreasing in q) for the f_{eps0,delta0}
and G_mu bases: f_approx against a brute-force hull in mpmath (an independent route), the
registered checks hold, and planted wrong formulas are refuted."""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction
from typing import Any

import mpmath
import pytest

from dpverify.theorems.ctx import make_ctx
from dpverify.verifiers.verdict import Status

# x = e^eps0 = 3, delta0 = 1/10, q = 1/2: every vertex abscissa of f_q and f_q^{-1} is a multiple
# of 1/80 (f's kink is 9/40), so the lower hull of the curve min{f_q, f_q^{-1}} sampled at
# i/400 has the exact hull's vertices, and its chords are C_q(f) exactly.
_X, _D, _Q, _N = 3, Fraction(1, 10), Fraction(1, 2), 400


def _mp(v: Fraction) -> mpmath.mpf:
    return mpmath.mpf(v.numerator) / v.denominator


def _f(a: mpmath.mpf) -> mpmath.mpf:
    """f_{eps0,delta0} from its definition as a maximum of three lines (x = e^eps0)."""
    d = _mp(_D)
    return max(mpmath.mpf(0), 1 - d - _X * a, (1 - d - a) / _X)


def _fq(a: mpmath.mpf) -> mpmath.mpf:
    return _mp(_Q) * _f(a) + (1 - _mp(_Q)) * (1 - a)


def _fq_inverse(t: mpmath.mpf) -> mpmath.mpf:
    """inf{a : f_q(a) <= t} by bisection (f_q is strictly decreasing for q < 1)."""
    if t >= _fq(mpmath.mpf(0)):
        return mpmath.mpf(0)
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _fq(mid) > t else (lo, mid)
    return hi


@functools.cache
def _curve_on_grid() -> tuple[mpmath.mpf, ...]:
    with mpmath.workdps(40):
        return tuple(min(_fq(t), _fq_inverse(t))
                     for t in (mpmath.mpf(i) / _N for i in range(_N + 1)))


def _brute_force_hull(a: mpmath.mpf) -> mpmath.mpf:
    """min over grid points u <= a <= v of the chord of h = min{f_q, f_q^{-1}}."""
    ts = [mpmath.mpf(i) / _N for i in range(_N + 1)]
    h = _curve_on_grid()
    best = mpmath.inf
    left = [i for i in range(_N + 1) if ts[i] <= a]
    right = [i for i in range(_N + 1) if ts[i] >= a]
    for i, j in itertools.product(left, right):
        chord = h[i] if i == j else h[i] + (h[j] - h[i]) * (a - ts[i]) / (ts[j] - ts[i])
        best = min(best, chord)
    return best


@pytest.mark.parametrize("a", ["0.013", "0.1", "9/40", "0.37", "0.5", "0.71", "0.96"])
def test_subsample_approx_f_equals_a_brute_force_hull(a: str) -> None:
    from dpverify.theorems.formulas.tradeoff import subsample_approx_f

    mp = make_ctx("mp")
    fpr = Fraction(a)
    with mpmath.workdps(40):
        want = _brute_force_hull(_mp(fpr))
        got = subsample_approx_f(mp, mp.log(mp.num(_X)), mp.num(_D), mp.num(_Q), mp.num(fpr))
        assert abs(got - want) < mpmath.mpf(10) ** -30
        assert got >= _f(_mp(fpr))


def test_brute_force_hull_catches_a_hull_without_the_inverse_branch() -> None:
    """The hull of f_q's vertices alone (f_q^{-1} forgotten) is f_q: a valid but weaker curve
    that satisfies all of claim 4 (f_q >= f, f_1 = f, f_q decreasing in q), so claim 4 cannot
    catch it; the brute-force golden does (and claim 5, tests/test_fdp_regions.py)."""
    from dpverify.theorems.formulas.tradeoff import interpolate, lower_hull, subsample_approx_points

    mp = make_ctx("mp")
    with mpmath.workdps(40):
        fq_only = subsample_approx_points(mp, mp.log(mp.num(_X)), mp.num(_D), mp.num(_Q))[:4]
        wrong = interpolate(mp, lower_hull(mp, fq_only), mp.num(Fraction(1, 2)))
        assert wrong - _brute_force_hull(mpmath.mpf(1) / 2) > mpmath.mpf("0.09")


def _claim4(part_prefix: str) -> list:  # type: ignore[type-arg]
    from dpverify.theorems import get

    claim = next(c for c in get("DRS-SUBSAMPLE").claims if c.number == 4)
    return [c for c in claim.checks if c.part.startswith(part_prefix)]


def _statuses(part_prefix: str) -> dict[tuple[str, str], Status]:
    from tests.common.planted import planted_verdict

    return {(c.part, c.route): planted_verdict(c, "fdp").status for c in _claim4(part_prefix)}


def test_claim4_parts_cover_three_bases_and_three_conjuncts() -> None:
    parts = {c.part for c in _claim4("")}
    assert parts == {f"{b} {c}" for b in ("rr", "approx", "gauss")
                     for c in ("above", "one", "decreasing")}


def test_claim4_approx_base_is_proved_and_searched() -> None:
    statuses = _statuses("approx")
    assert {s for (_, r), s in statuses.items() if r == "smt"} == {Status.PROVED}
    assert {s for (_, r), s in statuses.items() if r == "property"} == {Status.PASSED}


def _f_vertices(ctx, eps0, delta0):  # type: ignore[no-untyped-def]
    kink = (1 - delta0) / (1 + ctx.exp(eps0))
    return ((ctx.zero, 1 - delta0), (kink, kink), (1 - delta0, ctx.zero), (ctx.one, ctx.zero))


def _swapped_points(ctx, eps0, delta0, q):  # type: ignore[no-untyped-def]
    """The mixture weights swapped: f_q = (1 - q) f + q Id, so C_1 = Id and C_q increases in q."""
    fq = [(a, (1 - q) * b + q * (1 - a)) for a, b in _f_vertices(ctx, eps0, delta0)]
    return fq + [(b, a) for a, b in fq]


def _plant_approx_points(monkeypatch: pytest.MonkeyPatch, points: Any) -> None:
    """Plant ``points`` (eps0, delta0, q -> hull points) in both routes of the approx base: the
    z3 problems read them from smt_forms, the searches through the hull of subsample_approx_f."""
    from dpverify.theorems.fdp import smt_forms, subsample_order
    from dpverify.theorems.formulas.tradeoff import interpolate, lower_hull

    def planted_f(ctx, eps0, delta0, q, fpr):  # type: ignore[no-untyped-def]
        return interpolate(ctx, lower_hull(ctx, points(ctx, eps0, delta0, q)), fpr)

    monkeypatch.setattr(smt_forms, "subsample_approx_points", points)
    monkeypatch.setattr(subsample_order, "subsample_approx_f", planted_f)


def test_claim4_approx_refutes_swapped_mixture_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    _plant_approx_points(monkeypatch, _swapped_points)
    statuses = _statuses("approx")
    assert statuses[("approx one", "smt")] is Status.FAILED
    assert statuses[("approx decreasing", "smt")] is Status.FAILED
    assert statuses[("approx one", "property")] is Status.FAILED
    assert statuses[("approx decreasing", "property")] is Status.FAILED


def test_claim4_gauss_base_is_searched_and_refutes_swapped_weights(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from dpverify.theorems.fdp import subsample_order
    from dpverify.theorems.formulas import tradeoff

    assert set(_statuses("gauss").values()) == {Status.PASSED}

    def wrong_fq(ctx, mu, q, fpr):  # type: ignore[no-untyped-def]
        return (1 - q) * tradeoff.f_gauss(ctx, mu, fpr) + q * (1 - fpr)

    def wrong_f(ctx, q, sigma, fpr):  # type: ignore[no-untyped-def]
        with monkeypatch.context() as m:
            m.setattr(tradeoff, "subsample_gauss_fq", wrong_fq)
            return tradeoff.subsample_gauss_f(ctx, q, sigma, fpr)

    monkeypatch.setattr(subsample_order, "subsample_gauss_f", wrong_f)
    statuses = _statuses("gauss")
    assert statuses[("gauss one", "property")] is Status.FAILED
    assert statuses[("gauss decreasing", "property")] is Status.FAILED


def test_claim4_approx_above_refutes_a_wrong_kink(monkeypatch: pytest.MonkeyPatch) -> None:
    """f's kink placed at (1 - delta0)/(2 + e^eps0), off the curve: the point (k, k) lies below
    f there, so C_q(f) >= f is refuted (by z3 and by the search)."""
    def wrong_points(ctx, eps0, delta0, q):  # type: ignore[no-untyped-def]
        kink = (1 - delta0) / (2 + ctx.exp(eps0))
        f = ((ctx.zero, 1 - delta0), (kink, kink), (1 - delta0, ctx.zero), (ctx.one, ctx.zero))
        fq = [(a, q * b + (1 - q) * (1 - a)) for a, b in f]
        return fq + [(b, a) for a, b in fq]

    _plant_approx_points(monkeypatch, wrong_points)
    statuses = _statuses("approx above")
    assert statuses[("approx above", "smt")] is Status.FAILED
    assert statuses[("approx above", "property")] is Status.FAILED
