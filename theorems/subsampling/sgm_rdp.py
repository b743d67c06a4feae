"""MTZ-SGM-RDP: the RDP of the sampled Gaussian (binomial sum, series, rigorous quadrature) and its
conversions to (eps, delta) over the standard order grid.

Formulas: :mod:`dpverify.theorems.formulas.subsampled_gaussian`.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Tol
from dpverify.theorems.core import Choice, Evaluator, Theorem
from dpverify.theorems.formulas.subsampled_gaussian import (
    sgm1_eps,
    sgm_rdp_binomial,
    sgm_rdp_eps,
    sgm_rdp_eps_mironov,
    sgm_rdp_quad,
    sgm_rdp_series,
    sgm_tau,
)
from dpverify.theorems.numerics.integers import as_int
from dpverify.theorems.params import ALPHA, DELTA, ORDERS, SIGMA, K, Q
from dpverify.theorems.refs import MTZ19, cite
from dpverify.theorems.subsampling.common import FAMILY, RDP_GRID, pld_eps_hi
from dpverify.theorems.subsampling.scenarios import scenario_points
from dpverify.theorems.values import exact_params, to_ctx


def _sgm_rdp_quad_int(ctx: Any, q: Any, sigma: Any, alpha: Any, **_: Any) -> Any:
    return sgm_rdp_quad(ctx, q, sigma, alpha, "add")


def _sgm_rdp_remove(ctx: Any, q: Any, sigma: Any, alpha: Any, **_: Any) -> Any:
    return sgm_rdp_quad(ctx, q, sigma, alpha, "remove")


def _optimal_order(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, **_: Any) -> int:
    """The integer order of the standard grid minimising BALLE20-CONV.eps (floats)."""
    qf, sf, df = float(q), float(sigma), float(delta)
    best, arg = math.inf, 2
    for a in range(2, 257):
        terms = [math.lgamma(a + 1) - math.lgamma(i + 1) - math.lgamma(a - i + 1)
                 + (a - i) * math.log1p(-qf) + i * math.log(qf) + (i * i - i) / (2 * sf * sf)
                 for i in range(a + 1)]
        mx = max(terms)
        tau = (mx + math.log(sum(math.exp(t - mx) for t in terms))) / (a - 1)
        e = k * tau + math.log((a - 1) / a) - (math.log(df) + math.log(a)) / (a - 1)
        if e < best:
            best, arg = e, a
    return arg


def _mtz_claims() -> tuple[Claim, ...]:
    def binom(ctx: Any, q: Any, sigma: Any, alpha: Any, **_: Any) -> Any:
        return sgm_rdp_binomial(ctx, q, sigma, as_int(ctx, alpha) or 2)

    def at_opt(f: Any) -> Any:
        @exact_params("q", "sigma", "delta")
        def g(ctx: Any, q: Any, sigma: Any, k: int, delta: Any, **_: Any) -> Any:
            a = _optimal_order(ctx, q, sigma, k, delta)
            return f(ctx, to_ctx(ctx, q), to_ctx(ctx, sigma), ctx.num(a))
        return g

    frac_points = Points(({"q": "0.01", "sigma": "1", "alpha": "2.5"},))
    return (
        Claim(1, "The binomial sum equals quadrature of E_Q[(P/Q)^alpha] to 1e-35 for the 16 "
                 "combinations (q, sigma) in {(0.01, 1), (0.001, 0.8), (0.2, 2), (0.5, 0.7)} x "
                 "alpha in {2, 3, 8, 20} (rigorous acb quadrature); scenario claim 3: at each "
                 "standard scenario's optimal integer order they agree to 20 digits.",
              (Compare(binom, "eq", _sgm_rdp_quad_int, RDP_GRID, "numeric", Tol.abs("1e-35"),
                       "binomial sum", "quadrature of E_Q[(P/Q)^alpha]"),
               Compare(at_opt(lambda c, q, s, a: sgm_rdp_binomial(c, q, s, as_int(c, a))),
                       "eq", at_opt(lambda c, q, s, a: sgm_rdp_quad(c, q, s, a)),
                       scenario_points(), "numeric", Tol.rel("1e-20"),
                       "binomial sum at the optimal order", "quadrature")), scope="instance"),
        Claim(2, "The reverse direction is <= the forward one in all 16 combinations.",
              (Compare(_sgm_rdp_remove, "le", binom, RDP_GRID, "numeric",
                       lhs_name="D_alpha(N0||mix)", rhs_name="D_alpha(mix||N0)"),),
              scope="instance"),
        Claim(3, "Fractional alpha = 2.5 lies between alpha = 2 and alpha = 3 (q = 0.01, "
                 "sigma = 1): RDP is nondecreasing in alpha.",
              (Compare(lambda ctx, q, sigma, **_: sgm_rdp_binomial(ctx, q, sigma, 2), "le",
                       lambda ctx, q, sigma, **_: sgm_tau(ctx, q, sigma, ctx.num("2.5")),
                       Points(({"q": "0.01", "sigma": "1"},)), "numeric",
                       lhs_name="tau(2)", rhs_name="tau(2.5)"),
               Compare(lambda ctx, q, sigma, **_: sgm_tau(ctx, q, sigma, ctx.num("2.5")), "le",
                       lambda ctx, q, sigma, **_: sgm_rdp_binomial(ctx, q, sigma, 3),
                       Points(({"q": "0.01", "sigma": "1"},)), "numeric",
                       lhs_name="tau(2.5)", rhs_name="tau(3)")), scope="instance"),
        Claim(4, "Sharp rise with order: q = 0.01, sigma = 1: the one-step RDP is 8.936e-4 at "
                 "alpha = 8 and 3.0879 at alpha = 16 (to the digits shown).",
              (Compare(lambda ctx, **_: sgm_rdp_binomial(ctx, ctx.num("0.01"), ctx.one, 8), "eq",
                       lambda ctx, **_: ctx.num("8.936e-4"), Points(({},)), "numeric",
                       Tol.abs("5e-8"), "tau(8)", "8.936e-4"),
               Compare(lambda ctx, **_: sgm_rdp_binomial(ctx, ctx.num("0.01"), ctx.one, 16),
                       "eq", lambda ctx, **_: ctx.num("3.0879"), Points(({},)), "numeric",
                       Tol.abs("5e-5"), "tau(16)", "3.0879")), scope="instance"),
        Claim(5, "The fractional-order series equals quadrature at a fractional order of the "
                 "standard grid (alpha = 2.5, q = 0.01, sigma = 1; mpmath, the alternating tail "
                 "accelerated; one order only, for the quick profile's time: tests/"
                 "test_subsampling.py covers all seven fractional orders).",
              (Compare(lambda ctx, q, sigma, alpha, **_: sgm_rdp_series(ctx, q, sigma, alpha),
                       "eq", _sgm_rdp_quad_int, frac_points, "numeric", Tol.rel("1e-20"),
                       "[MTZ19] series", "quadrature", ctx="mp"),), scope="instance"),
        Claim(6, "eps <= eps_mironov for all inputs (scenario claim 1: at each standard DP-SGD "
                 "scenario).",
              (Compare(sgm_rdp_eps, "le", sgm_rdp_eps_mironov,
                       Box(reals={"q": ("0.001", "1"), "sigma": ("0.5", "5"),
                                  "delta": ("1e-12", "0.1")}, ints={"k": (1, 20000)},
                           log_scale=frozenset({"q", "sigma", "delta"})),
                       "property", lhs_name="MTZ-SGM-RDP.eps", rhs_name="eps_mironov"),
               Compare(sgm_rdp_eps, "le", sgm_rdp_eps_mironov, scenario_points(), "numeric",
                       lhs_name="MTZ-SGM-RDP.eps", rhs_name="eps_mironov"))),
        Claim(7, "eps(q, sigma, k, delta) >= the exact eps of the k-step composition (certified "
                 "upper end of the SGM-PLD-COMP enclosure); at k = 1 also >= SGM-1STEP-EXACT.",
              (Compare(sgm_rdp_eps, "ge", pld_eps_hi(rel_width=0.02),
                       Points(({"q": "0.05", "sigma": "1.5", "k": 50, "delta": "1e-6"},
                               {"q": "0.1", "sigma": "2", "k": 200, "delta": "1e-5"})),
                       "numeric", lhs_name="MTZ-SGM-RDP.eps",
                       rhs_name="upper end of the certified PLD enclosure"),
               Compare(sgm_rdp_eps, "ge", lambda ctx, q, sigma, delta, **_:
                       sgm1_eps(ctx, q, sigma, delta),
                       Points(({"q": "0.01", "sigma": "1", "k": 1, "delta": "1e-5"},)),
                       "numeric", lhs_name="MTZ-SGM-RDP.eps (k = 1)",
                       rhs_name="SGM-1STEP-EXACT.eps")), scope="instance"),
    )


DIRECTION_RDP = Choice("direction", ("add", "remove"), default="add")
K_ONE = replace(K, default="1")


@exact_params("q", "sigma", "alpha")
def sgm_tau_composed(ctx: Any, q: Any, sigma: Any, alpha: Any, k: int = 1,
                     direction: str = "add") -> Any:
    """``k * MTZ-SGM-RDP.tau(q, sigma, alpha, direction)``: the RDP of k steps at one order
    (RDP composes additively, [Mir17] arXiv 1702.07476v3, Prop. 1), the quantity that
    Opacus's / TF-Privacy's ``compute_rdp(q, noise_multiplier, steps, orders)`` returns per
    order."""
    return k * sgm_tau(ctx, to_ctx(ctx, q), to_ctx(ctx, sigma), to_ctx(ctx, alpha), direction)


MTZ_SGM_RDP = Theorem(
    id="MTZ-SGM-RDP",
    title="RDP of the Poisson-subsampled Gaussian (sampled Gaussian mechanism)",
    family=FAMILY,
    source=cite(MTZ19, "Sec. 3 (integer orders: Sec. 3.3; fractional orders: Sec. 3.3 series); "
                       "[S22] Sec. 6.5"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="D_alpha(mix || N(0, sigma^2)) with mix = (1-q)N(0, sigma^2) + qN(1, sigma^2); "
              "for integer alpha >= 2: (1/(alpha-1)) log sum_k C(alpha,k) (1-q)^{alpha-k} q^k "
              "exp((k^2 - k)/(2 sigma^2)); D_alpha(N0||mix) <= D_alpha(mix||N0).",
    domain="q in (0, 1], sigma > 0, alpha > 1",
    evaluators=(
        Evaluator("tau", (Q, SIGMA, ALPHA, DIRECTION_RDP), sgm_tau,
                  "D_alpha(mix||N0) (add; binomial sum at integer alpha, rigorous quadrature "
                  "otherwise) or D_alpha(N0||mix) (remove)"),
        Evaluator("tau_orders", (Q, SIGMA, ORDERS, K_ONE, DIRECTION_RDP), sgm_tau_composed,
                  "k * tau(q, sigma, alpha, direction) at every alpha of orders (one value per "
                  "order, in the given order; k = 1: tau itself)", vector=("orders", "alpha")),
        Evaluator("eps", (Q, SIGMA, K, DELTA), sgm_rdp_eps,
                  "max(0, min over the standard order grid of BALLE20-CONV.eps(alpha, k tau, "
                  "delta))"),
        Evaluator("eps_mironov", (Q, SIGMA, K, DELTA), sgm_rdp_eps_mironov,
                  "max(0, min over the standard order grid of MIR-RDP-CONV.eps(alpha, k tau, "
                  "delta))"),
    ),
    claims=_mtz_claims(),
    aliases=("STK-SHARP-RDP",),
    notes="Standard order grid: 1.25, 1.5, 1.75, 2.25, 2.5, 3.5, 4.5 and every integer 2..256. "
          "tau_orders (added for issue 16; not in the catalogue's list) evaluates tau at "
          "user-given orders, times k (default 1): `dpverify eval MTZ-SGM-RDP.tau_orders q=0.01 "
          "sigma=1 orders=2,4.5,32` prints one value per line in the order given; with --format "
          "json `value` is an array of strings and `enclosure` an array of [lo, hi] pairs "
          "(entries null where no enclosure was computed), one per order.",
)
