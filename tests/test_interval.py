"""The interval route: branch and bound with monotonicity pruning, and its building blocks."""

from __future__ import annotations

import random
from fractions import Fraction

import flint
import mpmath
import pytest
import sympy as sp

from dpverify.theorems.claims import Box, Compare
from dpverify.theorems.ctx import Interval, arb_precision
from dpverify.theorems.formulas.gaussian import gauss_delta
from dpverify.verifiers.dispatch import PROFILES, run_check
from dpverify.verifiers.interval import DualCtx, Iv, compile_interval, verify_box
from dpverify.verifiers.verdict import Budget, Status


def check_box(lhs, op, rhs, box, boxes=3000, seconds=30.0):
    c = Compare(lhs, op, rhs, box, "interval")
    return verify_box(c, box, Budget(seconds=seconds, boxes=boxes))


# ---------------------------------------------------------------------------------------------
# the target: BW-ANALYTIC-GAUSS claim 4 in the quick budget


@pytest.mark.parametrize("index", [0, 1])
def test_bw_analytic_gauss_claim4_proved_quick(index):
    v = run_check("BW-ANALYTIC-GAUSS", 4, index, PROFILES["quick"])
    assert v.status is Status.PROVED, v.summary
    assert v.evidence["boxes_processed"] <= PROFILES["quick"].boxes
    assert v.evidence["region"] == "sigma in [0.5, 4], eps in [0, 4]"
    assert v.seconds < 20


def test_delta_nonnegative_needs_monotonicity():
    # delta(sigma, eps) >= 0 is tight where delta ~ 1e-58 (sigma = eps = 4): plain
    # enclosures cannot certify it; monotonicity in eps and sigma reduces it to that corner.
    status, _, ev = check_box(gauss_delta, "ge", lambda ctx, **_: ctx.zero,
                              Box(reals={"sigma": ("0.5", "4"), "eps": ("0", "4")}))
    assert status is Status.PROVED
    assert ev["boxes_pruned_by_monotonicity"] >= 1
    assert ev["derivatives"] == "sympy"


# ---------------------------------------------------------------------------------------------
# verdicts


def test_true_inequality_tight_at_a_face_is_proved():
    # eps0^2/2 <= eps0 (e^eps0 - 1): both sides vanish at eps0 = 0 to second order
    status, _, ev = check_box(lambda ctx, eps0, **_: eps0**2 / 2, "le",
                              lambda ctx, eps0, **_: eps0 * ctx.expm1(eps0),
                              Box(reals={"eps0": ("0", "50")}))
    assert status is Status.PROVED
    assert ev["boxes_pruned_by_monotonicity"] >= 1 and ev["boxes_per_second"] > 0


def test_false_inequality_fails_with_certified_counterexample():
    status, _, ev = check_box(lambda ctx, eps0, **_: eps0**2, "le",
                              lambda ctx, eps0, **_: eps0 * ctx.expm1(eps0) / 2,
                              Box(reals={"eps0": ("0", "50")}))
    assert status is Status.FAILED and ev["certified"] is True
    e = mpmath.mpf(Fraction(ev["counterexample"]["eps0"]).numerator) / \
        Fraction(ev["counterexample"]["eps0"]).denominator
    with mpmath.workdps(40):  # independent re-check in mpmath
        assert e**2 > e * mpmath.expm1(e) / 2


def test_undecidable_within_budget_is_inconclusive():
    # x^2 > 0 fails only at x = 0, which is never a box midpoint of [-1, 2]: no proof, no
    # counterexample, the budget runs out
    status, _, ev = check_box(lambda ctx, x, **_: x * x, "gt", lambda ctx, **_: ctx.zero,
                              Box(reals={"x": ("-1", "2")}), boxes=200)
    assert status is Status.INCONCLUSIVE
    assert ev["undecided_count"] >= 1 and ev["undecided_boxes"]
    lo, hi = (float(t) for t in ev["undecided_boxes"][0]["x"])
    assert lo <= 0 <= hi


def test_jump_is_not_crossed_by_a_derivative():
    # g = x on [0, 1/2), x - 1 on [1/2, 1]: g' = 1 everywhere, yet g >= 0 is false
    def step(ctx, x, **_):
        return ctx.piecewise_lt(x, ctx.num("1/2"), lambda: x, lambda: x - 1)

    status, _, ev = check_box(step, "ge", lambda ctx, **_: ctx.zero, Box(reals={"x": ("0", "1")}))
    assert status is Status.FAILED
    assert Fraction(ev["counterexample"]["x"]) >= Fraction(1, 2)


def test_equality_is_not_applicable():
    status, _, _ = check_box(lambda ctx, x, **_: x, "eq", lambda ctx, x, **_: x,
                             Box(reals={"x": ("0", "1")}))
    assert status is Status.NOT_APPLICABLE


def test_integer_parameters_are_enumerated():
    # (1 + x)^k >= 1 + k x (Bernoulli) for k in {1..4}, x in [0, 3]
    status, _, ev = check_box(lambda ctx, x, k, **_: (1 + x) ** k, "ge",
                              lambda ctx, x, k, **_: 1 + k * x,
                              Box(reals={"x": ("0", "3")}, ints={"k": (1, 4)}))
    assert status is Status.PROVED
    assert ev["boxes_processed"] >= 4


def test_solve_terms_use_automatic_differentiation():
    # the root r(a) of r^3 + r = a satisfies r(a) <= a; sympy cannot represent ctx.solve
    def root(ctx, a, **_):
        return ctx.solve(lambda x: x**3 + x, a, lo=0, hi=1, decreasing=False)

    status, _, ev = check_box(root, "le", lambda ctx, a, **_: a, Box(reals={"a": ("1", "10")}))
    assert status is Status.PROVED
    assert ev["derivatives"] == "dual" and ev["boxes_pruned_by_monotonicity"] >= 1


# ---------------------------------------------------------------------------------------------
# building blocks


def test_compile_interval_encloses_sampled_values():
    x = sp.Symbol("x", real=True)
    expr = (sp.exp(-x**2) * sp.erfc(x) + sp.log(1 + x**2) - sp.Max(x, 1 - x)
            + sp.Abs(x - sp.Rational(1, 3)) ** 3 + sp.tanh(x) / (2 + x**2) + sp.sqrt(x**2 + 1))
    f = compile_interval(expr)
    g = sp.lambdify(x, expr, "mpmath")
    rng = random.Random(7)
    for _ in range(30):
        a = Fraction(rng.randint(-300, 300), 100)
        b = a + Fraction(rng.randint(0, 200), 100)
        with arb_precision(96):
            iv = f({"x": Iv.exact(a, b)})
        for t in range(6):
            xm = mpmath.mpf(a.numerator) / a.denominator + \
                (mpmath.mpf(b.numerator) / b.denominator - mpmath.mpf(a.numerator)
                 / a.denominator) * t / 5
            v = flint.arb(mpmath.nstr(g(xm), 30))
            assert iv.lo <= v + flint.arb("1e-25") and v - flint.arb("1e-25") <= iv.hi


def test_interval_ends_stay_exact():
    # a ball of [0, 1] dips below 0; the interval's end does not, so sqrt and log stay finite
    x = sp.Symbol("x", real=True)
    with arb_precision(96):
        iv = compile_interval(sp.sqrt(x))({"x": Iv.exact(Fraction(0), Fraction(1))})
    assert iv.is_finite() and iv.lo == 0 and iv.hi == 1


def test_dual_derivative_matches_closed_form():
    # d delta / d eps = -e^eps Phi(-1/(2 sigma) - eps sigma) (an independent closed form)
    ctx = DualCtx(128, ("sigma", "eps"))
    sigma, eps = Fraction(3, 2), Fraction(7, 10)
    out = ctx.run(gauss_delta, sigma=Interval(sigma, sigma), eps=Interval(eps, eps))
    with mpmath.workdps(40):
        s, e = mpmath.mpf(3) / 2, mpmath.mpf(7) / 10
        expected = -mpmath.exp(e) * mpmath.ncdf(-1 / (2 * s) - e * s)
        d_sigma = mpmath.diff(lambda t: mpmath.ncdf(1 / (2 * t) - e * t)
                              - mpmath.exp(e) * mpmath.ncdf(-1 / (2 * t) - e * t), s)
    assert out.d["eps"].overlaps(flint.arb(mpmath.nstr(expected, 35)))
    assert abs(float(out.d["eps"].mid()) - float(expected)) < 1e-15
    assert abs(float(out.d["sigma"].mid()) - float(d_sigma)) < 1e-15
