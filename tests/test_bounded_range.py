"""Tests of the bounded-range family (theorems.bounded_range and its formulas).

Every evaluator is compared with an independent computation written here in mpmath: the GRR
probabilities from their defining properties, DDR-T3 against a brute-force maximisation over a
fine t grid refined by golden section (and against a naive O(k^2) candidate sum), DDR-L32
against an exhaustive search over the adaptive strategies of a two-round game, the closed-form
bounds against their formulas, the MGF bound against a direct minimisation, and the DDR-FIG1
counts against linear scans. Golden values are asserted at 15 and 50 digits.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpverify.theorems import get
from dpverify.theorems.claims import Compare, Points
from dpverify.theorems.core import InvalidParameter, bind
from dpverify.theorems.ctx import ArbCtx, MpCtx
from dpverify.theorems.errors import NoConvergence
from dpverify.theorems.formulas.br_figure1 import FIG1_KINDS, figure1_series
from dpverify.theorems.formulas.ddr_adaptive import adaptive2_strategy_delta, l32_delta_k2
from dpverify.theorems.formulas.ddr_composition import t3_delta
from dpverify.theorems.numerics.branch_bound import bb_maximize
from dpverify.verifiers.evaluation import evaluate
from dpverify.verifiers.numeric import decide

MP = mpmath.mp


def ev(target: str, digits: int = 20, **params: str) -> mpmath.mpf:
    name, _, e = target.partition(".")
    evaluator = get(name).evaluator(e or None)
    res = evaluate(evaluator, bind(evaluator.params, params, target), digits)
    return mpmath.mpf(res.value)


def mpq(x: str | F) -> mpmath.mpf:
    x = F(x)
    return mpmath.mpf(x.numerator) / x.denominator


def close(a: object, b: object, rel: float) -> bool:
    a, b = mpmath.mpf(a), mpmath.mpf(b)
    return abs(a - b) <= rel * max(abs(b), mpmath.mpf(10) ** -300)


# ------------------------------------------------------------------------------------------
# independent references (mpmath at the current mp.dps)


def ref_pq(e: mpmath.mpf, t: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    """p and q from their defining properties: p/q = e^t and (1-p)/(1-q) = e^{t-e}, solved as
    a linear system (p = q e^t, 1 - p = (1 - q) e^{t-e})."""
    a, b = mpmath.e ** t, mpmath.e ** (t - e)
    q = (1 - b) / (a - b)
    return q * a, q


def ref_delta_t(e: mpmath.mpf, k: int, t: mpmath.mpf, g: mpmath.mpf) -> mpmath.mpf:
    """sum_i C(k,i) (p^{k-i}(1-p)^i - e^g q^{k-i}(1-q)^i)_+, naive."""
    p, q = ref_pq(e, t)
    c = mpmath.e ** g
    return mpmath.fsum(max(mpmath.mpf(0), math.comb(k, i) * (p ** (k - i) * (1 - p) ** i
                                                             - c * q ** (k - i) * (1 - q) ** i))
                       for i in range(k + 1))


def golden(f, lo, hi, iters: int = 160):  # a test helper (mpmath numbers)
    r = (mpmath.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - r * (b - a), a + r * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iters):
        if fc < fd:
            a, c, fc = c, d, fd
            d = a + r * (b - a)
            fd = f(d)
        else:
            b, d, fd = d, c, fc
            c = b - r * (b - a)
            fc = f(c)
    return f((a + b) / 2)


def ref_t3(e: mpmath.mpf, k: int, g: mpmath.mpf, cells: int = 600) -> mpmath.mpf:
    """max over t in [0, e] of ref_delta_t: a fine grid, then golden section on the best
    cell (the objective is a smooth peak there)."""
    ts = [e * i / cells for i in range(cells + 1)]
    vals = [ref_delta_t(e, k, t, g) for t in ts]
    j = max(range(cells + 1), key=lambda i: vals[i])
    lo, hi = ts[max(j - 1, 0)], ts[min(j + 1, cells)]
    return max(vals[j], golden(lambda t: ref_delta_t(e, k, t, g), lo, hi))


def ref_t3_candidates(e: mpmath.mpf, k: int, g: mpmath.mpf) -> tuple[mpmath.mpf, int]:
    """max_l of the partial sums at t_l (the theorem's formula written naively)."""
    best, arg = mpmath.mpf(0), -1
    c = mpmath.e ** g
    for l in range(k + 1):
        t = min(max((g + (l + 1) * e) / (k + 1), mpmath.mpf(0)), e)
        p, q = ref_pq(e, t) if 0 < t < e else ((1, 1) if t <= 0 else (0, 0))
        s = mpmath.fsum(math.comb(k, i) * (mpmath.mpf(p) ** (k - i) * (1 - mpmath.mpf(p)) ** i
                                           - c * mpmath.mpf(q) ** (k - i)
                                           * (1 - mpmath.mpf(q)) ** i) for i in range(l + 1))
        if s > best:
            best, arg = s, l
    return best, arg


# ------------------------------------------------------------------------------------------
# DDR-D24


@pytest.mark.parametrize(("e", "t"), [("0.5", "0.1"), ("1.3", "0.9"), ("0.2", "0.0001"),
                                      ("3", "2.5")])
def test_grr_against_defining_properties(e: str, t: str) -> None:
    with mpmath.workdps(60):
        p, q = ref_pq(mpq(e), mpq(t))
        assert close(ev("DDR-D24.p", 50, eps0=e, t=t), p, 1e-48)
        assert close(ev("DDR-D24.q", 50, eps0=e, t=t), q, 1e-48)


def test_grr_standard_rr_golden_values() -> None:
    # RR_{0.8, 0.4} is RR(0.4): p = e^0.4/(1 + e^0.4) = 0.598687660112452...
    assert str(ev("DDR-D24.p", 15, eps0="0.8", t="0.4")) == "0.598687660112452"
    with mpmath.workdps(60):
        z = mpmath.e ** mpq("0.4")
        assert close(ev("DDR-D24.p", 50, eps0="0.8", t="0.4"), z / (1 + z), 1e-49)
        assert close(ev("DDR-D24.q", 50, eps0="0.8", t="0.4"), 1 / (1 + z), 1e-49)


def test_grr_end_points() -> None:
    assert ev("DDR-D24.p", 20, eps0="0.7", t="0") == 1
    assert ev("DDR-D24.q", 20, eps0="0.7", t="0.7") == 0


# ------------------------------------------------------------------------------------------
# DDR-L31, DDR-T3


def test_l31_against_naive_sum() -> None:
    with mpmath.workdps(60):
        for e, k, t, g in (("0.6", 5, "0.21", "0.4"), ("0.3", 40, "0.17", "0.5"),
                           ("1.2", 7, "0.9", "-0.4")):
            ref = ref_delta_t(mpq(e), k, mpq(t), mpq(g))
            assert close(ev("DDR-L31.delta_t", 50, eps0=e, k=str(k), t=t, eps=g), ref, 1e-45)


@pytest.mark.parametrize(("e", "k", "g"), [("0.3", 1, "0.05"), ("0.3", 2, "0"),
                                           ("0.5", 3, "0.2"), ("0.1", 10, "0.25"),
                                           ("1.0", 6, "1.7"), ("0.5", 4, "-0.3"),
                                           ("0.05", 25, "0.3")])
def test_t3_against_grid_and_golden(e: str, k: int, g: str) -> None:
    with mpmath.workdps(40):
        ref = ref_t3(mpq(e), k, mpq(g))
        assert close(ev("DDR-T3.delta", 30, eps0=e, k=str(k), eps=g), ref, 1e-28)


@pytest.mark.parametrize(("e", "k", "g"), [("0.1", 100, "1"), ("0.1", 200, "1"),
                                           ("0.5", 80, "3"), ("0.02", 150, "-0.1")])
def test_t3_pruned_search_against_naive_candidates(e: str, k: int, g: str) -> None:
    # k > 64: the product prunes candidates by certified block bounds; the reference
    # evaluates every candidate naively
    with mpmath.workdps(40):
        ref, _ = ref_t3_candidates(mpq(e), k, mpq(g))
        assert close(ev("DDR-T3.delta", 30, eps0=e, k=str(k), eps=g), ref, 1e-28)


def test_t3_golden_values() -> None:
    # the paper's example (catalogue): NA = 0.147127... at eps0 = 0.5, k = 2, eps = 0
    assert str(ev("DDR-T3.delta", 15, eps0="0.5", k="2", eps="0")) == "0.147127377260852"
    with mpmath.workdps(60):
        ref, _ = ref_t3_candidates(mpq("0.5"), 2, mpmath.mpf(0))
        assert close(ev("DDR-T3.delta", 50, eps0="0.5", k="2", eps="0"), ref, 1e-49)


def test_t3_clipping_and_zero() -> None:
    assert ev("DDR-T3.delta", 20, eps0="0.5", k="3", eps="1.5") == 0  # eps >= k eps0
    with mpmath.workdps(40):
        # far below: only the plateau 1 - e^eps remains
        assert close(ev("DDR-T3.delta", 30, eps0="0.1", k="2", eps="-3"),
                     1 - mpmath.e ** -3, 1e-29)


def test_t3_eps_inverts_delta() -> None:
    with mpmath.workdps(40):
        eps = ev("DDR-T3.eps", 25, eps0="0.5", k="4", delta="0.001")
        g = F(mpmath.nstr(eps, 30))
        v, _ = ref_t3_candidates(mpq("0.5"), 4, mpq(g))
        assert close(v, mpmath.mpf("0.001"), 1e-20)


def test_t3_t_opt_is_the_argmax() -> None:
    with mpmath.workdps(40):
        for e, k, g in (("0.4", 6, "0.2"), ("0.4", 6, "0.6"), ("0.3", 5, "-0.2")):
            _, l = ref_t3_candidates(mpq(e), k, mpq(g))
            t = min(max((mpq(g) + (l + 1) * mpq(e)) / (k + 1), 0), mpq(e))
            assert close(ev("DDR-T3.t_opt", 30, eps0=e, k=str(k), eps=g), t, 1e-29)


def test_t3_float_path_matches() -> None:
    from dpverify.theorems.ctx import FloatCtx

    exact = ev("DDR-T3.delta", 20, eps0="0.1", k="300", eps="2")
    fp = FloatCtx().run(t3_delta, eps0=F("0.1"), k=300, eps=F(2))
    assert close(fp, exact, 1e-10)


# ------------------------------------------------------------------------------------------
# DDR-L32: exhaustive two-round strategies


def ref_adaptive2(e: mpmath.mpf, x: mpmath.mpf) -> mpmath.mpf:
    """The adaptive two-round optimum from its definition: the adversary picks t1, then t2 as
    a function of the first output; the hockey-stick sum over the 4 transcripts splits into
    the two branches, each maximised over t2, and the result over t1 (golden sections)."""
    c = mpmath.e ** x

    def branch(a: mpmath.mpf, b: mpmath.mpf) -> mpmath.mpf:
        # max_t2 sum_{y2} (a P2(y2) - c b Q2(y2))_+
        def f(t2: mpmath.mpf) -> mpmath.mpf:
            p, q = ref_pq(e, t2) if 0 < t2 < e else ((1, 1) if t2 <= 0 else (0, 0))
            return (max(0, a * p - c * b * q) + max(0, a * (1 - p) - c * b * (1 - q)))
        grid = [e * i / 40 for i in range(41)]
        j = max(range(41), key=lambda i: f(grid[i]))
        return max(f(grid[j]), golden(f, grid[max(j - 1, 0)], grid[min(j + 1, 40)], 80))

    def outer(t1: mpmath.mpf) -> mpmath.mpf:
        p, q = ref_pq(e, t1)
        return branch(p, q) + branch(1 - p, 1 - q)

    grid = [e * i / 40 for i in range(1, 40)]
    j = max(range(len(grid)), key=lambda i: outer(grid[i]))
    lo, hi = grid[max(j - 1, 0)], grid[min(j + 1, len(grid) - 1)]
    return max(outer(grid[j]), golden(outer, lo, hi, 80))


@pytest.mark.parametrize("x", ["0", "-0.2"])
def test_l32_k2_against_exhaustive_strategies(x: str) -> None:
    with mpmath.workdps(25):
        ref = ref_adaptive2(mpq("0.5"), mpq(x))
        got = ev("DDR-L32.delta", 25, eps0="0.5", k="2", eps=x)
        assert close(got, ref, 1e-16)
        ub = ev("DDR-L32.delta_ub", 15, eps0="0.5", k="2", eps=x)
        assert ub >= got


def test_l32_golden_values_and_gap() -> None:
    # the paper's example: adaptive 0.155080 > non-adaptive 0.147127
    assert str(ev("DDR-L32.delta", 15, eps0="0.5", k="2", eps="0")) == "0.155079763724255"
    a = ev("DDR-L32.delta", 30, eps0="0.5", k="2", eps="0")
    na = ev("DDR-T3.delta", 30, eps0="0.5", k="2", eps="0")
    assert a - na > mpmath.mpf("0.0079")


def test_l32_k1_is_t3_and_lattice_brackets() -> None:
    assert ev("DDR-L32.delta", 30, eps0="0.5", k="1", eps="0.1") == \
        ev("DDR-T3.delta", 30, eps0="0.5", k="1", eps="0.1")
    for k in (3, 4):
        lb = ev("DDR-L32.delta", 15, eps0="0.5", k=str(k), eps="0.2")
        ub = ev("DDR-L32.delta_ub", 15, eps0="0.5", k=str(k), eps="0.2")
        na = ev("DDR-T3.delta", 15, eps0="0.5", k=str(k), eps="0.2")
        assert na <= ub and lb <= ub and ub - lb < mpmath.mpf("0.005")


def test_l32_strategy_tree_matches_recursion() -> None:
    ctx = ArbCtx(128)
    for x in (F(0), F(1, 10)):
        rec = ctx.run(lambda c, x=x, **_: l32_delta_k2(c, F(1, 2), x))
        tree = ctx.run(lambda c, x=x, **_: adaptive2_strategy_delta(c, F(1, 2), x, 128))
        assert abs(rec - tree) < 1e-25


# ------------------------------------------------------------------------------------------
# DDR-C31, DDR-T5, DR19-BR


def ref_kl_sup(e: mpmath.mpf) -> mpmath.mpf:
    """sup_t KL(RR_{e,t}) from the laws, by golden section over t."""
    def kl(t: mpmath.mpf) -> mpmath.mpf:
        p, q = ref_pq(e, t)
        return p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))
    return golden(kl, e / 100, e * 99 / 100, 200)


def test_optkl_against_direct_formulas() -> None:
    with mpmath.workdps(60):
        for e in ("0.01", "0.3", "2"):
            assert close(ev("DDR-C31.kl_sup", 50, eps0=e), ref_kl_sup(mpq(e)), 1e-40)
        e, k, d = mpq("0.1"), 100, mpq("1e-6")
        ref = min(k * e, k * ref_kl_sup(e) + mpmath.sqrt(k * e**2 / 2 * mpmath.log(1 / d)))
        assert close(ev("DDR-C31.eps", 30, eps0="0.1", k="100", delta="1e-6"), ref, 1e-28)
        # clipped at k eps0
        assert ev("DDR-C31.eps", 20, eps0="0.5", k="1", delta="1e-6") == mpmath.mpf("0.5")
        e, t = mpq("0.5"), mpq("0.2")
        p, q = ref_pq(e, t)
        ref = p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))
        assert close(ev("DDR-C31.kl", 50, eps0="0.5", t="0.2"), ref, 1e-45)


def ref_mgf_log_m(e: mpmath.mpf, lam: mpmath.mpf) -> mpmath.mpf:
    """ln sup_t (p e^{lam t} + (1-p) e^{lam (t-e)}) by golden section over t."""
    def h(t: mpmath.mpf) -> mpmath.mpf:
        p, _ = ref_pq(e, t) if 0 < t < e else ((1, 1) if t <= 0 else (0, 0))
        return p * mpmath.e ** (lam * t) + (1 - p) * mpmath.e ** (lam * (t - e))
    return mpmath.log(golden(h, mpmath.mpf(0), e, 110))


def test_mgf_against_direct_minimisation() -> None:
    with mpmath.workdps(30):
        e, k, d = mpq("0.1"), 100, mpq("1e-6")

        def bound(u: mpmath.mpf) -> mpmath.mpf:
            lam = mpmath.e ** u
            return -(k * ref_mgf_log_m(e, lam) + mpmath.log(1 / d)) / lam

        ref = -golden(bound, mpmath.mpf(-6), mpmath.mpf(6), 90)
        got = ev("DDR-T5.eps", 25, eps0="0.1", k="100", delta="1e-6")
        assert close(got, ref, 1e-16)
        assert got <= ev("DDR-C31.eps", 25, eps0="0.1", k="100", delta="1e-6")

        g = mpq(2)

        def dbound(u: mpmath.mpf) -> mpmath.mpf:
            lam = mpmath.e ** u
            return -(k * ref_mgf_log_m(e, lam) - lam * g)

        ref_d = mpmath.e ** (-golden(dbound, mpmath.mpf(-6), mpmath.mpf(6), 90))
        assert close(ev("DDR-T5.delta", 25, eps0="0.1", k="100", eps="2"), ref_d, 1e-16)


def test_dr19_formulas() -> None:
    with mpmath.workdps(60):
        e, k, d = mpq("0.1"), 100, mpq("1e-6")
        raw = k * e * (mpmath.e ** e - 1) + e * mpmath.sqrt(k / mpmath.mpf(2) * mpmath.log(1 / d))
        assert close(ev("DR19-BR.eps", 50, eps0="0.1", k="100", delta="1e-6"), raw, 1e-48)
        kov = (k * e * (mpmath.e ** e - 1) / (mpmath.e ** e + 1)
               + e * mpmath.sqrt(k / mpmath.mpf(2) * mpmath.log(1 / d)))
        assert close(ev("DR19-BR.eps_kovkl", 50, eps0="0.1", k="100", delta="1e-6"), kov, 1e-48)
        xs = [mpq("0.1"), mpq("0.2"), mpq("0.3")]
        het = (mpmath.fsum(x * (mpmath.e ** x - 1) for x in xs)
               + mpmath.sqrt(mpmath.fsum(x**2 for x in xs) * mpmath.log(1 / d) / 2))
        assert close(ev("DR19-BR.eps_het", 50, eps_list="0.1,0.2,0.3", delta="1e-6"), het,
                     1e-48)


# ------------------------------------------------------------------------------------------
# DDR-FIG1


def test_fig1_counts_against_scans() -> None:
    e, B, d = F("0.1"), F(2), F("1e-6")
    assert ev("DDR-FIG1.k_basic", 15, eps0="0.1", eps="2") == 20

    def scan(ok) -> int:  # the largest k with ok(k), scanning upwards
        k = 0
        while ok(k + 1):
            k += 1
        return k

    with mpmath.workdps(30):
        E, D, B = mpq(e), mpq(d), mpq(B)
        dr19 = scan(lambda k: min(k * E, k * E * (mpmath.e ** E - 1)
                                  + E * mpmath.sqrt(k / 2 * mpmath.log(1 / D))) <= B)
        assert ev("DDR-FIG1.k_dr19", 15, eps0="0.1", eps="2", delta="1e-6") == dr19

        def kov(eps0: mpmath.mpf, k: int) -> mpmath.mpf:  # k-fold RR profile, naive
            z = mpmath.e ** eps0
            return mpmath.fsum(math.comb(k, i) * max(0, z**i - mpmath.e ** B * z ** (k - i))
                               for i in range(k + 1)) / (1 + z) ** k

        dp = scan(lambda k: kov(E, k) <= D)
        assert ev("DDR-FIG1.k_dp_optcomp", 15, eps0="0.1", eps="2", delta="1e-6") == dp
        br_k = scan(lambda k: ref_t3_candidates(E, k, B)[0] <= D)
        assert ev("DDR-FIG1.k_br_optcomp", 15, eps0="0.1", eps="2", delta="1e-6") == br_k
        assert (dp, dr19, br_k) == (24, 37, 81)  # the catalogue's table row (0.1, 2)


def test_figure1_series() -> None:
    s = figure1_series("0.1", ["1", 2.0, F(3)], "1e-6")
    assert set(s) == set(FIG1_KINDS)
    assert s["br_optcomp"] == [22, 81, 168] and s["dp_optcomp"] == [10, 24, 46]
    assert all(isinstance(v, int) for col in s.values() for v in col)
    with pytest.raises(InvalidParameter):
        figure1_series("0.1", ["0"], "1e-6")


# ------------------------------------------------------------------------------------------
# bad inputs and safeguards


@pytest.mark.parametrize(("target", "params", "message"), [
    ("DDR-D24.p", {"eps0": "0.5", "t": "0.6"}, "t must be in [0, eps0]"),
    ("DDR-T3.delta", {"eps0": "0", "k": "2", "eps": "0"}, "eps0 must be in (0, inf)"),
    ("DDR-T3.delta", {"eps0": "0.5", "k": "0", "eps": "0"}, "k must be an integer >= 1"),
    ("DDR-C31.eps", {"eps0": "0.1", "k": "2", "delta": "1.5"}, "delta must be in (0, 1)"),
    ("DDR-L32.delta", {"eps0": "0.5", "k": "11", "eps": "0"}, "k must be integers in [1, 10]"),
    ("DDR-FIG1.k_basic", {"eps0": "0.1", "eps": "0"}, "eps must be in (0, inf)"),
    ("DR19-BR.eps_het", {"eps_list": "0.1,,0.3", "delta": "0.1"}, "eps_list must be"),
])
def test_bad_inputs(target: str, params: dict[str, str], message: str) -> None:
    name, _, e = target.partition(".")
    evaluator = get(name).evaluator(e)
    with pytest.raises(InvalidParameter, match=message.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        bound = bind(evaluator.params, params, target)
        evaluate(evaluator, bound, 15)


def test_bb_maximize_refuses_a_wrong_derivative() -> None:
    ctx = ArbCtx(100)

    def value(t: F) -> object:
        x = ctx.num(t)
        return -(x - ctx.num(F(1, 3))) * (x - ctx.num(F(1, 3)))

    third = ctx.num(F(1, 3))

    def enclose(a: F, b: F) -> tuple[object, object, object]:
        x = ctx.num(a).union(ctx.num(b))
        return -(x - third) * (x - third), 2 * (x - third), None  # wrong sign

    with pytest.raises(AssertionError, match="derivative"):
        ctx.run(lambda c, **_: bb_maximize(c, value, enclose, F(0), F(1)))


def test_bb_maximize_is_rigorous_on_a_known_maximum() -> None:
    ctx = ArbCtx(120)

    def enclose(a: F, b: F) -> tuple[object, object, object]:
        x = ctx.num(a).union(ctx.num(b))
        return x * (1 - x), 1 - 2 * x, ctx.num(-2)

    def slope(t: F) -> object:
        return 1 - 2 * ctx.num(t)

    got = ctx.run(lambda c, **_: bb_maximize(c, lambda t: ctx.num(t) * (1 - ctx.num(t)),
                                                 enclose, F(0), F(1), slope))
    assert got.contains(F(1, 4).numerator / F(1, 4).denominator)
    assert got.rad() < 1e-30


def _blind_parabola_max(ctx: ArbCtx, max_seconds: float) -> object:
    """``max_{[0, 1]} t (1 - t)`` with no derivative information: the direct enclosures alone
    never close at 120 bits (the boxes near the top shrink only linearly)."""

    def enclose(a: F, b: F) -> tuple[object, object, object]:
        x = ctx.num(a).union(ctx.num(b))
        return x * (1 - x), None, None

    return ctx.run(lambda c, **_: bb_maximize(c, lambda t: ctx.num(t) * (1 - ctx.num(t)),
                                              enclose, F(0), F(1), max_boxes=10**9,
                                              max_seconds=max_seconds))


def test_bb_maximize_stops_at_its_time_limit() -> None:
    with pytest.raises(NoConvergence, match=r"did not close within its 0\.3 s limit"):
        _blind_parabola_max(ArbCtx(120), 0.3)


def test_a_branch_and_bound_past_its_time_limit_is_undecided_not_escalated() -> None:
    calls: list[int] = []

    def blind(ctx: ArbCtx, **_: object) -> object:
        calls.append(ctx.prec)
        return _blind_parabola_max(ctx, 0.3)

    check = Compare(blind, "le", lambda ctx, **_: ctx.num(F(1, 4)), Points(({},)), "numeric")
    decision = decide(check, {})
    assert decision.holds is None and "0.3 s limit" in decision.note
    assert len(calls) == 1  # raising the precision would only repeat the search


def test_mp_context_gives_the_same_t3() -> None:
    v = MpCtx(120).run(t3_delta, eps0=F("0.1"), k=120, eps=F(1))
    a = ArbCtx(120).run(t3_delta, eps0=F("0.1"), k=120, eps=F(1))
    assert a.contains(mpmath.mpf(v)) or abs(float(a.mid()) - float(v)) < 1e-30


@settings(max_examples=300, deadline=None, database=None)
@given(k=st.integers(1, 14), eps0=st.fractions(0, 4, max_denominator=24),
       eps=st.fractions(-3, 6, max_denominator=24), a=st.fractions(0, 4, max_denominator=24),
       width=st.fractions(0, 1, max_denominator=24))
def test_loss_signs_cut_the_indices_where_the_term_by_term_test_does(k, eps0, eps, a, width):
    from dpverify.theorems.formulas.ddr_composition import loss_signs

    b = a + width
    pos, und, neg = [], [], []
    for i in range(k + 1):  # the definition, index by index
        if k * a - i * eps0 > eps:
            pos.append(i)
        elif k * b - i * eps0 < eps:
            neg.append(i)
        else:
            und.append(i)
    assert loss_signs(k, eps0, eps, a, b) == (pos, und, neg)
