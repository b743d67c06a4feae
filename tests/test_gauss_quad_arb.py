"""The rigorous arb branches of the Gaussian quadratures (formulas.gaussian's delta quadratures,
theorems.fdp.composition's tensor test): each acb.integral enclosure contains the value of the
same integral by mpmath's tanh-sinh at 300 bits (the mp branch, an independent algorithm) and
the closed form at 400 bits, and is narrow enough to decide the catalogue's 1e-40 checks."""

from __future__ import annotations

from fractions import Fraction as F

import mpmath
import pytest

from dpverify.theorems.ctx import ArbCtx, MpCtx
from dpverify.theorems.fdp.composition import _gauss_test_quad
from dpverify.theorems.formulas.gaussian import (
    gauss_delta,
    gauss_delta_output_quad,
    gauss_delta_pld_quad,
    gauss_delta_tail_quad,
    gauss_renyi_output_quad,
    gauss_renyi_quad,
    normal_pld_delta,
    pld_gauss_delta_quad,
    pld_gauss_mgf_quad,
    pld_mgf_renyi_quad,
)

mp = mpmath.MPContext()
mp.prec = 450

POINTS = [("1", "1"), ("0.5", "3"), ("2.5", "0.3"), ("0.2", "40"), ("3", "0"), ("0.7", "-0.5")]
QUADS = [gauss_delta_pld_quad, gauss_delta_tail_quad, gauss_delta_output_quad]


def _contains(ball: object, value: object) -> bool:
    lo = mp.mpf(ball.lower().mid().str(140, radius=False))
    hi = mp.mpf(ball.upper().mid().str(140, radius=False))
    return bool(lo <= mp.mpf(value) <= hi)


@pytest.mark.parametrize("quad", QUADS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(("sigma", "eps"), POINTS)
def test_delta_quadrature_enclosure(quad: object, sigma: str, eps: str) -> None:
    pt = {"sigma": F(sigma), "eps": F(eps)}
    ball = ArbCtx(165).run(quad, **pt)
    assert ball.is_finite() and ball.rad() < 1e-42
    assert _contains(ball, MpCtx(300).run(quad, **pt))  # tanh-sinh, the mp branch
    assert _contains(ball, MpCtx(400).run(gauss_delta, **pt))  # [BW18] closed form


@pytest.mark.parametrize(("rho", "eps"), [("25/32", "0.5"), ("25/32", "2"), ("67/100", "1"),
                                          ("1/50", "0"), ("3", "-1")])
def test_pld_delta_quadrature_enclosure(rho: str, eps: str) -> None:
    pt = {"rho": F(rho), "eps": F(eps)}
    ball = ArbCtx(165).run(pld_gauss_delta_quad, **pt)
    assert ball.is_finite() and ball.rad() < 1e-42
    assert _contains(ball, MpCtx(300).run(pld_gauss_delta_quad, **pt))
    assert _contains(ball, MpCtx(400).run(lambda c, rho, eps: normal_pld_delta(c, rho, eps), **pt))


BUMPS = [  # (quadrature, point, exact value): the Rényi divergences alpha mean^2/(2 sigma^2)
    (gauss_renyi_quad, {"sigma": F(1), "alpha": F(2)}, F(1)),
    (gauss_renyi_quad, {"sigma": F(3), "alpha": F(5, 4)}, F(5, 72)),
    (pld_mgf_renyi_quad, {"rho": F(37, 100), "alpha": F(29, 4)}, F(29, 4) * F(37, 100)),
    (pld_gauss_mgf_quad, {"rho": F(37, 100), "t": F(-1)}, F(1)),  # E[e^{-Z}] = 1
    (gauss_renyi_output_quad, {"mean": F(3), "sigma": F(2), "alpha": F(5, 2)}, F(45, 16)),
    (gauss_renyi_output_quad, {"mean": F(1), "sigma": F(1, 2), "alpha": F(7)}, F(14)),
]


@pytest.mark.parametrize(("quad", "point", "exact"), BUMPS)
def test_bump_enclosure(quad: object, point: dict, exact: F) -> None:
    ball = ArbCtx(165).run(quad, **point)
    assert ball.is_finite() and ball.rad() < 1e-40
    assert _contains(ball, MpCtx(300).run(quad, **point))
    assert _contains(ball, mp.mpf(exact.numerator) / exact.denominator)


@pytest.mark.parametrize("t", ["0.3", "2.5", "-0.5", "1.2"])
def test_tensor_test_enclosure(t: str) -> None:
    """Type-I = Phi(-t) and type-II = Phi(t - 1) (0.6^2 + 0.8^2 = 1), and the mp branch."""
    arb_pair = ArbCtx(132).run(lambda ctx, t: _gauss_test_quad(ctx, t), t=F(t))
    mp_pair = MpCtx(300).run(lambda ctx, t: _gauss_test_quad(ctx, t), t=F(t))
    tt = mp.mpf(F(t).numerator) / F(t).denominator
    for ball, quad, exact in zip(arb_pair, mp_pair, (mp.ncdf(-tt), mp.ncdf(tt - 1)),
                                 strict=True):
        assert ball.rad() < 1e-35
        assert _contains(ball, quad) and _contains(ball, exact)
