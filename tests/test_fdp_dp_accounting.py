"""The float64 replica of dp_accounting's delta-grid TPR bound on a GDP curve (FDP-PLD-CONV
claim 4): its eps(delta) against the product's certified GDP inverse, and the bound's
soundness and excess against the exact TPR by mpmath."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from dpverify.theorems.formulas.dp_accounting_grid import (
    dp_accounting_delta_grid,
    gdp_eps_float,
    gdp_tpr_bounds,
)

mp = mpmath.MPContext()
mp.dps = 40


def _tpr_exact(mu: float, fpr: float) -> float:
    """Phi(Phi^{-1}(fpr) + mu) by mpmath's erfinv (independent of the product's ninv)."""
    z = mp.sqrt(2) * mp.erfinv(2 * mp.mpf(fpr) - 1)
    return float(mp.erfc(-(z + mu) / mp.sqrt(2)) / 2)


@pytest.mark.parametrize("delta", [1e-13, 1e-6, 1e-3, 0.1])
def test_eps_is_the_gdp_inverse(delta: float) -> None:
    eps = gdp_eps_float(1.0, delta)

    def d(e: object) -> object:
        return mp.ncdf(-e + mp.mpf(1) / 2) - mp.exp(e) * mp.ncdf(-e - mp.mpf(1) / 2)

    assert abs(float(d(mp.mpf(eps))) - delta) <= 1e-12 * delta


def test_delta_grid_is_zero_and_3000_logspaced_points() -> None:
    grid = dp_accounting_delta_grid()
    assert len(grid) == 3001 and grid[0] == 0 and grid[1] == pytest.approx(1e-13)
    assert grid[-1] == 1.0


@pytest.mark.parametrize("fpr", [1e-9, 1e-3, 0.1, 0.4])
def test_tpr_bound_is_above_the_exact_tpr_and_close(fpr: float) -> None:
    bound = float(gdp_tpr_bounds(1.0, np.array([fpr]))[0])
    exact = _tpr_exact(1.0, fpr)
    assert exact <= bound <= exact * (1 + 1e-3)
