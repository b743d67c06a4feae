"""Zero-concentrated DP: STK-ZCDP-DEF, STK-ZCDP-GAUSS (the Gaussian's rho), STK-ZCDP-COMP
(additive composition) and STK-ADAPT-POST (adaptive composition and data processing).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Generated, Points, Smt, SmtProblem, Tol
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import Unsupported
from dpverify.theorems.formulas.conversions import zcdp_comp_rho
from dpverify.theorems.formulas.gaussian import (
    gauss_rdp_tau,
    gauss_renyi_output_quad,
    pld_gauss_renyi_quad,
    zcdp_gauss_rho,
)
from dpverify.theorems.formulas.laplace import laplace_rdp_tau
from dpverify.theorems.numerics.finite import push_forward, random_kernel, random_pair, renyi
from dpverify.theorems.params import RHO, SIGMA, K
from dpverify.theorems.privacy_loss.common import FAMILY, QUAD_TOL, QUAD_TOL_REL, sym
from dpverify.theorems.privacy_loss.post_universal import (
    ORDER_BOX,
    adaptive_problem,
    data_processing_problem,
    input_renyi,
    processed_renyi,
    transcript,
    tree_sum_tau,
    tree_transcript_renyi,
)
from dpverify.theorems.privacy_loss.universal import (
    GAUSS_SQUARE_BOX,
    gauss_square_smt,
    gauss_square_terms,
)
from dpverify.theorems.refs import BS16, S22, cite

# ==========================================================================================
# STK-ZCDP-DEF, STK-ZCDP-GAUSS, STK-ZCDP-COMP


def _zcdp_forms_problem(direction: str) -> SmtProblem:
    import sympy as sp

    D, alpha, rho, t = sym("D", "alpha", "rho", "t")
    renyi_form = sp.Le(D, alpha * rho)
    mgf_form = sp.Le((alpha - 1) * D, t * (t + 1) * rho)  # (alpha-1) D = log E[e^{tZ}]
    hyp = (sp.Gt(alpha, 1), sp.Eq(t, alpha - 1))
    if direction == "renyi=>mgf":
        return SmtProblem({"D": "real", "alpha": "real", "rho": "real", "t": "real"},
                          (*hyp, renyi_form), mgf_form,
                          ("t = alpha - 1", "log E[e^{tZ}] = (alpha - 1) D_alpha"))
    return SmtProblem({"D": "real", "alpha": "real", "rho": "real", "t": "real"},
                      (*hyp, mgf_form), renyi_form,
                      ("t = alpha - 1", "log E[e^{tZ}] = (alpha - 1) D_alpha"))


STK_ZCDP_DEF = Theorem(
    id="STK-ZCDP-DEF",
    title="Zero-concentrated DP",
    family=FAMILY,
    source=cite(BS16, "Def. 1.1; [S22] Sec. 4.1"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "M is rho-zCDP if D_alpha(M(x)||M(x')) <= alpha rho for all neighbours and all alpha > 1; "
        "equivalently E[exp(t Z)] <= exp(t(t+1) rho) for all t > 0 (t = alpha - 1). Closed under "
        "post-processing; groups of size k: k^2 rho ([BS16], number not verified)."
    ),
    domain="rho >= 0",
    claims=(
        Claim(1, "The two forms are the same condition: log E[e^{(alpha-1)Z}] <= (alpha-1) alpha "
                 "rho for all alpha > 1 (substitution t = alpha - 1).",
              (Smt(lambda: _zcdp_forms_problem("renyi=>mgf"),
                   "D_alpha <= alpha rho  =>  log E[e^{tZ}] <= t(t+1) rho (t = alpha - 1 > 0)"),
               Smt(lambda: _zcdp_forms_problem("mgf=>renyi"),
                   "log E[e^{tZ}] <= t(t+1) rho  =>  D_alpha <= alpha rho (t = alpha - 1 > 0)"))),
        Claim(2, "Group privacy: for the Gaussian, the pair at distance k has D_alpha = alpha "
                 "k^2 rho exactly.",
              (Compare(lambda ctx, sigma, k, alpha: gauss_renyi_output_quad(
                           ctx, ctx.num(k), sigma, alpha), "eq",
                       lambda ctx, sigma, k, alpha: alpha * k**2 * zcdp_gauss_rho(ctx, sigma),
                       Points(({"sigma": "2", "k": 3, "alpha": "2.5"},
                               {"sigma": "5", "k": 4, "alpha": "7"})),
                       "numeric", QUAD_TOL, "D_alpha(N(k, s^2)||N(0, s^2)) quadrature",
                       "alpha k^2 rho"),), scope="instance"),
    ),
    notes="rho-zCDP is RDP at all orders with tau(alpha) = alpha rho (STK-RDP-DEF).",
)


def _gauss_side(ctx: Any, sigma: Any, alpha: Any, k: Any) -> Any:
    return (alpha - 1) * alpha * zcdp_gauss_rho(ctx, sigma)


def _comp_side(ctx: Any, sigma: Any, alpha: Any, k: Any) -> Any:
    return (alpha - 1) * alpha * zcdp_comp_rho(ctx, zcdp_gauss_rho(ctx, sigma), k)


_GAUSS_SQUARE = gauss_square_terms(_gauss_side, "1")
_COMP_SQUARE = gauss_square_terms(_comp_side, "k")
_COMP_BOX = Box(reals=dict(GAUSS_SQUARE_BOX.reals), ints={"k": (1, 10**4)},
                log_scale=GAUSS_SQUARE_BOX.log_scale)

_RENYI_GAUSS_POINTS = Points(({"sigma": "1.25", "alpha": "1.5"}, {"sigma": "0.5", "alpha": "3"},
                              {"sigma": "3", "alpha": "7.25"}))

STK_ZCDP_GAUSS = Theorem(
    id="STK-ZCDP-GAUSS",
    title="The Gaussian mechanism is rho-zCDP",
    family=FAMILY,
    source=cite(BS16, "Prop. 1.6; [S22] Sec. 4.1"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="The Gaussian mechanism is (Delta^2/(2 sigma^2))-zCDP, with D_alpha = alpha rho "
              "for all alpha.",
    domain="sigma > 0",
    evaluators=(Evaluator("rho", (SIGMA,), zcdp_gauss_rho, "1/(2 sigma^2)"),),
    claims=(
        Claim(1, "D_alpha = alpha rho exactly, checked via the PLD MGF (STK-PLD-GAUSS claim 1) "
                 "and by output-space quadrature (MIR-RDP-GAUSS).",
              (Compare(lambda ctx, sigma, alpha: pld_gauss_renyi_quad(
                           ctx, zcdp_gauss_rho(ctx, sigma), alpha), "eq",
                       lambda ctx, sigma, alpha: alpha * zcdp_gauss_rho(ctx, sigma),
                       _RENYI_GAUSS_POINTS, "numeric", QUAD_TOL,
                       "log E[e^{(alpha-1)Z}]/(alpha-1), Z ~ N(rho, 2rho)", "alpha rho"),
               Compare(lambda ctx, sigma, alpha: gauss_renyi_output_quad(
                           ctx, ctx.one, sigma, alpha), "eq",
                       lambda ctx, sigma, alpha: alpha * zcdp_gauss_rho(ctx, sigma),
                       _RENYI_GAUSS_POINTS, "numeric", QUAD_TOL,
                       "D_alpha(N(1, s^2)||N(0, s^2)) quadrature", "alpha rho")),
              scope="instance"),
        Claim(2, "D_alpha(N(1, s^2)||N(0, s^2)) = alpha rho(s) for all s > 0, alpha > 1 (so "
                 "the Gaussian is rho-zCDP with equality): log p^alpha q^{1-alpha} + log(s "
                 "sqrt(2 pi)) = -(y - alpha)^2/(2 s^2) + (alpha - 1) alpha rho(s) (completing the "
                 "square; the N(alpha, s^2) density integrates to 1; [Mir17] Def. 3, [BS16] Def. "
                 "1.1). Proved by z3 for all real y, s > 0, alpha > 1 (both sides from the "
                 "formulas, symbolically); searched on s in [0.05, 50], alpha in [1.0001, 1000], "
                 "y in [-100, 100].",
              (Compare(_GAUSS_SQUARE[0], "eq", _GAUSS_SQUARE[1], GAUSS_SQUARE_BOX, "property",
                       Tol.rel("1e-40"), "exponent + (y - alpha)^2/(2 s^2)",
                       "(alpha - 1) alpha rho(s)"),
               gauss_square_smt(_gauss_side, "1", "exponent(y) = -(y - alpha)^2/(2 s^2) + "
                                "(alpha - 1) alpha STK-ZCDP-GAUSS.rho(s)"))),
    ),
    notes="Every zCDP-to-DP conversion applied to this rho is an upper bound on the Gaussian's "
          "exact curve BW-ANALYTIC-GAUSS.",
)


def _kfold_gauss_renyi_quad(ctx: Any, rho: Any, k: int, alpha: Any) -> Any:
    """``D_alpha`` of k independent Gaussian releases: the k-dimensional output integral
    factorises (Fubini) into the k-th power of the one-dimensional one, computed by quadrature
    with ``sigma = 1/sqrt(2 rho)``."""
    sigma = 1 / ctx.sqrt(2 * rho)
    return k * gauss_renyi_output_quad(ctx, ctx.one, sigma, alpha)


STK_ZCDP_COMP = Theorem(
    id="STK-ZCDP-COMP",
    title="Composition of zCDP",
    family=FAMILY,
    source=cite(BS16, "composition lemma (number not verified); [S22] Secs. 4.1–4.2"),
    types=("BOUND", "TIGHT"),
    confidence=("HIGH",),
    statement="Adaptive composition adds rho's: rho_j-zCDP steps compose to (sum rho_j)-zCDP "
              "(tight for Gaussians).",
    domain="rho_j >= 0",
    evaluators=(Evaluator("rho", (RHO, K), zcdp_comp_rho, "k rho"),),
    claims=(
        Claim(1, "For k Gaussians with equal rho, the composed D_alpha equals alpha k rho "
                 "exactly (the bound is attained).",
              (Compare(_kfold_gauss_renyi_quad, "eq",
                       lambda ctx, rho, k, alpha: alpha * zcdp_comp_rho(ctx, rho, k),
                       Points(({"rho": "0.37", "k": 25, "alpha": "3"},
                               {"rho": "0.01", "k": 1000, "alpha": "1.5"})),
                       "numeric", QUAD_TOL_REL, "D_alpha of the k-fold product (quadrature)",
                       "alpha * rho(rho, k)"),), scope="instance"),
        Claim(2, "The bound is attained for every k >= 1, s > 0, alpha > 1: k Gaussian "
                 "releases N(1, s^2) form N(1_k, s^2 I_k), at distance sqrt(k) from N(0, s^2 "
                 "I_k) ([S22] Sec. 3.1), and log p^alpha q^{1-alpha} + log(s sqrt(2 pi)) = -(y - "
                 "alpha m)^2/(2 s^2) + (alpha - 1) alpha rho(rho(s), k) with m^2 = k (completing "
                 "the square along the mean direction), i.e. D_alpha = alpha * STK-ZCDP-COMP.rho. "
                 "Proved by z3 for all real y, k >= 1, s > 0, alpha > 1 (m = sqrt(k) as a "
                 "constrained variable); searched on k in {1..10^4}, s in [0.05, 50], alpha in "
                 "[1.0001, 1000], y in [-100, 100].",
              (Compare(_COMP_SQUARE[0], "eq", _COMP_SQUARE[1], _COMP_BOX, "property",
                       Tol.rel("1e-40"), "exponent + (y - alpha sqrt(k))^2/(2 s^2)",
                       "(alpha - 1) alpha rho(rho(s), k)"),
               gauss_square_smt(_comp_side, "k", "exponent(y) = -(y - alpha m)^2/(2 s^2) + "
                                "(alpha - 1) alpha STK-ZCDP-COMP.rho(rho(s), k), m^2 = k"))),
    ),
    notes="The adaptive version is STK-ADAPT-POST.",
)


# ==========================================================================================
# STK-ADAPT-POST


_ALPHA_GRID = (Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5), Fraction(10))


def _draw_kernel(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng)
    return {"p": p, "q": q, "kernel": random_kernel(rng, len(p), rng.randint(2, 4)),
            "alpha": rng.choice(_ALPHA_GRID)}


def _draw_tree(rng: random.Random) -> dict[str, Any]:
    n1, n2 = rng.randint(2, 3), rng.randint(2, 3)
    p1, q1 = random_pair(rng, n1)
    second = [random_pair(rng, n2) for _ in range(n1)]
    return {"p1": p1, "q1": q1, "p2": tuple(s[0] for s in second),
            "q2": tuple(s[1] for s in second), "alpha": rng.choice(_ALPHA_GRID)}


def _adaptive_transcript_renyi(ctx: Any, p1: Any, q1: Any, p2: Any, q2: Any, alpha: Any) -> Any:
    return renyi(ctx, transcript(p1, p2), transcript(q1, q2), alpha)


def _adaptive_sum_tau(ctx: Any, p1: Any, q1: Any, p2: Any, q2: Any, alpha: Any) -> Any:
    tau1 = renyi(ctx, p1, q1, alpha)
    tau2 = ctx.max(*(renyi(ctx, a, b, alpha) for a, b in zip(p2, q2, strict=True)))
    return tau1 + tau2


def _accountant_rdp(ctx: Any, sigma1: Any, sigma2: Any, b: Any, alpha: Any) -> Any:
    """dp_accounting's RdpAccountant curve at order alpha for Gaussian(sigma1), Laplace(b),
    Gaussian(sigma2) composed in sequence (floats, read from the accountant's curve)."""
    try:
        import dp_accounting
        from dp_accounting.rdp import RdpAccountant
    except ImportError as e:  # pragma: no cover - optional integration
        raise Unsupported(f"dp_accounting is not installed: {e}") from None
    to_float = _float_of(ctx)
    acc = RdpAccountant(orders=[to_float(alpha)])
    acc.compose(dp_accounting.GaussianDpEvent(to_float(sigma1)))
    acc.compose(dp_accounting.LaplaceDpEvent(to_float(b)))
    acc.compose(dp_accounting.GaussianDpEvent(to_float(sigma2)))
    curve = getattr(acc, "_rdp", None)
    if curve is None:  # pragma: no cover - the accountant changed its internals
        raise Unsupported("dp_accounting's RdpAccountant no longer exposes its RDP curve")
    return ctx.num(Fraction(float(curve[0])))


def _float_of(ctx: Any) -> Any:
    if ctx.name == "arb":
        return lambda x: float(x.mid())
    return float


def _sum_of_curves(ctx: Any, sigma1: Any, sigma2: Any, b: Any, alpha: Any) -> Any:
    return (gauss_rdp_tau(ctx, sigma1, alpha) + laplace_rdp_tau(ctx, b, alpha, ctx.one)
            + gauss_rdp_tau(ctx, sigma2, alpha))


STK_ADAPT_POST = Theorem(
    id="STK-ADAPT-POST",
    title="Adaptive composition and post-processing for zCDP/RDP",
    family=FAMILY,
    source=cite(S22, "Sec. 4.2, adaptive composition and post-processing (result numbers not "
                "confirmed)"),
    types=("BOUND", "EXACT"),
    confidence=("HIGH",),
    statement=(
        "If M_j(.; y_1..y_{j-1}) is rho_j-zCDP (resp. (alpha, tau_j)-RDP) for every prefix, the "
        "adaptive composition is (sum rho_j)-zCDP (resp. (alpha, sum tau_j)-RDP). Post-processing "
        "cannot increase D_alpha (data processing), so zCDP/RDP/DP are closed under "
        "post-processing."
    ),
    domain="alpha > 1",
    claims=(
        Claim(1, "Data processing: D_alpha(BP||BQ) <= D_alpha(P||Q) for finite P, Q, Markov "
                 "kernels B and alpha > 1. Proved by z3 for every full-support pair on 2 outputs "
                 "and every positive 2x2 kernel at alpha = 2 (both moments from the Rényi "
                 "formula, symbolically; alpha = 3 returns unknown within 30 s); searched on "
                 "seeded random pairs on 2–6 outputs, kernels to 2–4 outputs and real alpha in "
                 "[1.01, 40] (property); certified on random instances at alpha in {1.5, 2, 3, "
                 "5, 10}.",
              (Compare(lambda ctx, p, q, kernel, alpha: renyi(
                           ctx, push_forward(p, kernel), push_forward(q, kernel), alpha), "le",
                       lambda ctx, p, q, alpha, **_: renyi(ctx, p, q, alpha),
                       Generated(_draw_kernel, 100, "random pairs and kernels, alpha in "
                                                    "{1.5, 2, 3, 5, 10}"),
                       "oracle", lhs_name="D_alpha(BP||BQ)", rhs_name="D_alpha(P||Q)"),
               Compare(processed_renyi, "le", input_renyi, ORDER_BOX, "property",
                       lhs_name="D_alpha(BP||BQ)", rhs_name="D_alpha(P||Q)"),
               Smt(lambda: data_processing_problem(2),
                   "sum (BP)^2/BQ <= sum P^2/Q, 2 outputs, 2x2 kernel (alpha = 2)"))),
        Claim(2, "For an explicit adaptive strategy tree of finite mechanisms whose per-step RDP "
                 "at order alpha is at most tau_j for every history, the transcript's D_alpha <= "
                 "sum_j tau_j. Proved by z3 for every two-step tree on 2 x 2 outputs (full "
                 "support) at alpha = 2 (moments from the Rényi formula, symbolically; alpha = 3 "
                 "returns unknown within 30 s); searched on seeded random trees on 2–3 x 2–3 "
                 "outputs and real alpha in [1.01, 40] (property); certified on random trees at "
                 "alpha in {1.5, 2, 3, 5, 10}.",
              (Compare(_adaptive_transcript_renyi, "le", _adaptive_sum_tau,
                       Generated(_draw_tree, 100, "two-step strategy trees (the second "
                                                  "mechanism depends on the first output)"),
                       "oracle", lhs_name="D_alpha(transcript)",
                       rhs_name="tau_1 + max_history tau_2"),
               Compare(tree_transcript_renyi, "le", tree_sum_tau, ORDER_BOX, "property",
                       lhs_name="D_alpha(transcript)", rhs_name="tau_1 + max_history tau_2"),
               Smt(lambda: adaptive_problem(2),
                   "transcript moment <= e^{tau_1} max_i e^{tau_2^(i)}, 2 x 2 outputs "
                   "(alpha = 2)"))),
        Claim(3, "Accountant check: an accountant's RDP curve for an adaptive sequence equals "
                 "the sum of the per-step RDP curves.",
              (Compare(_accountant_rdp, "eq", _sum_of_curves,
                       Box(reals={"sigma1": ("0.3", "30"), "sigma2": ("0.3", "30"),
                                  "b": ("0.2", "20"), "alpha": ("1.1", "256")},
                           log_scale=frozenset({"sigma1", "sigma2", "b", "alpha"})),
                       "property", Tol.rel("1e-11"),
                       "dp_accounting RdpAccountant curve (Gauss, Laplace, Gauss)",
                       "sum of MIR-RDP-GAUSS/LAP curves"),)),
    ),
    notes="Pure and approximate DP also compose adaptively (SMITH-ADAPT-COMP). Claim 3 reads "
          "dp_accounting's curve (floats, compared at relative 1e-11); it needs the optional "
          "dp_accounting package.",
)
