"""theorems.shuffle_discrete (DLAP, CKS20-DGAUSS, WBK19-SUBRDP): golden values of every
evaluator by independent mpmath routes (direct sums with explicit wide windows, bisection,
plain transcriptions) at 32 digits, the catalogue's worked values, the rigour of the truncation
enclosures and bad inputs."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import flint
import mpmath
import pytest

from dpverify.theorems import all_theorems, get
from dpverify.theorems.core import bind
from dpverify.theorems.ctx import ArbCtx, MpCtx
from dpverify.theorems.errors import InvalidParameter
from dpverify.theorems.formulas.discrete_gaussian import (
    dg_delta_enum,
    dg_delta_v,
    dg_normalizer_direct,
    dg_normalizer_poisson,
    dg_renyi_v,
    dg_variance_direct,
    dg_variance_dual,
)
from dpverify.theorems.formulas.discrete_laplace import dlap_delta, dlap_delta_enum, dlap_eps
from dpverify.verifiers.evaluation import evaluate
from tests.common.golden import GoldenCases

mp = mpmath.MPContext()
mp.dps = 80


# ------------------------------------------------------------------------------------------
# independent references: explicit lattice sums, plain transcriptions, bisection


def lattice_sum(f: Any, width: int) -> Any:
    """``sum_{|x| <= width} f(x)`` (explicit: mpmath's nsum extrapolation is wrong for the
    kinked summands ``max(0, ...)``); widths are chosen so the rest is below 1e-85."""
    return mp.fsum(f(x) for x in range(-width, width + 1))


def dlap_width(b: Any) -> int:
    return int(200 * float(b)) + 60


def dg_width(v: Any) -> int:
    return int(20 * float(mp.sqrt(v))) + 60


def dlap_pmf(b: Any, x: Any) -> Any:
    a = 1 / mp.mpf(b)
    return (mp.exp(a) - 1) / (mp.exp(a) + 1) * mp.exp(-a * abs(x))


def ref_dlap_delta(b: str, eps: str, s: int) -> Any:
    e = mp.exp(mp.mpf(eps))
    return lattice_sum(lambda x: max(0, dlap_pmf(b, x) - e * dlap_pmf(b, x - s)), dlap_width(b))


def bisect(f: Any, target: Any, lo: Any, hi: Any) -> Any:
    """Least x in [lo, hi] with f(x) <= target, f nonincreasing (240 halvings)."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    if f(lo) <= target:
        return lo
    for _ in range(300):
        mid = (lo + hi) / 2
        if f(mid) <= target:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2


def ref_dlap_eps(b: str, delta: str, s: int) -> Any:
    a = 1 / mp.mpf(b)
    return bisect(lambda e: ref_dlap_delta_closed(b, e, s), mp.mpf(delta), 0, a * s)


def ref_dlap_delta_closed(b: str, eps: Any, s: int) -> Any:
    """Sum over the finitely many positive terms only: x <= 0 (geometric) and 1 <= x < s."""
    e = mp.exp(eps)
    a = 1 / mp.mpf(b)
    head = max(0, 1 - e * mp.exp(-a * s)) * dlap_pmf(b, 0) / (1 - mp.exp(-a))
    return head + sum(max(0, dlap_pmf(b, x) - e * dlap_pmf(b, x - s)) for x in range(1, s))


def ref_dlap_variance(b: str) -> Any:
    return lattice_sum(lambda x: x * x * dlap_pmf(b, x), dlap_width(b))


def dg_weight(v: Any, x: Any) -> Any:
    return mp.exp(-x * x / (2 * v))


def dg_z(v: Any) -> Any:
    return lattice_sum(lambda x: dg_weight(v, x), dg_width(v))


def ref_dg_delta(sigma: str, eps: Any, d: int) -> Any:
    v = mp.mpf(sigma) ** 2
    e = mp.exp(eps)
    z = dg_z(v)
    return lattice_sum(lambda x: max(0, dg_weight(v, x) - e * dg_weight(v, x - d)),
                       dg_width(v) + d) / z


def ref_dg_eps(sigma: str, delta: str, d: int) -> Any:
    return bisect(lambda e: ref_dg_delta(sigma, e, d), mp.mpf(delta), 0, 60)


def ref_dg_renyi(sigma: str, alpha: str, d: int) -> Any:
    """``log sum P(x)^alpha P(x - d)^{1-alpha}/(alpha - 1)`` by a direct sum (no completed
    square)."""
    v, a = mp.mpf(sigma) ** 2, mp.mpf(alpha)
    z = dg_z(v)
    s = lattice_sum(lambda x: dg_weight(v, x) ** a * dg_weight(v, x - d) ** (1 - a),
                    dg_width(v) * int(a + 2) + 2 * d) / z
    return mp.log(s) / (a - 1)


def ref_dg_variance(sigma: str) -> Any:
    v = mp.mpf(sigma) ** 2
    return lattice_sum(lambda x: x * x * dg_weight(v, x), dg_width(v)) / dg_z(v)


def ref_wbk(q: str, alpha: int, eps: Any, eps_inf: Any) -> Any:
    """Thm 9 transcribed from the catalogue with ``eps(j)`` a Python function."""
    g = mp.mpf(q)
    cap = (lambda j: 2) if eps_inf is None else (lambda j: min(2, (mp.exp(eps_inf) - 1) ** j))
    total = 1 + g**2 * mp.binomial(alpha, 2) * min(4 * (mp.exp(eps(2)) - 1),
                                                  mp.exp(eps(2)) * cap(2))
    for j in range(3, alpha + 1):
        total += g**j * mp.binomial(alpha, j) * mp.exp((j - 1) * eps(j)) * cap(j)
    return mp.log(total) / (alpha - 1)


def rr_rdp(eps0: Any, j: int) -> Any:
    """D_j of RR(eps0) by its two-point sum."""
    e = mp.exp(eps0)
    p, q = [e / (1 + e), 1 / (1 + e)], [1 / (1 + e), e / (1 + e)]
    return mp.log(sum(x**j * y ** (1 - j) for x, y in zip(p, q, strict=True))) / (j - 1)


def laplace_rdp(b: Any, j: int) -> Any:
    """D_j(Lap(0, b)||Lap(1, b)) by quadrature (kinks at 0 and 1)."""
    b = mp.mpf(b)

    def f(y: Any) -> Any:
        return mp.exp(-(j * abs(y) + (1 - j) * abs(y - 1)) / b) / (2 * b)

    return mp.log(mp.quad(f, [-mp.inf, 0, 1, mp.inf])) / (j - 1)


CASES = [
    ("DLAP", "delta", {"b": "1", "eps": "0.3"}, lambda: ref_dlap_delta("1", "0.3", 1)),
    ("DLAP", "delta", {"b": "2", "eps": "0.2", "sensitivity": 3},
     lambda: ref_dlap_delta("2", "0.2", 3)),
    ("DLAP", "delta", {"b": "0.7", "eps": "0.45", "sensitivity": 5},
     lambda: ref_dlap_delta("0.7", "0.45", 5)),
    ("DLAP", "eps", {"b": "1", "delta": "0.1"}, lambda: ref_dlap_eps("1", "0.1", 1)),
    ("DLAP", "eps", {"b": "1.5", "delta": "0.05", "sensitivity": 4},
     lambda: ref_dlap_eps("1.5", "0.05", 4)),
    ("DLAP", "variance", {"b": "2.5"}, lambda: ref_dlap_variance("2.5")),
    ("CKS20-DGAUSS", "delta", {"sigma": "1", "eps": "1"}, lambda: ref_dg_delta("1", 1, 1)),
    ("CKS20-DGAUSS", "delta", {"sigma": "1.3", "eps": "0.7", "sensitivity": 2},
     lambda: ref_dg_delta("1.3", mp.mpf("0.7"), 2)),
    ("CKS20-DGAUSS", "eps", {"sigma": "2", "delta": "1e-5"},
     lambda: ref_dg_eps("2", "1e-5", 1)),
    ("CKS20-DGAUSS", "renyi", {"sigma": "1", "alpha": "2.5"},
     lambda: ref_dg_renyi("1", "2.5", 1)),
    ("CKS20-DGAUSS", "renyi", {"sigma": "0.8", "alpha": "1.3", "sensitivity": 2},
     lambda: ref_dg_renyi("0.8", "1.3", 2)),
    ("CKS20-DGAUSS", "variance", {"sigma": "0.3"}, lambda: ref_dg_variance("0.3")),
    ("CKS20-DGAUSS", "variance", {"sigma": "1.7"}, lambda: ref_dg_variance("1.7")),
    ("WBK19-SUBRDP", "tau", {"q": "0.01", "sigma": "1", "alpha": 8},
     lambda: ref_wbk("0.01", 8, lambda j: mp.mpf(j) / 2, None)),
    ("WBK19-SUBRDP", "tau_rr", {"q": "0.3", "eps0": "1", "alpha": 4},
     lambda: ref_wbk("0.3", 4, lambda j: rr_rdp(mp.mpf(1), j), mp.mpf(1))),
    ("WBK19-SUBRDP", "tau_laplace", {"q": "0.1", "b": "2", "alpha": 5},
     lambda: ref_wbk("0.1", 5, lambda j: laplace_rdp("2", j), mp.mpf("0.5"))),
]

GOLDEN = GoldenCases(mp, CASES)


@pytest.mark.parametrize("i", range(len(CASES)), ids=GOLDEN.ids)
def test_golden_value_by_independent_route(i: int) -> None:
    GOLDEN.check(i, 32)


def test_every_evaluator_has_a_golden_value() -> None:
    for th in all_theorems():
        if th.id in ("DLAP", "CKS20-DGAUSS", "WBK19-SUBRDP"):
            for ev in th.evaluators:
                assert (th.id, ev.name) in GOLDEN.covered, f"{th.id}.{ev.name}"


def _value(th: str, name: str, params: dict[str, Any], digits: int = 20) -> Any:
    ev = get(th).evaluator(name)
    return mp.mpf(evaluate(ev, bind(ev.params, params, f"{th}.{name}"), digits).value)


def test_catalogue_worked_values() -> None:
    assert abs(_value("DLAP", "delta", {"b": "0.25", "eps": "2.5"})
               - mp.mpf("0.7628968957987834")) < mp.mpf("1e-16")
    assert abs(_value("CKS20-DGAUSS", "delta", {"sigma": "2", "eps": "0.5"})
               - mp.mpf("0.05400722369415442")) < mp.mpf("1e-17")
    assert abs(_value("CKS20-DGAUSS", "renyi", {"sigma": "1", "alpha": "3"}) - mp.mpf("1.5")) \
        < mp.mpf("1e-19")
    assert abs(_value("WBK19-SUBRDP", "tau", {"q": "0.01", "sigma": "1", "alpha": 16})
               - mp.mpf("3.134060922")) < mp.mpf("1e-9")


def test_discrete_gaussian_sigma_is_a_scale_not_the_standard_deviation() -> None:
    sd2 = _value("CKS20-DGAUSS", "variance", {"sigma": "1"})
    assert sd2 < 1 and abs(sd2 - mp.mpf("0.9999997887677281")) < mp.mpf("1e-16")


def test_truncation_enclosures_contain_the_direct_sums() -> None:
    """The arb enclosures with the stated tail bounds contain the independent wide-window sums, also
    at a low working precision (short windows: the tail bound carries the remainder)."""
    for prec in (40, 64, 200):
        ctx = ArbCtx(prec)
        for b, e, s in (("1", "0.3", 1), ("3", "0.1", 2), ("0.4", "1.2", 4)):
            ball = ctx.run(dlap_delta_enum, b=F(b), eps=F(e), sensitivity=s)
            assert _contains(ball, ref_dlap_delta(b, e, s), prec)
        for v, e, d in (("1", "1", 1), ("7", "0.2", 2), ("0.05", "3", 1)):
            ref = ref_dg_delta(str(mp.sqrt(mp.mpf(v))), mp.mpf(e), d)
            assert _contains(ctx.run(dg_delta_v, v=F(v), eps=F(e), sensitivity=d), ref, prec)
            assert _contains(ctx.run(dg_delta_enum, v=F(v), eps=F(e), sensitivity=d), ref, prec)
        for v in ("0.01", "0.3", "5"):
            z = dg_z(mp.mpf(v))
            assert _contains(ctx.run(dg_normalizer_direct, v=F(v)), z, prec)
            assert _contains(ctx.run(dg_normalizer_poisson, v=F(v)), z, prec)
            vv = mp.mpf(v)
            var = lattice_sum(lambda x, vv=vv: x * x * dg_weight(vv, x), dg_width(v)) / z
            assert _contains(ctx.run(dg_variance_direct, v=F(v)), var, prec)
            assert _contains(ctx.run(dg_variance_dual, v=F(v)), var, prec)


def _contains(ball: Any, ref: Any, prec: int) -> bool:
    with flint.ctx.workprec(prec + 200):
        r = flint.arb(mp.nstr(ref, 70))
        lo, hi = ball.lower(), ball.upper()
        slack = abs(r) * flint.arb(10) ** -65  # the reference's own error
        return bool(lo <= r + slack) and bool(r - slack <= hi)


def test_renyi_completed_square_equals_direct_sum_and_zcdp_equality() -> None:
    ctx = MpCtx(250)
    for v, a, d in (("1", "2.5", 1), ("0.3", "1.5", 1), ("2", "4", 2), ("0.5", "7.25", 3)):
        ref = ref_dg_renyi(str(mp.sqrt(mp.mpf(v))), a, d)
        got = ctx.run(dg_renyi_v, v=F(v), alpha=F(a), sensitivity=d)
        assert abs(mp.mpf(str(got)) - ref) < mp.mpf("1e-60")


def test_dlap_profile_decreases_and_inverse_is_least() -> None:
    ctx = MpCtx(200)
    for b, s in (("1", 1), ("0.6", 3), ("2", 4)):
        last = None
        for i in range(30):
            e = F(i, 10)
            d = ctx.run(dlap_delta, b=F(b), eps=e, sensitivity=s)
            assert last is None or d <= last
            last = d
        for target in ("0.01", "0.2", "0.5"):
            e = ctx.run(dlap_eps, b=F(b), delta=F(target), sensitivity=s)
            assert ctx.run(dlap_delta, b=F(b), eps=e, sensitivity=s) <= mp.mpf(target) * (
                1 + mp.mpf("1e-50"))
            if e > 0:
                below = ctx.run(dlap_delta, b=F(b), eps=e * (1 - mp.mpf("1e-20")),
                                sensitivity=s)
                assert below > mp.mpf(target)


@pytest.mark.parametrize("th,name,params", [
    ("DLAP", "delta", {"b": "1", "eps": "0.3", "sensitivity": "1.5"}),
    ("DLAP", "delta", {"b": "0", "eps": "0.3"}),
    ("DLAP", "eps", {"b": "1", "delta": "1"}),
    ("CKS20-DGAUSS", "delta", {"sigma": "-1", "eps": "0.3"}),
    ("CKS20-DGAUSS", "renyi", {"sigma": "1", "alpha": "1"}),
    ("CKS20-DGAUSS", "delta", {"sigma": "1", "eps": "0.3", "sensitivity": "0"}),
    ("WBK19-SUBRDP", "tau", {"q": "0", "sigma": "1", "alpha": 2}),
    ("WBK19-SUBRDP", "tau_rr", {"q": "0.5", "eps0": "1", "alpha": "2.5"}),
    ("WBK19-SUBRDP", "tau_laplace", {"q": "1.5", "b": "1", "alpha": 3}),
])
def test_bad_inputs_name_the_parameter(th: str, name: str, params: dict[str, Any]) -> None:
    ev = get(th).evaluator(name)
    with pytest.raises(InvalidParameter) as info:
        evaluate(ev, bind(ev.params, params, f"{th}.{name}"), 20)
    bad = {"sensitivity", "b", "delta", "sigma", "alpha", "q"}
    assert any(p in str(info.value) for p in bad)


def test_dg_mp_route_gap_memo_is_the_fresh_mp_computation():
    """The mp values of the CKS20-DGAUSS claim 12 term are memoised by exact v (the verifier
    raises the arb precision, not the mp one): a hit gives the gap a fresh computation gives,
    at every arb precision, and the memoised values are the 256-bit mp series themselves."""
    from dpverify.theorems.formulas.discrete_gaussian import (
        dg_normalizer_direct,
        dg_variance_direct,
    )
    from dpverify.theorems.shuffle_discrete import mutation_guards as mg

    v = F(37, 10)
    mp = MpCtx(mg.MP_ROUTE_BITS)
    for series, value in zip((dg_normalizer_direct, dg_variance_direct),
                             mg._mp_route_values(v), strict=True):
        man, exp = series(mp, mp.num(v)).man_exp
        assert value == F(int(man)) * F(2) ** int(exp)
    for bits in (80, 300):
        mg._MP_ROUTE_VALUES.clear()
        fresh = ArbCtx(bits).run(mg.dg_mp_route_gap, v=v)
        assert v in mg._MP_ROUTE_VALUES
        hit = ArbCtx(bits).run(mg.dg_mp_route_gap, v=v)
        assert fresh.mid() == hit.mid() and fresh.rad() == hit.rad()
