"""Arithmetic contexts: one formula, several arithmetics; rigour of the arb context."""

from fractions import Fraction

import flint
import mpmath
import pytest

from dpverify.theorems.ctx import ArbCtx, FloatCtx, Interval, MpCtx, SymCtx, arb_endpoints


def formula(ctx, x, y):
    return ctx.log1p(ctx.expm1(x)) * ctx.sqrt(y) + ctx.ncdf(-x)


def test_same_formula_in_every_context():
    x, y = Fraction(3, 10), Fraction(2)
    ref = mpmath.mpf
    with mpmath.workdps(60):
        expected = (ref(3) / 10) * mpmath.sqrt(2) + mpmath.ncdf(-ref(3) / 10)
        mp_value = MpCtx(200).run(formula, x=x, y=y)
        assert abs(mp_value - expected) < mpmath.mpf(10) ** -55
    ball = ArbCtx(200).run(formula, x=x, y=y)
    lo, hi = arb_endpoints(ball)
    with mpmath.workdps(60):
        assert mpmath.mpf(lo.numerator) / lo.denominator <= expected
        assert expected <= mpmath.mpf(hi.numerator) / hi.denominator
    assert abs(FloatCtx().run(formula, x=x, y=y) - float(expected)) < 1e-15
    sym = SymCtx().run(formula, x=x, y=y)
    assert abs(float(sym.evalf(30)) - float(expected)) < 1e-15


def test_arb_comparisons_are_undecided_on_overlap():
    ctx = ArbCtx(64)
    wide = flint.arb(1, 0.5)  # [0.5, 1.5]
    assert ctx.lt(wide, flint.arb(2)) is True
    assert ctx.lt(wide, flint.arb(1)) is None
    assert ctx.le(flint.arb(3), wide) is False


def test_piecewise_takes_hull_when_undecided():
    ctx = ArbCtx(64)
    value = ctx.run(lambda c, x: c.piecewise_lt(x, c.one, lambda: c.num(10), lambda: c.num(20)),
                    x=Interval(0, 2))
    lo, hi = arb_endpoints(value)
    assert lo <= 10 and hi >= 20


def test_solve_encloses_the_crossing():
    # least x >= 0 with e^-x <= 1/10 is ln 10
    def f(ctx, t):
        return ctx.solve(lambda x: ctx.exp(-x), t, lo=0)

    ball = ArbCtx(128).run(f, t=Fraction(1, 10))
    lo, hi = arb_endpoints(ball)
    with mpmath.workdps(50):
        ln10 = mpmath.log(10)
        lo_mp = mpmath.mpf(lo.numerator) / lo.denominator
        hi_mp = mpmath.mpf(hi.numerator) / hi.denominator
        assert lo_mp <= ln10 <= hi_mp
    assert hi - lo < Fraction(1, 10**30)
    with mpmath.workdps(40):
        assert abs(MpCtx(130).run(f, t=Fraction(1, 10)) - mpmath.log(10)) < mpmath.mpf(10) ** -35


def test_solve_returns_lower_end_when_already_below():
    ball = ArbCtx(64).run(lambda c, t: c.solve(lambda x: c.exp(-x), t, lo=0), t=Fraction(2))
    assert ball == 0


# ------------------------------------------------------------------------------------------
# the shared integer balls of ArbCtx


def test_arb_integer_balls_are_exact_and_equal_to_fresh_ones():
    for prec in (20, 200):
        ctx = ArbCtx(prec)
        for n in (0, 1, -3, 4096, 4097, 2**80 + 1):
            ball = ctx.run(lambda c, n=n: c.num(n))
            assert ball.is_exact() and ball == flint.arb(flint.fmpz(n))
        assert ctx.zero == 0 and ctx.one == 1


def test_arb_fraction_balls_follow_the_working_precision():
    third = Fraction(1, 3)
    coarse = ArbCtx(20).run(lambda c: c.num(third))
    fine = ArbCtx(200).run(lambda c: c.num(third))
    assert fine.rad() < coarse.rad() and coarse.contains(fine)


def test_a_planted_constant_is_not_masked_by_the_shared_balls():
    def good(c, eps):
        return c.exp(eps) - c.one

    def planted(c, eps):  # a wrong constant: 2 instead of 1
        return c.exp(eps) - c.num(2)

    ctx = ArbCtx(128)
    a, b = ctx.run(good, eps=Fraction(1, 2)), ctx.run(planted, eps=Fraction(1, 2))
    assert not a.overlaps(b) and (a - b).contains(1)
    again = ctx.run(good, eps=Fraction(1, 2))
    assert again.overlaps(a) and not again.overlaps(b)
    assert ctx.one == 1 and ctx.num(2) == 2  # nothing shared was changed by the formulas


@pytest.mark.parametrize("prec", [24, 64, 200])
def test_every_arb_primitive_encloses_the_mpmath_value(prec):
    # The numeric verifier decides a point from ONE arb evaluation (no second, finer run), so each
    # primitive must be rigorous at every working precision, coarse ones included.
    ctx = ArbCtx(prec)
    cases = {
        "exp": (mpmath.exp, [Fraction(-7, 3), Fraction(1, 10**6), Fraction(41, 2)]),
        "log": (mpmath.log, [Fraction(1, 10**9), Fraction(7, 3), Fraction(10**8 + 1)]),
        "log1p": (mpmath.log1p, [Fraction(-1, 2), Fraction(1, 10**12), Fraction(5)]),
        "expm1": (mpmath.expm1, [Fraction(-3), Fraction(1, 10**12), Fraction(2)]),
        "sqrt": (mpmath.sqrt, [Fraction(2), Fraction(1, 10**7), Fraction(123456789, 7)]),
        "erfc": (mpmath.erfc, [Fraction(-2), Fraction(1, 3), Fraction(9)]),
        "tanh": (mpmath.tanh, [Fraction(-1, 7), Fraction(3), Fraction(1, 10**9)]),
        "lgamma": (mpmath.loggamma, [Fraction(1, 3), Fraction(5, 2), Fraction(1000)]),
    }
    for name, (reference, xs) in cases.items():
        for x in xs:
            ball = getattr(ctx, name)(ctx.num(x))
            lo, hi = arb_endpoints(ball)
            with mpmath.workdps(80):
                exact = reference(mpmath.mpf(x.numerator) / x.denominator)
                assert mpmath.mpf(lo.numerator) / lo.denominator <= exact, (name, x, prec)
                assert exact <= mpmath.mpf(hi.numerator) / hi.denominator, (name, x, prec)


def test_a_side_without_an_enclosure_at_any_precision_is_undecided_not_a_crash():
    from dpverify.theorems.claims import Compare, points
    from dpverify.theorems.ctx import PrecisionExhausted
    from dpverify.verifiers.numeric import decide_compare

    def never(ctx, **_):
        raise PrecisionExhausted("no enclosure")

    check = Compare(never, "le", lambda ctx, **_: ctx.one, points({}), "numeric")
    decision = decide_compare(check, {}, digits=15, max_bits=256)
    assert decision.holds is None and "no enclosure" in decision.note


def test_an_mp_error_that_does_not_shrink_with_the_precision_stops_the_escalation():
    # an approximation whose error is ~1/prec (not a rounding error): two levels show it, and
    # the escalation stops there instead of running to the ceiling
    from dpverify.theorems.claims import Compare, Tol, points
    from dpverify.verifiers.numeric import decide_compare

    seen: list[int] = []

    def approximate(ctx, **_):
        seen.append(ctx.prec)
        return ctx.one + ctx.one / ctx.prec

    check = Compare(approximate, "eq", lambda ctx, **_: ctx.one, points({}), "numeric",
                    Tol.abs("1e-40"), ctx="mp")
    decision = decide_compare(check, {}, digits=15, max_bits=4096)
    assert decision.holds is None and "not a rounding error" in decision.note
    assert max(seen) <= 4 * min(seen)  # two levels: (p, 2p) and (2p, 4p)


def test_a_rounding_limited_mp_comparison_still_escalates_and_decides():
    # exp(-200) + 1 - 1 == exp(-200) needs ~300 bits: the first level cannot see it, the
    # disagreement shrinks with the precision, and a higher level decides
    from dpverify.theorems.claims import Compare, Tol, points
    from dpverify.verifiers.numeric import decide_compare

    check = Compare(lambda ctx, **_: (ctx.exp(ctx.num(-200)) + 1) - 1, "eq",
                    lambda ctx, **_: ctx.exp(ctx.num(-200)), points({}), "numeric",
                    Tol.rel("1e-20"), ctx="mp")
    decision = decide_compare(check, {}, digits=15, max_bits=4096)
    assert decision.holds is True and decision.prec > 128


def test_a_series_that_does_not_converge_is_undecided_not_a_crash():
    from dpverify.theorems.claims import Compare, points
    from dpverify.theorems.errors import NoConvergence
    from dpverify.verifiers.numeric import decide_compare

    def diverging(ctx, **_):
        raise NoConvergence("the tail did not converge within 10 terms")

    check = Compare(diverging, "le", lambda ctx, **_: ctx.one, points({}), "numeric", ctx="mp")
    decision = decide_compare(check, {}, digits=15, max_bits=4096)
    assert decision.holds is None and "did not converge" in decision.note


def test_an_order_with_a_tolerance_is_certified_to_within_it_and_strictly_without() -> None:
    """``le`` with ``Tol``: ``lhs <= rhs + t``; where lhs equals rhs and neither ball is exact,
    only the tolerance makes it decidable; a violation beyond t is still refuted (both arb and
    the two-precision mp decision)."""
    import flint

    from dpverify.theorems.claims import Tol
    from dpverify.theorems.ctx import arb_precision
    from dpverify.verifiers.numeric import _decide_arb, _decide_mp

    with arb_precision(256):  # as decide() runs it: balls much tighter than the tolerance
        x = flint.arb(2).exp()  # not exact, radius ~1e-77
        tol = Tol.abs("1e-30")
        assert _decide_arb(x, "le", x, None)[0] is None
        assert _decide_arb(x, "le", x, tol)[0] is True
        assert _decide_arb(x, "ge", x, tol)[0] is True
        assert _decide_arb(x + flint.arb("1e-20"), "le", x, tol)[0] is False
        assert _decide_arb(x, "ge", x + flint.arb("1e-20"), tol)[0] is False
    import mpmath

    with mpmath.workprec(256):
        one, err = mpmath.mpf(1), mpmath.mpf("1e-40")
        assert _decide_mp(one, one, err, "le", None)[0] is None
        assert _decide_mp(one, one, err, "le", tol)[0] is True
        assert _decide_mp(one + mpmath.mpf("1e-20"), one, err, "le", tol)[0] is False
