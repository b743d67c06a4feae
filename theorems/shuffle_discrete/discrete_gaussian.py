"""CKS20-DGAUSS: the discrete Gaussian's exact privacy profile ([CKS20] Thm 7), exact Rényi
divergence and zCDP, and variance (Lemma 20 and bounds), against enumeration, the continuous
Gaussian (BW-ANALYTIC-GAUSS) and the zCDP conversion (CKS20-CONV).

Formulas: :mod:`dpverify.theorems.formulas.discrete_gaussian`. Claim points are given as ``v =
sigma^2`` (exact rationals; Thm 7's cut-offs ``floor(eps v/D -/+ D/2)`` are computed exactly).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Tol, grid
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.formulas.conversions import cks_delta
from dpverify.theorems.formulas.discrete_gaussian import (
    dg_delta_enum,
    dg_delta_v,
    dg_eps_v,
    dg_normalizer_direct,
    dg_normalizer_poisson,
    dg_renyi_v,
    dg_variance,
    dg_variance_direct,
    dg_variance_dual,
    dg_variance_gap,
    dg_variance_lower,
    dg_variance_small,
    dg_variance_upper,
    dg_variance_upper_gap,
)
from dpverify.theorems.formulas.gaussian import gauss_delta
from dpverify.theorems.params import ALPHA, DELTA, EPS, SENSITIVITY_INT, SIGMA_SCALE
from dpverify.theorems.refs import CKS20_V3, cite
from dpverify.theorems.shuffle_discrete.discrete_common import FAMILY
from dpverify.theorems.shuffle_discrete.mutation_guards import (
    DG_MP_BOX,
    MP_ROUTE_TOL,
    TAIL_BOX,
    dg_mp_route_gap,
    gauss_tail_sandwich,
)
from dpverify.theorems.values import exact_params, to_ctx

# ------------------------------------------------------------------------------------------
# evaluators (sigma is the scale; v = sigma^2 exact)

ALPHA_DG = replace(ALPHA, ceiling=10**6, limit_reason="a cost limit of dpverify: the shifted "
                   "normalizer at c = (1 - alpha) D needs precision growing with log(alpha) "
                   "(alpha = 10^308 does not finish)")


@exact_params("sigma", "eps")
def dgauss_delta(ctx: Any, sigma: Fraction, eps: Fraction, sensitivity: int) -> Any:
    """[CKS20] Thm 7 at scale sigma (``v = sigma^2``)."""
    return dg_delta_v(ctx, Fraction(sigma) ** 2, Fraction(eps), sensitivity)


@exact_params("sigma")
def dgauss_eps(ctx: Any, sigma: Fraction, delta: Any, sensitivity: int) -> Any:
    return dg_eps_v(ctx, Fraction(sigma) ** 2, delta, sensitivity)


def dgauss_renyi(ctx: Any, sigma: Any, alpha: Any, sensitivity: int) -> Any:
    return dg_renyi_v(ctx, sigma**2, alpha, sensitivity)


def dgauss_variance(ctx: Any, sigma: Any) -> Any:
    return dg_variance(ctx, sigma**2)


# ------------------------------------------------------------------------------------------
# claim terms over v = sigma^2


@exact_params("v", "eps")
def _thm7(ctx: Any, v: Fraction, eps: Fraction, sensitivity: int = 1, **_: Any) -> Any:
    return dg_delta_v(ctx, Fraction(v), Fraction(eps), sensitivity)


@exact_params("v", "eps")
def _enum(ctx: Any, v: Fraction, eps: Fraction, sensitivity: int = 1, **_: Any) -> Any:
    return dg_delta_enum(ctx, Fraction(v), ctx.num(Fraction(eps)), sensitivity)


@exact_params("v", "eps")
def _round_trip(ctx: Any, v: Fraction, eps: Fraction, sensitivity: int = 1, **_: Any) -> Any:
    return dg_eps_v(ctx, Fraction(v), dg_delta_v(ctx, Fraction(v), Fraction(eps), sensitivity),
                    sensitivity)


def _eps(ctx: Any, eps: Any, **_: Any) -> Any:
    return ctx.num(eps) if isinstance(eps, Fraction | int) else eps


def _renyi(ctx: Any, v: Any, alpha: Any, sensitivity: int = 1, **_: Any) -> Any:
    return dg_renyi_v(ctx, v, alpha, sensitivity)


def _zcdp(ctx: Any, v: Any, alpha: Any, sensitivity: int = 1, **_: Any) -> Any:
    return alpha * sensitivity**2 / (2 * v)


def _renyi_nf(ctx: Any, v: Any, n: int, f: Any, sensitivity: int = 1, **_: Any) -> Any:
    return dg_renyi_v(ctx, v, n + f, sensitivity)


def _zcdp_nf(ctx: Any, v: Any, n: int, f: Any, sensitivity: int = 1, **_: Any) -> Any:
    return (n + f) * sensitivity**2 / (2 * v)


def _value(ctx: Any, value: Any, **_: Any) -> Any:
    return to_ctx(ctx, value)


def _v_term(f: Any) -> Any:
    return lambda ctx, v, **_: f(ctx, v)


def _at(**kw: Any) -> dict[str, Any]:
    return kw


_THM7_POINTS = Points(tuple(_at(v=v, eps=e, sensitivity=d, value=val) for v, e, d, val in (
    ("1", "1", 1, "0.1413513394056219"), ("4", "0.5", 1, "0.05400722369415442"),
    ("1/4", "2", 1, "0.1047648441098983"), ("10", "0.3", 2, "0.1485520482863972"),
    ("2", "1.5", 3, "0.4820366866199842"))))
_CONV_POINTS = grid(v=["1"], eps=["1", "3"]).points + grid(v=["4"], eps=["0.5"]).points + grid(
    v=["1/4"], eps=["2"]).points + grid(v=["16"], eps=["1"]).points
_VAR_POINTS = Points(tuple(_at(v=v, value=val) for v, val in (
    ("0.05", "9.079161565905580e-5"), ("0.2", "0.1413198830470690"),
    ("1", "0.9999997887677281"), ("3", "3"))))
_THM7_BOX = Box(reals={"v": ("0.1", "20"), "eps": ("0", "4")}, ints={"sensitivity": (1, 3)})
_RENYI_FRAC_BOX = Box(reals={"v": ("0.2", "10"), "f": ("0.001", "0.999")},
                      ints={"n": (1, 11), "sensitivity": (1, 2)})
_RENYI_INT_BOX = Box(reals={"v": ("0.2", "10")}, ints={"alpha": (2, 12), "sensitivity": (1, 2)})
_LOWER_BOX = Box(reals={"v": ("0.005", "3")}, log_scale=frozenset({"v"}))
_SMALL_BOX = Box(reals={"v": ("0.005", "1/3")}, log_scale=frozenset({"v"}))
_VAR_BOX = Box(reals={"v": ("0.02", "5")}, log_scale=frozenset({"v"}))


CKS20_DGAUSS = Theorem(
    id="CKS20-DGAUSS",
    title="The discrete Gaussian: exact privacy profile, zCDP and variance",
    family=FAMILY,
    source=cite(CKS20_V3, "Thm 7 (cdp2adp.dg_delta), Lemma 20 (discretegauss.variance), the "
                "README's zCDP statement, variance bounds as in plots.plot_dg_var (numbers not "
                "recovered); Rényi equality derived"),
    types=("EXACT", "BOUND"),
    confidence=("CONFIRMED", "DERIVED"),
    statement="N_Z(0, sigma^2): P[X = x] = e^{-x^2/(2 sigma^2)}/Z(sigma), Z = sqrt(2 pi "
              "sigma^2) sum_y e^{-2 pi^2 sigma^2 y^2} (sigma a SCALE, not the standard "
              "deviation). Thm 7: M(x) = q(x) + X with integer sensitivity D is (eps, delta)-DP "
              "with delta = P[X > eps sigma^2/D - D/2] - e^eps P[X > eps sigma^2/D + D/2], "
              "the least such delta. D_alpha(N_Z(0) || N_Z(D)) = alpha D^2/(2 sigma^2) + "
              "log(Z_c/Z)/(alpha - 1), c = (1 - alpha) D; Z_c <= Z, so M is D^2/(2 "
              "sigma^2)-zCDP, with equality at integer alpha. Lemma 20: Var(sigma^2) = "
              "sigma^2 (1 - 4 pi^2 sigma^2 Var(1/(4 pi^2 sigma^2))); 1/(e^{1/sigma^2} - 1) <= "
              "Var <= sigma^2 (1 - 4 pi^2 sigma^2/(e^{4 pi^2 sigma^2} - 1)) < sigma^2, and "
              "Var <= 3 e^{-1/(2 sigma^2)} for sigma^2 <= 1/3.",
    domain="sigma > 0 (scale); sensitivity integer >= 1; eps >= 0; alpha > 1",
    evaluators=(
        Evaluator("delta", (SIGMA_SCALE, EPS, SENSITIVITY_INT), dgauss_delta,
                  "Thm 7: tails summed from the cut-offs (rigorous truncation), normalizer by "
                  "the faster of the direct and Poisson series"),
        Evaluator("eps", (SIGMA_SCALE, DELTA, SENSITIVITY_INT), dgauss_eps,
                  "least eps >= 0 with delta(sigma, eps, sensitivity) <= delta (bisection to "
                  "the piece, then log((A - delta)/B))"),
        Evaluator("renyi", (SIGMA_SCALE, ALPHA_DG, SENSITIVITY_INT), dgauss_renyi,
                  "exact D_alpha = alpha D^2/(2 sigma^2) + log(Z_c/Z)/(alpha - 1)"),
        Evaluator("variance", (SIGMA_SCALE,), dgauss_variance,
                  "Var[N_Z(0, sigma^2)]: direct series for sigma^2 <= 1/(2 pi), Lemma 20 "
                  "above"),
    ),
    claims=(
        Claim(1, "Thm 7 equals direct enumeration sum_x (P(x) - e^eps P(x - D))_+ to 1e-45 at "
                 "(sigma^2, eps, D) in {(1, 1, 1), (4, 0.5, 1), (0.25, 2, 1), (10, 0.3, 2), (2, "
                 "1.5, 3)}: 0.1413513394056219, 0.05400722369415442, 0.1047648441098983, "
                 "0.1485520482863972, 0.4820366866199842 (to 1e-16).",
              (Compare(_thm7, "eq", _enum, _THM7_POINTS, "oracle", Tol.abs("1e-45"),
                       "Thm 7", "enumeration"),
               Compare(_thm7, "eq", _value, _THM7_POINTS, "numeric", Tol.abs("1e-16"),
                       "Thm 7", "catalogue value")),
              scope="instance"),
        Claim(2, "Neither profile dominates: at sigma^2 = 1, eps = 1 the discrete value "
                 "0.1413513 exceeds BW-ANALYTIC-GAUSS 0.1269367; at sigma^2 = 0.25, eps = 2 it "
                 "is 0.1047648 < 0.3318980.",
              (Compare(_thm7, "gt", lambda ctx, eps, **_: gauss_delta(ctx, ctx.one, eps),
                       grid(v=["1"], eps=["1"]), "numeric", lhs_name="Thm 7",
                       rhs_name="BW-ANALYTIC-GAUSS.delta(1, eps)"),
               Compare(_thm7, "lt", lambda ctx, eps, **_: gauss_delta(ctx, ctx.num("1/2"), eps),
                       grid(v=["1/4"], eps=["2"]), "numeric", lhs_name="Thm 7",
                       rhs_name="BW-ANALYTIC-GAUSS.delta(1/2, eps)"),
               Compare(lambda ctx, **_: gauss_delta(ctx, ctx.one, ctx.one), "eq",
                       lambda ctx, **_: ctx.num("0.1269367"), Points(({},)), "numeric",
                       Tol.abs("1e-7")),
               Compare(lambda ctx, **_: gauss_delta(ctx, ctx.num("1/2"), ctx.num(2)), "eq",
                       lambda ctx, **_: ctx.num("0.3318980"), Points(({},)), "numeric",
                       Tol.abs("1e-7"))),
              scope="instance"),
        Claim(3, "Rényi: renyi equals alpha/(2 sigma^2) to 1e-45 at integer orders ((sigma^2, "
                 "alpha) = (1, 2) -> 1, (1, 3) -> 1.5, (4, 7) -> 0.875) and is strictly below "
                 "it at fractional orders: (1, 2.5) -> 1.249999992865899 < 1.25; (0.3, 1.5) -> "
                 "2.478556024146767 < 2.5 (to 1e-15).",
              (Compare(_renyi, "eq", _zcdp, Points((_at(v="1", alpha=2), _at(v="1", alpha=3),
                                                   _at(v="4", alpha=7))),
                       "numeric", Tol.abs("1e-45"), "renyi", "alpha/(2 sigma^2)"),
               Compare(_renyi, "lt", _zcdp,
                       Points((_at(v="1", alpha="2.5"), _at(v="0.3", alpha="1.5"))),
                       "numeric", lhs_name="renyi", rhs_name="alpha/(2 sigma^2)"),
               Compare(_renyi, "eq", _value,
                       Points((_at(v="1", alpha="2.5", value="1.249999992865899"),
                               _at(v="0.3", alpha="1.5", value="2.478556024146767"))),
                       "numeric", Tol.abs("1e-15"), "renyi", "catalogue value")),
              scope="instance"),
        Claim(4, "The zCDP route is sound: Thm 7 delta <= CKS20-CONV.delta(1/(2 sigma^2), eps) "
                 "at (sigma^2, eps) in {(1, 1), (4, 0.5), (0.25, 2), (1, 3), (16, 1)}.",
              (Compare(_thm7, "le", lambda ctx, v, eps, **_: cks_delta(ctx, 1 / (2 * v), eps),
                       Points(_CONV_POINTS), "numeric", lhs_name="Thm 7",
                       rhs_name="CKS20-CONV.delta(1/(2 sigma^2), eps)"),),
              scope="instance"),
        Claim(5, "Lemma 20: the direct variance equals the Lemma-20 form to 1e-45 at sigma^2 in "
                 "{0.05, 0.2, 1, 3} (values 9.079161565905580e-5, 0.1413198830470690, "
                 "0.9999997887677281, 3 - 1.4e-23, to 1e-15); the lower and upper bounds hold "
                 "there, Var <= 3 e^{-1/(2 sigma^2)} at 0.05 and 0.2; direct and Poisson "
                 "normalizers agree to 1e-45 at sigma^2 = 3.",
              (Compare(_v_term(dg_variance_direct), "eq", _v_term(dg_variance_dual),
                       _VAR_POINTS, "numeric", Tol.abs("1e-45"), "direct Var", "Lemma 20"),
               Compare(_v_term(dg_variance), "eq", _value, _VAR_POINTS, "numeric",
                       Tol.abs("1e-15"), "Var", "catalogue value"),
               Compare(_v_term(dg_variance_lower), "le", _v_term(dg_variance), _VAR_POINTS,
                       "numeric", lhs_name="1/(e^{1/sigma^2} - 1)", rhs_name="Var"),
               Compare(_v_term(dg_variance), "le", _v_term(dg_variance_upper), _VAR_POINTS,
                       "numeric", lhs_name="Var", rhs_name="upper bound"),
               Compare(_v_term(dg_variance), "le", _v_term(dg_variance_small),
                       grid(v=["0.05", "0.2"]), "numeric", lhs_name="Var",
                       rhs_name="3 e^{-1/(2 sigma^2)}"),
               Compare(_v_term(dg_normalizer_direct), "eq", _v_term(dg_normalizer_poisson),
                       grid(v=["3"]), "numeric", Tol.abs("1e-45"), "direct Z", "Poisson Z")),
              scope="instance"),
        Claim(6, "Var < sigma^2 over the whole box sigma^2 in [0.01, 100], through sigma^2 - "
                 "Var = 4 pi^2 sigma^4 Var(1/(4 pi^2 sigma^2)) > 0 (Lemma 20; no cancellation) "
                 "[interval].",
              (Compare(_v_term(dg_variance_gap), "gt", lambda ctx, **_: ctx.zero,
                       Box(reals={"v": ("0.01", "100")}, log_scale=frozenset({"v"})),
                       "interval", lhs_name="4 pi^2 sigma^4 Var(1/(4 pi^2 sigma^2))",
                       rhs_name="0"),)),
        Claim(7, "Thm 7 equals the enumeration over sigma^2 in [0.1, 20], eps in [0, 4], D in "
                 "{1, 2, 3} (1e-30) [property].",
              (Compare(_thm7, "eq", _enum, _THM7_BOX, "property", Tol.abs("1e-30"), "Thm 7",
                       "enumeration"),)),
        Claim(8, "zCDP: renyi(sigma, alpha, D) < alpha D^2/(2 sigma^2) at fractional orders "
                 "alpha = n + f, n in {1..11}, f in [0.001, 0.999], and = (1e-30) at integer "
                 "orders alpha in {2..12}, over sigma^2 in [0.2, 10], D in {1, 2} [property].",
              (Compare(_renyi_nf, "lt", _zcdp_nf, _RENYI_FRAC_BOX, "property",
                       lhs_name="renyi", rhs_name="alpha D^2/(2 sigma^2)",
                       part="fractional orders"),
               Compare(_renyi, "eq", _zcdp, _RENYI_INT_BOX, "property", Tol.abs("1e-30"),
                       "renyi", "alpha D^2/(2 sigma^2)", part="integer orders"))),
        Claim(9, "Inverse: eps(sigma, delta(sigma, e, D), D) = e over sigma^2 in [0.1, 20], e "
                 "in [0, 4], D in {1, 2, 3} (1e-25) [property].",
              (Compare(_round_trip, "eq", _eps, _THM7_BOX, "property", Tol.abs("1e-25"),
                       "eps(delta(e))", "e"),)),
        Claim(10, "Variance bounds: 1/(e^{1/sigma^2} - 1) < Var over the whole box sigma^2 in "
                  "[0.005, 3], and Var < 3 e^{-1/(2 sigma^2)} over sigma^2 in [0.005, 1/3] "
                  "(direct series with its rigorous tail) [interval]; the upper bound Var <= v "
                  "(1 - 4 pi^2 v/(e^{4 pi^2 v} - 1)), v = sigma^2, through Lemma 20 (v - Var(v) "
                  "= 4 pi^2 v^2 Var(w), w = 1/(4 pi^2 v); the identity itself is checked in "
                  "claims 5 and 11, and used as in claim 6) written without cancellation as 4 "
                  "pi^2 v^2/(e^{4 pi^2 v} - 1) < v - Var(v), over the whole box v in [0.02, 5] "
                  "[interval]; both bounds searched directly over sigma^2 in [0.02, 5] "
                  "[property].",
               (Compare(_v_term(dg_variance_lower), "lt", _v_term(dg_variance_direct),
                        _LOWER_BOX, "interval", lhs_name="1/(e^{1/sigma^2} - 1)",
                        rhs_name="Var (direct)", part="lower bound"),
                Compare(_v_term(dg_variance_direct), "lt", _v_term(dg_variance_small),
                        _SMALL_BOX, "interval", lhs_name="Var (direct)",
                        rhs_name="3 e^{-1/(2 sigma^2)}", part="Var < 3 e^{-1/(2 sigma^2)}"),
                Compare(_v_term(dg_variance_lower), "le", _v_term(dg_variance), _VAR_BOX,
                        "property", lhs_name="lower bound", rhs_name="Var", part="lower bound"),
                Compare(_v_term(dg_variance_upper_gap), "lt", _v_term(dg_variance_gap),
                        _VAR_BOX, "interval", lhs_name="v - upper(v) = 4 pi^2 v^2/(e^{4 pi^2 "
                        "v} - 1)", rhs_name="v - Var(v) = 4 pi^2 v^2 Var(1/(4 pi^2 v))",
                        part="upper bound"),
                Compare(_v_term(dg_variance), "le", _v_term(dg_variance_upper), _VAR_BOX,
                        "property", lhs_name="Var", rhs_name="upper bound",
                        part="upper bound"))),
        Claim(11, "Lemma 20 across sigma^2 in [0.02, 5]: the direct variance equals the "
                  "Lemma-20 form (1e-30) [property].",
               (Compare(_v_term(dg_variance_direct), "eq", _v_term(dg_variance_dual),
                        _VAR_BOX, "property", Tol.abs("1e-30"), "direct Var", "Lemma 20"),)),
        Claim(12, "The non-rigorous route agrees with the enclosure: Z and Var by the direct "
                  "series in mpmath at 256 bits (the truncated tails dropped, not enclosed) are "
                  "within 2^-240 relative of the arb enclosures (rigorous tails), over v = "
                  "sigma^2 in [0.05, 1000] [property].",
               (Compare(dg_mp_route_gap, "le", lambda ctx, **_: ctx.num(MP_ROUTE_TOL), DG_MP_BOX,
                        "property", lhs_name="max |mp - arb|/arb of Z(v), Var(v)",
                        rhs_name="2^-240"),)),
        Claim(13, "The rigorous lattice tail bound of every truncated series here (module "
                  "lattice_sums: sum_{j>=0} f(M + j) <= f(M)/(1 - r), f(u) = u^k "
                  "e^{-u^2/(2 sigma^2)}) is sound and tight against the directly summed terms: "
                  "S_N <= f(M)/(1 - r) <= S_N/(1 - r), S_N = sum_{j<40} f(M + j), for v = "
                  "sigma^2 in [1, 1000], k in {0, 2}, M = isqrt(ceil(k v)) + 1 + extra, extra "
                  "in 0..20 [property].",
               (Compare(gauss_tail_sandwich, "ge", lambda ctx, **_: ctx.zero, TAIL_BOX,
                        "property", lhs_name="min(bound - S_N, S_N/(1 - r) - bound)/S_N",
                        rhs_name="0"),)),
    ),
    notes="sigma is a scale, not the standard deviation. dp_accounting's "
          "DiscreteGaussianPrivacyLoss truncates the noise to [-ceil(11.6 sigma), ceil(11.6 "
          "sigma)], a variant of this mechanism. Truncation here: sum_{j>=0} f(u0 + j) <= "
          "f(M)/(1 - r) with f(u) = u^k e^{-u^2/(2 sigma^2)}, r = (1 + 1/M)^k "
          "e^{-(2M+1)/(2 sigma^2)}, u0 >= M >= 1, M^2 >= k sigma^2 (k in {0, 2}).",
)
