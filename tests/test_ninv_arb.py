"""formulas.tradeoff.ninv in arb: flint's ``erfcinv`` ball (the direct route) contains the
quantile computed independently by mpmath (findroot on erfc at 75 digits, tests.test_fdp), and
is never wider than the certified Newton route it short-cuts (that route run with the direct one
switched off)."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from dpverify.theorems.ctx import make_ctx
from dpverify.theorems.formulas import tradeoff
from tests.test_fdp import mp, ninv

PS = [F(1, 10**k) for k in (1, 5, 20, 100, 250)] + [F(i, 97) for i in range(1, 97, 7)] + [
    1 - F(1, 10**k) for k in (3, 9, 15)]


def _arb_quantile(prec: int, p: F) -> object:
    return make_ctx("arb", prec).run(lambda c, p: tradeoff.ninv(c, p), p=p)


def _mp(x: object) -> mpmath.mpf:
    return mp.mpf(x.mid().str(80, radius=False))  # an endpoint, exact in 80 digits


@pytest.mark.parametrize("prec", [64, 132, 300])
def test_direct_ball_contains_reference_and_is_no_wider(prec: int,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    direct = [_arb_quantile(prec, p) for p in PS]
    monkeypatch.setattr(tradeoff, "_ninv_arb_direct", lambda c, p: None)
    newton = [_arb_quantile(prec, p) for p in PS]
    for p, d, n in zip(PS, direct, newton, strict=True):
        ref = ninv(mp.mpf(p.numerator) / p.denominator)
        slack = abs(ref) * mp.mpf(2) ** -250  # the reference's own accuracy
        assert _mp(d.lower()) - slack <= ref <= _mp(d.upper()) + slack, (p, d, ref)
        assert d.overlaps(n)
        assert d.rad() <= n.rad(), (p, d, n)


def test_wide_ball_keeps_the_newton_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """A wide input ball (branch and bound) takes the Newton/bisection route, as before."""
    ctx = make_ctx("arb", 64)

    def wide() -> object:
        return ctx.run(lambda c, **_: tradeoff.ninv(c, c.interval(F(29, 100), F(31, 100))))

    with_direct = wide()
    monkeypatch.setattr(tradeoff, "_ninv_arb_direct", lambda c, p: None)
    without = wide()
    assert with_direct.is_finite()
    assert with_direct.mid() == without.mid() and with_direct.rad() == without.rad()
