"""The rigorous arb branches of the Laplace quadratures (formulas.laplace: output-space both
orders, PLD expectation, Rényi): each piecewise acb.integral enclosure contains mpmath's
tanh-sinh value of the same integral at 300 bits and the closed form at 400 bits."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from dpverify.theorems.ctx import ArbCtx, MpCtx
from dpverify.theorems.formulas.laplace import (
    laplace_delta,
    laplace_delta_output_quad,
    laplace_delta_pld_quad,
    laplace_rdp_tau,
    laplace_renyi_quad,
)

mp = mpmath.MPContext()
mp.prec = 450


def _contains(ball: object, value: object) -> bool:
    lo = mp.mpf(ball.lower().mid().str(140, radius=False))
    hi = mp.mpf(ball.upper().mid().str(140, radius=False))
    return bool(lo <= mp.mpf(value) <= hi)


def _reverse(ctx: object, b: object, eps: object, sensitivity: object) -> object:
    return laplace_delta_output_quad(ctx, b, eps, sensitivity, True)


@pytest.mark.parametrize("quad", [laplace_delta_output_quad, _reverse, laplace_delta_pld_quad])
@pytest.mark.parametrize(("eps0", "eps", "sens"), [("1", "0.3", "1"), ("2", "0", "1"),
                                                   ("0.5", "0.49", "1"), ("3", "3.5", "1"),
                                                   ("1", "-2", "1"), ("1/3", "1/7", "2")])
def test_delta_enclosures(quad: object, eps0: str, eps: str, sens: str) -> None:
    pt = {"b": F(sens) / F(eps0), "eps": F(eps), "sensitivity": F(sens)}
    ball = ArbCtx(165).run(quad, **pt)
    assert ball.is_finite() and ball.rad() < 1e-42
    assert _contains(ball, MpCtx(300).run(quad, **pt))
    assert _contains(ball, MpCtx(400).run(laplace_delta, **pt))


@pytest.mark.parametrize("alpha", ["1.5", "2", "10", "101/100"])
def test_renyi_enclosure(alpha: str) -> None:
    pt = {"b": F(5, 4), "alpha": F(alpha), "sensitivity": F(1)}
    ball = ArbCtx(150).run(laplace_renyi_quad, **pt)
    assert ball.is_finite() and ball.rad() < 1e-38
    assert _contains(ball, MpCtx(300).run(laplace_renyi_quad, **pt))
    assert _contains(ball, MpCtx(400).run(laplace_rdp_tau, **pt))
