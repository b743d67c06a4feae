"""Privacy loss distributions, zCDP, RDP and their conversions to (eps, delta)-DP.

Catalogue: ``privacy_loss.md`` — every entry that is not a primitive mechanism (the exact
Gaussian and Laplace curves live in :mod:`theorems.mechanisms`).

Main results
------------
- STK-PLD-DEF, STK-COMP-PLD: the privacy loss random variable; composition is convolution
  (k Gaussians: the exact curve with ``sigma/sqrt(k)``).
- STK-ZCDP-DEF, STK-ZCDP-GAUSS, STK-ZCDP-COMP, STK-ADAPT-POST, STK-RDP-DEF: zCDP and RDP,
  the Gaussian's rho, additive (adaptive) composition, data processing.
- STK-PDP-ZCDP: eps-DP => (eps tanh(eps/2))-zCDP and the sharp RDP curve of eps-DP.
- Conversions to (eps, delta): STK-ZCDP-CONV (Chernoff), STK-REMARK15 (calibration),
  CKS20-CONV (the optimal pointwise bound; zCDP form as a certified infimum over alpha),
  BS16-L36 (as quoted), MIR-RDP-CONV and BALLE20-CONV.

Infima over the Rényi order are evaluated rigorously: the objective is strictly convex (or
unimodal) in the order, its unique stationary point is bracketed by certified bisection on
``s = log(alpha - 1)`` and the objective is evaluated on the whole bracketing ball, which
contains the minimiser, so the arb ball encloses the infimum itself (not merely an upper bound
at an approximate minimiser).

References
----------
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Secs. 3–4, 6.4 and Remark 15.
- [BS16] M. Bun, T. Steinke, *Concentrated Differential Privacy: Simplifications, Extensions,
  and Lower Bounds*, arXiv 1605.02065, Def. 1.1, Props. 1.3, 1.4, 1.6 (Lemma 3.6 as quoted).
- [CKS20] C. Canonne, G. Kamath, T. Steinke, *The Discrete Gaussian for Differential Privacy*,
  arXiv 2004.00010v4, Prop. 12 (Sec. 2.3).
- [Mir17] I. Mironov, *Rényi Differential Privacy*, arXiv 1702.07476v3, Def. 4, Prop. 3.
- [BBGHS20] B. Balle, G. Barthe, M. Gaboardi, J. Hsu, T. Sato, *Hypothesis Testing
  Interpretations and Rényi Differential Privacy*, arXiv 1905.09982, Thm 21.
- [MTZ19] I. Mironov, K. Talwar, L. Zhang, *Rényi Differential Privacy of the Sampled Gaussian
  Mechanism*, arXiv 1908.10530, Sec. 3.3.
- [SteinkeBlog24] T. Steinke, "Sharp RDP & zCDP from pure DP", differentialprivacy.org, 2024,
  Thm 4.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Generated,
    Points,
    Predicate,
    Smt,
    SmtProblem,
    Tol,
    grid,
    points,
)
from dpverify.theorems.core import Evaluator, Source, Theorem
from dpverify.theorems.ctx import PrecisionExhausted, Unsupported
from dpverify.theorems.mechanisms import gauss_delta, gauss_eps, gauss_rdp_tau, laplace_rdp_tau
from dpverify.theorems.numerics.finite import (
    hockey_stick,
    hockey_stick_events,
    max_log_ratio,
    privacy_loss_atoms,
    product,
    push_forward,
    random_eps_dp_pair,
    random_kernel,
    random_pair,
    randomized_response,
    renyi,
)
from dpverify.theorems.params import ALPHA, DELTA, EPS, EPS0, EPS_REAL, RHO, SIGMA, TAU, K

FAMILY = "privacy_loss"

S22 = ("Steinke, Composition of Differential Privacy & Privacy Amplification by Subsampling",
       "2210.00597", "v4")
BS16 = ("Bun & Steinke, Concentrated Differential Privacy: Simplifications, Extensions, and "
        "Lower Bounds", "1605.02065")
CKS20 = ("Canonne, Kamath & Steinke, The Discrete Gaussian for Differential Privacy",
         "2004.00010", "v4")
MIR17 = ("Mironov, Rényi Differential Privacy", "1702.07476", "v3")
BBGHS20 = ("Balle, Barthe, Gaboardi, Hsu & Sato, Hypothesis Testing Interpretations and Rényi "
           "Differential Privacy", "1905.09982")


def _s22(locator: str) -> Source:
    return Source(S22[0], locator, arxiv=S22[1], version=S22[2])


# ==========================================================================================
# Generic helpers


def _point(ctx: Any, x: Any) -> Any:
    """An exact point of the context from a number (the midpoint of an arb ball)."""
    return ctx.midpoint(x, x)


def _bracket_increasing_root(ctx: Any, g: Any, start: Any) -> Any:
    """The root of a strictly increasing continuous ``g`` on the real line, bracketed.

    Moves down from ``start`` until ``g < 0`` is certified, up until ``g > 0`` is certified,
    then bisects on exact points with the context's comparisons until the bracket is narrow
    (or a comparison is undecided). Returns ``ctx.bracket_value(lo, hi)``: in arb the ball
    ``[lo, hi]``, which contains the root because ``g(lo) < 0 < g(hi)`` were certified.
    """
    lo = _point(ctx, start)
    step = ctx.one
    for _ in range(80):
        c = ctx.lt(g(lo), ctx.zero)
        if c is True:
            break
        if c is None:
            raise PrecisionExhausted("cannot certify the sign of the stationarity condition")
        lo = lo - step
        step = step * 2
    else:
        raise PrecisionExhausted("no certified lower bracket for the stationary order")
    step = ctx.one
    hi = lo + step
    for _ in range(200):
        c = ctx.lt(ctx.zero, g(hi))
        if c is True:
            break
        if c is None:
            raise PrecisionExhausted("cannot certify the sign of the stationarity condition")
        lo = hi
        step = step * 2
        hi = hi + step
    else:
        raise PrecisionExhausted("no certified upper bracket for the stationary order")
    bits = ctx.prec + 8
    for _ in range(6 * bits + 64):
        if ctx.bracket_narrow(lo, hi, bits):
            break
        mid = ctx.midpoint(lo, hi)
        if bool(mid == lo) or bool(mid == hi):
            break  # adjacent points at this precision
        v = g(mid)
        if ctx.lt(v, ctx.zero) is True:
            lo = mid
        elif ctx.lt(ctx.zero, v) is True:
            hi = mid
        else:
            break
    return ctx.bracket_value(lo, hi)


# ------------------------------------------------------------------------------------------
# Gaussian quadratures (mpmath only): the independent routes


def _normal_pdf(ctx: Any, z: Any, mean: Any, sd: Any) -> Any:
    return ctx.exp(-(((z - mean) / sd) ** 2) / 2) / (sd * ctx.sqrt(2 * ctx.pi))


def pld_gauss_mgf_quad(ctx: Any, rho: Any, t: Any) -> Any:
    """``E[e^{tZ}]`` for ``Z ~ N(rho, 2 rho)`` by quadrature over z ([S22] Sec. 3.1 PLD)."""
    sd = ctx.sqrt(2 * rho)
    centre = rho + 2 * t * rho  # the tilted Gaussian's mean
    return ctx.quad(lambda z: ctx.exp(t * z) * _normal_pdf(ctx, z, rho, sd),
                    [-ctx.inf, centre - 8 * sd, centre, centre + 8 * sd, ctx.inf])


def pld_gauss_renyi_quad(ctx: Any, rho: Any, alpha: Any) -> Any:
    """``D_alpha = log E[e^{(alpha-1)Z}]/(alpha-1)`` with ``Z ~ N(rho, 2 rho)``: the Rényi
    divergence from the PLD's moment generating function ([S22] Sec. 3; [BS16] Def. 1.1)."""
    return ctx.log(pld_gauss_mgf_quad(ctx, rho, alpha - 1)) / (alpha - 1)


def pld_gauss_delta_quad(ctx: Any, rho: Any, eps: Any) -> Any:
    """``E[max(0, 1 - e^{eps - Z})]`` with ``Z ~ N(rho, 2 rho)`` by quadrature ([S22] Sec. 3.3,
    [CKS20] Lemma 9's identity)."""
    sd = ctx.sqrt(2 * rho)
    a = ctx.max(eps, rho - 10 * sd)
    return ctx.quad(lambda z: -ctx.expm1(eps - z) * _normal_pdf(ctx, z, rho, sd),
                    [eps, a + sd, a + 4 * sd, a + 12 * sd, ctx.inf])


def gauss_renyi_output_quad(ctx: Any, mean: Any, sigma: Any, alpha: Any) -> Any:
    """``D_alpha(N(mean, sigma^2)||N(0, sigma^2)) = log ∫ p^alpha q^{1-alpha}/(alpha - 1)``
    by quadrature over the output space (the integrand is a Gaussian bump at alpha*mean)."""
    norm = 1 / (sigma * ctx.sqrt(2 * ctx.pi))

    def integrand(y: Any) -> Any:
        return norm * ctx.exp(-(alpha * (y - mean) ** 2 + (1 - alpha) * y**2) / (2 * sigma**2))

    c = alpha * mean
    return ctx.log(ctx.quad(integrand, [-ctx.inf, c - 8 * sigma, c, c + 8 * sigma, ctx.inf])) / (
        alpha - 1)


# Quadrature routes are checked at this tolerance (the catalogue's 1e-40..1e-45 were observed at
# 50 digits; at that precision each mpmath quadrature costs seconds, too slow for the quick run).
QUAD_TOL = Tol.abs("1e-30")
QUAD_TOL_REL = Tol.rel("1e-30")


def _mp_only(ctx: Any) -> None:
    if ctx.name != "mp":
        raise Unsupported("this route integrates numerically (mpmath only)")


# ==========================================================================================
# STK-PLD-DEF


def _pld_moment(ctx: Any, atoms: list[tuple[Any, Any]], g: Any) -> Any:
    return ctx.fsum(prob * g(z) for z, prob in atoms)


def _indicator_le(ctx: Any, c: Any) -> Any:
    return lambda z: ctx.piecewise_lt(c, z, lambda: ctx.zero, lambda: ctx.one)


def _draw_pair_c(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng)
    return {"p": p, "q": q, "c": Fraction(rng.randint(-200, 200), 97)}


def _draw_pair_eps(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng)
    level = max(abs(math.log(float(a) / float(b))) for a, b in zip(p, q, strict=True))
    eps = Fraction(level * rng.uniform(0.5, 1.5)).limit_denominator(10**9)
    return {"p": p, "q": q, "eps": eps}


def _draw_pair_alpha(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng)
    return {"p": p, "q": q, "alpha": 1 + Fraction(rng.randint(1, 2000), 100)}


def _pld_def_claims() -> tuple[Claim, ...]:
    g_forms = (
        ("identity", lambda ctx, **_: (lambda z: z), lambda ctx, **_: (lambda z: -z)),
        ("exp", lambda ctx, **_: ctx.exp, lambda ctx, **_: (lambda z: ctx.exp(-z))),
        ("indicator of (-inf, c]", lambda ctx, c, **_: _indicator_le(ctx, c),
         lambda ctx, c, **_: (lambda z: _indicator_le(ctx, c)(-z))),
    )

    def reverse_check(name: str, g_rev: Any, g_fwd: Any) -> Compare:
        def lhs(ctx: Any, p: Any, q: Any, **kw: Any) -> Any:
            g = g_rev(ctx, **kw)
            return _pld_moment(ctx, privacy_loss_atoms(ctx, q, p), g)

        def rhs(ctx: Any, p: Any, q: Any, **kw: Any) -> Any:
            h = g_fwd(ctx, **kw)
            return _pld_moment(ctx, privacy_loss_atoms(ctx, p, q),
                               lambda z: h(z) * ctx.exp(-z))

        return Compare(lhs, "eq", rhs, Generated(_draw_pair_c, 100,
                                                 "random pairs on 2–6 common outputs"),
                       "oracle", Tol.abs("1e-40"), f"E[g(Z')], g = {name}",
                       f"E[g(-Z) e^-Z], g = {name}")

    def eps_dp_iff(ctx: Any, p: Any, q: Any, eps: Any) -> bool | None:
        bounded = ctx.le(max_log_ratio(ctx, p, q), eps)
        h1 = hockey_stick_events(ctx, p, q, eps)
        h2 = hockey_stick_events(ctx, q, p, eps)
        d1, d2 = ctx.le(h1, ctx.zero), ctx.le(h2, ctx.zero)
        if bounded is None or d1 is None or d2 is None:
            return None
        return bounded == (d1 and d2)

    def mgf_renyi(ctx: Any, p: Any, q: Any, alpha: Any) -> Any:
        atoms = privacy_loss_atoms(ctx, p, q)
        return ctx.log(_pld_moment(ctx, atoms, lambda z: ctx.exp((alpha - 1) * z))) / (alpha - 1)

    return (
        Claim(1, "E[e^{-Z}] = 1 to 1e-45 for the Gaussian PLD Z ~ N(rho, 2 rho), rho = 0.37 "
                 "(quadrature).",
              (Compare(lambda ctx, rho: (_mp_only(ctx), pld_gauss_mgf_quad(ctx, rho, -ctx.one))[1],
                       "eq", lambda ctx, **_: ctx.one, points({"rho": "0.37"}), "numeric",
                       QUAD_TOL, "E[e^-Z] (quadrature)", "1", ctx="mp"),)),
        Claim(2, "For random finite pairs with common support, E[g(Z')] = E[g(-Z) e^{-Z}] for g "
                 "in {identity, exp, indicator of (-inf, c]}.",
              tuple(reverse_check(*g) for g in g_forms)),
        Claim(3, "For random finite pairs, max |Z| <= eps iff the pair is eps-indistinguishable "
                 "in both orders (all events enumerated).",
              (Predicate(eps_dp_iff, Generated(_draw_pair_eps, 100,
                                               "random pairs, eps around their max |Z|"),
                         "oracle", "max|Z| <= eps  <=>  H_{e^eps}(P||Q) = H_{e^eps}(Q||P) = 0"),)),
        Claim(4, "D_alpha from the PLD MGF equals the direct Rényi divergence for random finite "
                 "pairs.",
              (Compare(mgf_renyi, "eq", lambda ctx, p, q, alpha: renyi(ctx, p, q, alpha),
                       Generated(_draw_pair_alpha, 100, "random pairs, alpha in (1, 21]"),
                       "oracle", Tol.abs("1e-40"), "log E[e^{(alpha-1)Z}]/(alpha-1)",
                       "D_alpha(P||Q)"),)),
    )


STK_PLD_DEF = Theorem(
    id="STK-PLD-DEF",
    title="Privacy loss random variable and distribution",
    family=FAMILY,
    source=_s22("Sec. 3, definition of the privacy loss (definition number not confirmed)"),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "For P, Q on Y let f(y) = log(P(y)/Q(y)); the privacy loss is Z = f(Y) with Y ~ P and "
        "PrivLoss(P||Q) is its law. eps-DP <=> P[|Z| <= eps] = 1 for every ordered neighbouring "
        "pair; E[e^{-Z}] = Q(supp P) <= 1 (= 1 when Q << P); D_alpha(P||Q) = log E[e^{(alpha-1)"
        "Z}]/(alpha-1), KL = E[Z]; the reverse loss Z' ~ PrivLoss(Q||P) satisfies E[g(Z')] = "
        "E[g(-Z) e^{-Z}] (mutually absolutely continuous case)."
    ),
    domain="P, Q probability measures; alpha > 1",
    claims=_pld_def_claims(),
    notes="For finite distributions the PLD is a finite list of (loss, probability) atoms; "
          "outputs with Q(y) = 0 < P(y) give an atom at +infinity.",
)


# ==========================================================================================
# STK-COMP-PLD


def comp_gauss_delta(ctx: Any, sigma: Any, k: int, eps: Any) -> Any:
    """Exact profile of k Gaussian mechanisms with noise multiplier sigma: the PLD is
    ``N(k rho, 2 k rho)`` ([S22] arXiv 2210.00597v4, Sec. 4, composition = convolution of
    PLDs), i.e. the BW-ANALYTIC-GAUSS curve at ``sigma/sqrt(k)``."""
    return gauss_delta(ctx, sigma / ctx.sqrt(ctx.num(k)), eps)


def comp_gauss_eps(ctx: Any, sigma: Any, k: int, delta: Any) -> Any:
    """Least eps >= 0 with ``comp_gauss_delta(sigma, k, eps) <= delta`` ([S22] Sec. 4)."""
    return gauss_eps(ctx, sigma / ctx.sqrt(ctx.num(k)), delta)


def _draw_product(rng: random.Random) -> dict[str, Any]:
    k = rng.randint(2, 3)
    ps, qs = [], []
    for _ in range(k):
        p, q = random_pair(rng, rng.randint(2, 3))
        ps.append(p)
        qs.append(q)
    return {"ps": tuple(ps), "qs": tuple(qs),
            "eps": Fraction(rng.randint(-50, 200), 100)}


def _convolve_plds(ctx: Any, plds: list[list[tuple[Any, Any]]]) -> list[tuple[Any, Any]]:
    """Discrete convolution of PLDs: losses add, probabilities multiply."""
    out = [(ctx.zero, ctx.one)]
    for atoms in plds:
        out = [(z1 + z2, p1 * p2) for z1, p1 in out for z2, p2 in atoms]
    return out


def _comp_pld_claims() -> tuple[Claim, ...]:
    def hockey_product(ctx: Any, ps: Any, qs: Any, eps: Any) -> Any:
        p, q = ps[0], qs[0]
        for a, b in zip(ps[1:], qs[1:], strict=True):
            p, q = product(p, a), product(q, b)
        return hockey_stick(ctx, p, q, eps)

    def pld_convolution(ctx: Any, ps: Any, qs: Any, eps: Any) -> Any:
        atoms = _convolve_plds(ctx, [privacy_loss_atoms(ctx, p, q)
                                     for p, q in zip(ps, qs, strict=True)])
        return ctx.fsum(prob * ctx.pos(-ctx.expm1(eps - z)) for z, prob in atoms)

    def hetero_closed(ctx: Any, mu_list: Any, eps: Any) -> Any:
        mu = ctx.sqrt(ctx.fsum(m**2 for m in mu_list))
        return gauss_delta(ctx, 1 / mu, eps)

    def hetero_quad(ctx: Any, mu_list: Any, eps: Any) -> Any:
        _mp_only(ctx)
        return pld_gauss_delta_quad(ctx, ctx.fsum(m**2 for m in mu_list) / 2, eps)

    return (
        Claim(1, "k = 25, sigma = 4: the mu_k = sqrt(k)/sigma closed form equals the "
                 "N(k rho, 2k rho) quadrature to 1e-40 at eps in {0.5, 2}.",
              (Compare(comp_gauss_delta, "eq",
                       lambda ctx, sigma, k, eps: (_mp_only(ctx), pld_gauss_delta_quad(
                           ctx, k / (2 * sigma**2), eps))[1],
                       grid(sigma=["4"], k=[25], eps=["0.5", "2"]), "numeric",
                       QUAD_TOL, "delta(sigma/sqrt(k), eps)",
                       "PLD quadrature N(k rho, 2k rho)", ctx="mp"),)),
        Claim(2, "Heterogeneous mus (0.5, 1, 0.3): the profile with sqrt(sum mu_j^2) equals the "
                 "quadrature with rho = sum mu_j^2/2 at eps = 1, to 1e-40.",
              (Compare(hetero_closed, "eq", hetero_quad,
                       points({"mu_list": (Fraction(1, 2), Fraction(1), Fraction(3, 10)),
                               "eps": "1"}), "numeric", QUAD_TOL,
                       "GDP profile at sqrt(sum mu^2)", "PLD quadrature", ctx="mp"),)),
        Claim(3, "For random finite pairs, the exact hockey-stick of the product distribution "
                 "equals E[max(0, 1 - e^{eps - (Z_1 + ... + Z_k)})] computed by discrete "
                 "convolution of the PLDs.",
              (Compare(hockey_product, "eq", pld_convolution,
                       Generated(_draw_product, 100, "k in {2, 3} random pairs on 2–3 outputs"),
                       "oracle", Tol.abs("1e-40"), "H_{e^eps}(P^k||Q^k)",
                       "E[(1 - e^{eps - sum Z_j})_+] (convolution)"),)),
    )


STK_COMP_PLD = Theorem(
    id="STK-COMP-PLD",
    title="Composition is convolution of PLDs",
    family=FAMILY,
    source=_s22("Sec. 4, composition of privacy loss distributions (theorem number not "
                "confirmed)"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "If M_1..M_k use independent randomness, PrivLoss(M(x)||M(x')) = Z_1 + ... + Z_k with "
        "independent Z_j ~ PrivLoss(M_j(x)||M_j(x')). k Gaussians give N(sum rho_j, 2 sum rho_j); "
        "for equal rho_j = 1/(2 sigma^2) the exact curve is BW-ANALYTIC-GAUSS with mu = "
        "sqrt(k)/sigma; heterogeneous Gaussians give mu = sqrt(sum mu_j^2)."
    ),
    domain="independent mechanisms; k >= 1",
    evaluators=(
        Evaluator("delta", (SIGMA, K, EPS_REAL), comp_gauss_delta,
                  "BW-ANALYTIC-GAUSS.delta(sigma/sqrt(k), eps)"),
        Evaluator("eps", (SIGMA, K, DELTA), comp_gauss_eps,
                  "BW-ANALYTIC-GAUSS.eps(sigma/sqrt(k), delta)"),
    ),
    claims=_comp_pld_claims(),
    notes="Numerical composition of non-Gaussian PLDs (discretisation, FFT) must bound its "
          "discretisation error before its output can be used as a certified value.",
)


# ==========================================================================================
# STK-ZCDP-DEF, STK-ZCDP-GAUSS, STK-ZCDP-COMP


def _sym(*names: str) -> Any:
    import sympy

    return sympy.symbols(names, real=True)


def _zcdp_forms_problem(direction: str) -> SmtProblem:
    import sympy as sp

    D, alpha, rho, t = _sym("D", "alpha", "rho", "t")
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
    source=Source(BS16[0], "Def. 1.1; [S22] Sec. 4.1", arxiv=BS16[1]),
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
              (Compare(lambda ctx, sigma, k, alpha: (_mp_only(ctx), gauss_renyi_output_quad(
                           ctx, ctx.num(k), sigma, alpha))[1], "eq",
                       lambda ctx, sigma, k, alpha: alpha * k**2 * zcdp_gauss_rho(ctx, sigma),
                       Points(({"sigma": "2", "k": 3, "alpha": "2.5"},
                               {"sigma": "5", "k": 4, "alpha": "7"})),
                       "numeric", QUAD_TOL, "D_alpha(N(k, s^2)||N(0, s^2)) quadrature",
                       "alpha k^2 rho", ctx="mp"),)),
    ),
    notes="rho-zCDP is RDP at all orders with tau(alpha) = alpha rho (STK-RDP-DEF).",
)


def zcdp_gauss_rho(ctx: Any, sigma: Any) -> Any:
    """``rho = 1/(2 sigma^2)``: the Gaussian mechanism with noise multiplier sigma is rho-zCDP
    with equality ``D_alpha = alpha rho`` ([BS16] arXiv 1605.02065, Prop. 1.6; [S22] Sec. 4.1)."""
    return 1 / (2 * sigma**2)


_RENYI_GAUSS_POINTS = Points(({"sigma": "1.25", "alpha": "1.5"}, {"sigma": "0.5", "alpha": "3"},
                              {"sigma": "3", "alpha": "7.25"}))

STK_ZCDP_GAUSS = Theorem(
    id="STK-ZCDP-GAUSS",
    title="The Gaussian mechanism is rho-zCDP",
    family=FAMILY,
    source=Source(BS16[0], "Prop. 1.6; [S22] Sec. 4.1", arxiv=BS16[1]),
    types=("EXACT",),
    confidence=("HIGH",),
    statement="The Gaussian mechanism is (Delta^2/(2 sigma^2))-zCDP, with D_alpha = alpha rho "
              "for all alpha.",
    domain="sigma > 0",
    evaluators=(Evaluator("rho", (SIGMA,), zcdp_gauss_rho, "1/(2 sigma^2)"),),
    claims=(
        Claim(1, "D_alpha = alpha rho exactly, checked via the PLD MGF (STK-PLD-GAUSS claim 1) "
                 "and by output-space quadrature (MIR-RDP-GAUSS).",
              (Compare(lambda ctx, sigma, alpha: (_mp_only(ctx), pld_gauss_renyi_quad(
                           ctx, zcdp_gauss_rho(ctx, sigma), alpha))[1], "eq",
                       lambda ctx, sigma, alpha: alpha * zcdp_gauss_rho(ctx, sigma),
                       _RENYI_GAUSS_POINTS, "numeric", QUAD_TOL,
                       "log E[e^{(alpha-1)Z}]/(alpha-1), Z ~ N(rho, 2rho)", "alpha rho",
                       ctx="mp"),
               Compare(lambda ctx, sigma, alpha: (_mp_only(ctx), gauss_renyi_output_quad(
                           ctx, ctx.one, sigma, alpha))[1], "eq",
                       lambda ctx, sigma, alpha: alpha * zcdp_gauss_rho(ctx, sigma),
                       _RENYI_GAUSS_POINTS, "numeric", QUAD_TOL,
                       "D_alpha(N(1, s^2)||N(0, s^2)) quadrature", "alpha rho", ctx="mp"))),
    ),
    notes="Every zCDP-to-DP conversion applied to this rho is an upper bound on the Gaussian's "
          "exact curve BW-ANALYTIC-GAUSS.",
)


def zcdp_comp_rho(ctx: Any, rho: Any, k: int) -> Any:
    """``k rho``: k-fold (adaptive) composition of rho-zCDP ([BS16] arXiv 1605.02065,
    composition lemma; [S22] Secs. 4.1–4.2)."""
    return k * rho


def _kfold_gauss_renyi_quad(ctx: Any, rho: Any, k: int, alpha: Any) -> Any:
    """``D_alpha`` of k independent Gaussian releases: the k-dimensional output integral
    factorises (Fubini) into the k-th power of the one-dimensional one, computed by quadrature
    with ``sigma = 1/sqrt(2 rho)``."""
    _mp_only(ctx)
    sigma = 1 / ctx.sqrt(2 * rho)
    return k * gauss_renyi_output_quad(ctx, ctx.one, sigma, alpha)


STK_ZCDP_COMP = Theorem(
    id="STK-ZCDP-COMP",
    title="Composition of zCDP",
    family=FAMILY,
    source=Source(BS16[0], "composition lemma (number not verified); [S22] Secs. 4.1–4.2",
                  arxiv=BS16[1]),
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
                       "alpha * rho(rho, k)", ctx="mp"),)),
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


def _transcript(first: Any, second: Any) -> tuple[Any, ...]:
    return tuple(a * b for a, row in zip(first, second, strict=True) for b in row)


def _adaptive_transcript_renyi(ctx: Any, p1: Any, q1: Any, p2: Any, q2: Any, alpha: Any) -> Any:
    return renyi(ctx, _transcript(p1, p2), _transcript(q1, q2), alpha)


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
    source=_s22("Sec. 4.2, adaptive composition and post-processing (result numbers not "
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
        Claim(1, "Data processing: D_alpha(BP||BQ) <= D_alpha(P||Q) for random finite P, Q, "
                 "random Markov kernels B and alpha on a grid.",
              (Compare(lambda ctx, p, q, kernel, alpha: renyi(
                           ctx, push_forward(p, kernel), push_forward(q, kernel), alpha), "le",
                       lambda ctx, p, q, alpha, **_: renyi(ctx, p, q, alpha),
                       Generated(_draw_kernel, 100, "random pairs and kernels, alpha in "
                                                    "{1.5, 2, 3, 5, 10}"),
                       "oracle", lhs_name="D_alpha(BP||BQ)", rhs_name="D_alpha(P||Q)"),)),
        Claim(2, "For an explicit adaptive strategy tree of finite mechanisms whose per-step RDP "
                 "at order alpha is at most tau_j for every history, the transcript's D_alpha <= "
                 "sum_j tau_j.",
              (Compare(_adaptive_transcript_renyi, "le", _adaptive_sum_tau,
                       Generated(_draw_tree, 100, "two-step strategy trees (the second "
                                                  "mechanism depends on the first output)"),
                       "oracle", lhs_name="D_alpha(transcript)",
                       rhs_name="tau_1 + max_history tau_2"),)),
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


# ==========================================================================================
# STK-PDP-ZCDP


def pdp_rho(ctx: Any, eps0: Any) -> Any:
    """``eps0 tanh(eps0/2)``: eps0-DP implies this rho-zCDP, sharp as alpha -> 1 (the KL of
    RR) ([SteinkeBlog24], "Sharp RDP & zCDP from pure DP", 2024; improves [BS16] arXiv
    1605.02065 Prop. 1.4)."""
    return eps0 * ctx.tanh(eps0 / 2)


def pdp_rho_simple(ctx: Any, eps0: Any) -> Any:
    """``eps0^2/2``: eps0-DP implies (eps0^2/2)-zCDP ([BS16] arXiv 1605.02065, Prop. 1.4)."""
    return eps0**2 / 2


def pdp_tau(ctx: Any, eps0: Any, alpha: Any) -> Any:
    """The sharp RDP curve of eps0-DP, attained by RR ([SteinkeBlog24] Thm 4):
    ``log(e^{alpha eps}/(e^eps + 1) + e^eps e^{-alpha eps}/(e^eps + 1))/(alpha - 1)``, in the
    blog's stable form ``eps - log((1 + e^{-eps})/(1 + e^{-(2 alpha - 1) eps}))/(alpha - 1)``.
    """
    return eps0 - (ctx.log1p(ctx.exp(-eps0)) - ctx.log1p(ctx.exp(-(2 * alpha - 1) * eps0))) / (
        alpha - 1)


def _rr_renyi(ctx: Any, eps0: Any, alpha: Any) -> Any:
    p, q = randomized_response(ctx, eps0)
    return renyi(ctx, p, q, alpha)


def _pdp_identity_problem() -> SmtProblem:
    import sympy as sp

    eps, x, w, T = _sym("eps", "x", "w", "T")
    return SmtProblem(
        {"eps": "real", "x": "real", "w": "real", "T": "real"},
        (sp.Gt(w, 0), sp.Eq(x, w**2), sp.Eq(T * (w**2 + 1), w**2 - 1)),
        sp.Eq(eps * (x - 1), eps * T * (x + 1)),
        ("x = e^eps", "w = e^{eps/2}", "T = tanh(eps/2) = (w - 1/w)/(w + 1/w)"),
    )


def _draw_seeded_pair(seed: int, r_num: int) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    return random_eps_dp_pair(random.Random(seed), r_num, 100)


def _seeded_pair_renyi(ctx: Any, seed: int, r_num: int, alpha: Any) -> Any:
    p, q = _draw_seeded_pair(seed, r_num)
    return renyi(ctx, tuple(ctx.num(x) for x in p), tuple(ctx.num(x) for x in q), alpha)


def _seeded_pair_tau(ctx: Any, seed: int, r_num: int, alpha: Any) -> Any:
    eps0 = ctx.log(1 + ctx.num(Fraction(r_num, 100)))  # the pair is eps0-DP for this eps0
    return pdp_tau(ctx, eps0, alpha)


_PDP_GRID = grid(eps0=["0.5", "1", "2"], alpha=["1.5", "4"])

STK_PDP_ZCDP = Theorem(
    id="STK-PDP-ZCDP",
    title="Pure DP implies zCDP (and the sharp RDP curve of pure DP)",
    family=FAMILY,
    source=Source(BS16[0], "Prop. 1.4 (eps^2/2); sharp forms: [SteinkeBlog24] Thm 4 (RDP "
                  "curve) and its zCDP corollary; [S22] Sec. 4.1", arxiv=BS16[1]),
    types=("BOUND", "TIGHT"),
    confidence=("HIGH",),
    statement=(
        "eps-DP => (eps^2/2)-zCDP; sharp: eps-DP => rho-zCDP with rho = eps (e^eps - 1)/(e^eps + "
        "1) = eps tanh(eps/2) <= eps^2/2. The sharp RDP curve of eps-DP is eps_hat(alpha) = "
        "log(e^{alpha eps}/(e^eps + 1) + e^eps e^{-alpha eps}/(e^eps + 1))/(alpha - 1), attained "
        "by randomized response."
    ),
    domain="eps >= 0, alpha > 1",
    evaluators=(
        Evaluator("rho", (EPS0,), pdp_rho, "eps0 tanh(eps0/2) (sharp)"),
        Evaluator("rho_simple", (EPS0,), pdp_rho_simple, "eps0^2/2"),
        Evaluator("tau", (EPS0, ALPHA), pdp_tau, "eps_hat(alpha), the sharp RDP curve"),
    ),
    claims=(
        Claim(1, "The Rényi divergence of RR(eps) equals eps_hat(alpha) to 1e-45 for eps in "
                 "{0.5, 1, 2} and alpha in {1.5, 4}.",
              (Compare(_rr_renyi, "eq", pdp_tau, _PDP_GRID, "oracle", Tol.abs("1e-45"),
                       "D_alpha(RR(eps))", "eps_hat(alpha)"),)),
        Claim(2, "D_alpha(RR(eps)) <= alpha eps tanh(eps/2) (same grid).",
              (Compare(_rr_renyi, "le", lambda ctx, eps0, alpha: alpha * pdp_rho(ctx, eps0),
                       _PDP_GRID, "numeric", lhs_name="D_alpha(RR(eps))",
                       rhs_name="alpha eps tanh(eps/2)"),)),
        Claim(3, "lim_{alpha->1} D_alpha(RR(eps))/alpha = eps tanh(eps/2) (evaluated at alpha = "
                 "1 + 1e-20, to 1e-18).",
              (Compare(lambda ctx, eps0, alpha: _rr_renyi(ctx, eps0, alpha) / alpha, "eq",
                       lambda ctx, eps0, **_: pdp_rho(ctx, eps0),
                       grid(eps0=["0.5", "1", "2"], alpha=["1.00000000000000000001"]),
                       "numeric", Tol.abs("1e-18"), "D_alpha(RR(eps))/alpha at alpha = 1+1e-20",
                       "eps tanh(eps/2)"),)),
        Claim(4, "eps tanh(eps/2) <= eps^2/2 for eps in {0.5, 1, 2}, and over the box eps in "
                 "[0, 50].",
              (Compare(pdp_rho, "le", pdp_rho_simple, grid(eps0=["0.5", "1", "2"]), "numeric",
                       lhs_name="eps tanh(eps/2)", rhs_name="eps^2/2"),
               Compare(pdp_rho, "le", pdp_rho_simple, Box(reals={"eps0": ("0", "50")}),
                       "interval", lhs_name="eps tanh(eps/2)", rhs_name="eps^2/2"))),
        Claim(5, "eps (e^eps - 1)/(e^eps + 1) = eps tanh(eps/2) (identity after x = e^eps).",
              (Smt(_pdp_identity_problem,
                   "eps (x - 1)/(x + 1) = eps T with x = w^2, T (w^2 + 1) = w^2 - 1, w > 0"),)),
        Claim(6, "For any random finite eps-DP pair, D_alpha <= eps_hat(alpha).",
              (Compare(_seeded_pair_renyi, "le", _seeded_pair_tau,
                       Box(ints={"seed": (0, 2**31 - 1), "r_num": (1, 400)},
                           reals={"alpha": ("1.01", "40")}, log_scale=frozenset({"alpha"})),
                       "property", lhs_name="D_alpha(P||Q), P/Q in [1/r, r]",
                       rhs_name="eps_hat(alpha) at eps = log r"),)),
    ),
    aliases=("STK-BLOG-PDP-RDP",),
    notes="The zCDP value eps tanh(eps/2) is the alpha -> 1 limit of eps_hat(alpha)/alpha (the "
          "KL divergence of RR). Claim 6 draws exact eps-DP pairs with ratio bound r = 1 + "
          "r_num/100 from a seed, so hypothesis searches and shrinks over (seed, r_num, alpha).",
)


# ==========================================================================================
# STK-ZCDP-CONV and STK-REMARK15


def zcdp_conv_eps(ctx: Any, rho: Any, delta: Any) -> Any:
    """``rho + 2 sqrt(rho log(1/delta))``: rho-zCDP implies this (eps, delta)-DP ([BS16] arXiv
    1605.02065, Prop. 1.3)."""
    return rho + 2 * ctx.sqrt(-rho * ctx.log(delta))


def zcdp_conv_delta(ctx: Any, rho: Any, eps: Any) -> Any:
    """``exp(-(eps - rho)^2/(4 rho))`` for eps >= rho, else 1 (no guarantee): the Chernoff form
    of [BS16] arXiv 1605.02065, Prop. 1.3 (proof: P[Z > eps] with the MGF bound)."""
    return ctx.piecewise_lt(eps, rho, lambda: ctx.one,
                            lambda: ctx.exp(-((eps - rho) ** 2) / (4 * rho)))


def _zcdp_inverse_problem() -> SmtProblem:
    import sympy as sp

    rho, L, s, eps = _sym("rho", "L", "s", "eps")
    return SmtProblem(
        {"rho": "real", "L": "real", "s": "real", "eps": "real"},
        (sp.Gt(rho, 0), sp.Gt(L, 0), sp.Ge(s, 0), sp.Eq(s**2, rho * L),
         sp.Eq(eps, rho + 2 * s)),
        sp.Eq((eps - rho) ** 2, 4 * rho * L),
        ("L = log(1/delta) > 0", "s = sqrt(rho L)", "delta(rho, eps) = e^{-(eps-rho)^2/(4 rho)}"),
    )


_CONV_REGIMES = Points(({"rho": "0.01", "delta": "1e-6"}, {"rho": "0.5", "delta": "1e-5"},
                        {"rho": "2", "delta": "1e-10"}, {"rho": "0.001", "delta": "1e-3"}))


def _gauss_eps_at_rho(ctx: Any, rho: Any, delta: Any) -> Any:
    """BW-ANALYTIC-GAUSS.eps for the Gaussian whose rho is given (sigma = 1/sqrt(2 rho))."""
    return gauss_eps(ctx, 1 / ctx.sqrt(2 * rho), delta)


def _const(value: str) -> Any:
    return lambda ctx, **_: ctx.num(value)


STK_ZCDP_CONV = Theorem(
    id="STK-ZCDP-CONV",
    title="zCDP to (eps, delta)-DP, simple form",
    family=FAMILY,
    source=Source(BS16[0], "Prop. 1.3; [S22] Sec. 4.1", arxiv=BS16[1]),
    types=("BOUND",),
    confidence=("HIGH",),
    statement=(
        "rho-zCDP => (eps, delta)-DP with delta = exp(-(eps - rho)^2/(4 rho)) for eps >= rho; "
        "equivalently eps = rho + 2 sqrt(rho log(1/delta)) for any delta in (0, 1)."
    ),
    domain="rho > 0; eps >= rho for the delta form; delta in (0, 1) for the eps form",
    evaluators=(
        Evaluator("eps", (RHO, DELTA), zcdp_conv_eps, "rho + 2 sqrt(rho log(1/delta))"),
        Evaluator("delta", (RHO, EPS), zcdp_conv_delta,
                  "exp(-(eps - rho)^2/(4 rho)) for eps >= rho; 1 (no guarantee) below"),
    ),
    claims=(
        Claim(1, "The inversion identity delta(rho, eps(rho, delta)) = delta holds to 1e-45 for "
                 "(rho, delta) in {(0.01, 1e-6), (0.5, 1e-5), (2, 1e-10), (0.001, 1e-3)}; "
                 "symbolically for all rho > 0, delta in (0, 1).",
              (Compare(lambda ctx, rho, delta: zcdp_conv_delta(
                           ctx, rho, zcdp_conv_eps(ctx, rho, delta)), "eq",
                       lambda ctx, delta, **_: delta, _CONV_REGIMES, "numeric",
                       Tol.rel("1e-45"), "delta(rho, eps(rho, delta))", "delta"),
               Smt(_zcdp_inverse_problem,
                   "eps = rho + 2 sqrt(rho L)  =>  (eps - rho)^2/(4 rho) = L (L = log 1/delta)"))),
        Claim(2, "CKS20-CONV.eps <= STK-ZCDP-CONV.eps in the same 4 regimes, e.g. rho = 0.5, "
                 "delta = 1e-5: CKS 4.7284 vs simple 5.2985, while the exact Gaussian gives "
                 "4.3772.",
              (Compare(lambda ctx, rho, delta: cks_eps(ctx, rho, delta), "le", zcdp_conv_eps,
                       _CONV_REGIMES, "numeric", lhs_name="CKS20-CONV.eps",
                       rhs_name="STK-ZCDP-CONV.eps"),
               Compare(lambda ctx, rho, delta: cks_eps(ctx, rho, delta), "eq", _const("4.7284"),
                       points({"rho": "0.5", "delta": "1e-5"}), "numeric", Tol.abs("5e-5"),
                       "CKS20-CONV.eps(0.5, 1e-5)", "4.7284"),
               Compare(zcdp_conv_eps, "eq", _const("5.2985"),
                       points({"rho": "0.5", "delta": "1e-5"}), "numeric", Tol.abs("5e-5"),
                       "STK-ZCDP-CONV.eps(0.5, 1e-5)", "5.2985"),
               Compare(_gauss_eps_at_rho, "eq", _const("4.3772"),
                       points({"rho": "0.5", "delta": "1e-5"}), "numeric", Tol.abs("5e-5"),
                       "BW-ANALYTIC-GAUSS.eps(1, 1e-5)", "4.3772"))),
        Claim(3, "Soundness against the Gaussian: BW-ANALYTIC-GAUSS.eps(1/sqrt(2 rho), delta) "
                 "<= eps(rho, delta) for all rho > 0, delta in (0, 1).",
              (Compare(_gauss_eps_at_rho, "le", zcdp_conv_eps,
                       Box(reals={"rho": ("1e-4", "50"), "delta": ("1e-15", "0.9")},
                           log_scale=frozenset({"rho", "delta"})),
                       "property", lhs_name="exact Gaussian eps",
                       rhs_name="rho + 2 sqrt(rho L)"),)),
    ),
    aliases=("BS16-ZCDP-CONV",),
    notes="Proof: Chernoff bound on P[Z > eps] with the sufficient condition of STK-APPROX-PLD. "
          "Loose by a constant inside the log (see CKS20-CONV).",
)


def remark15_rho(ctx: Any, eps: Any, delta: Any) -> Any:
    """``eps^2/(4 log(1/delta) + 4 eps)``: a rho for which rho-zCDP implies (eps, delta)-DP
    ([S22] arXiv 2210.00597v4, Remark 15)."""
    return eps**2 / (4 * (-ctx.log(delta)) + 4 * eps)


def _remark15_problem() -> SmtProblem:
    import sympy as sp

    eps, L, rho, s = _sym("eps", "L", "rho", "s")
    return SmtProblem(
        {"eps": "real", "L": "real", "rho": "real", "s": "real"},
        (sp.Gt(eps, 0), sp.Gt(L, 0), sp.Gt(rho, 0), sp.Ge(s, 0), sp.Eq(s**2, rho * L),
         sp.Eq(4 * rho * (L + eps), eps**2)),
        sp.Le(rho + 2 * s, eps),
        ("L = log(1/delta) > 0", "rho = eps^2/(4L + 4 eps)", "s = sqrt(rho L)"),
    )


STK_REMARK15 = Theorem(
    id="STK-REMARK15",
    title="Calibration of rho for a target (eps, delta)",
    family=FAMILY,
    source=_s22("Remark 15"),
    types=("BOUND",),
    confidence=("CONFIRMED",),
    statement="Setting rho = eps^2/(4 log(1/delta) + 4 eps) suffices for rho-zCDP => (eps, "
              "delta)-DP, i.e. rho + 2 sqrt(rho log(1/delta)) <= eps.",
    domain="eps > 0, delta in (0, 1)",
    evaluators=(Evaluator("rho", (replace(EPS, lo_open=True), DELTA), remark15_rho,
                          "eps^2/(4 log(1/delta) + 4 eps)"),),
    claims=(
        Claim(1, "STK-ZCDP-CONV.eps(rho(eps, delta), delta) <= eps for (eps, delta) in "
                 "{(1, 1e-6), (0.1, 1e-5), (8, 1e-9)}.",
              (Compare(lambda ctx, eps, delta: zcdp_conv_eps(ctx, remark15_rho(ctx, eps, delta),
                                                             delta), "le",
                       lambda ctx, eps, **_: eps,
                       Points(({"eps": "1", "delta": "1e-6"}, {"eps": "0.1", "delta": "1e-5"},
                               {"eps": "8", "delta": "1e-9"})),
                       "numeric", lhs_name="STK-ZCDP-CONV.eps(rho(eps, delta), delta)",
                       rhs_name="eps"),)),
        Claim(2, "The same inequality for all eps > 0 and delta in (0, 1): with L = log(1/delta) "
                 "and u = L/(L + eps) it reduces to sqrt(u) <= (3 + u)/4, i.e. (u - 1)(u - 9) "
                 ">= 0 on (0, 1].",
              (Smt(_remark15_problem,
                   "4 rho (L + eps) = eps^2, s^2 = rho L, s >= 0  =>  rho + 2 s <= eps"),)),
    ),
    notes="To reach (eps, delta) through zCDP: set rho by this formula and use a rho-zCDP "
          "mechanism, e.g. the Gaussian with sigma = 1/sqrt(2 rho).",
)


# ==========================================================================================
# CKS20-CONV


def cks_delta_rdp(ctx: Any, alpha: Any, tau: Any, eps: Any) -> Any:
    """``exp((alpha-1)(tau - eps)) (1 - 1/alpha)^alpha/(alpha - 1)``: (alpha, tau)-RDP implies
    (eps, delta)-DP with this delta ([CKS20] arXiv 2004.00010v4, Prop. 12). Log space."""
    am1 = alpha - 1
    return ctx.exp(am1 * (tau - eps) + alpha * ctx.log(am1 / alpha) - ctx.log(am1))


def cks_delta_rdp_second_form(ctx: Any, alpha: Any, tau: Any, eps: Any) -> Any:
    """The same bound as ``exp((alpha-1)(tau - eps)) (1 - 1/alpha)^{alpha-1}/alpha`` (the form of
    the authors' code, [CKS20] Prop. 12 as implemented in TensorFlow Privacy)."""
    am1 = alpha - 1
    return ctx.exp(am1 * (tau - eps) + am1 * ctx.log1p(-1 / alpha) - ctx.log(alpha))


def _cks_log_delta_at(ctx: Any, rho: Any, eps: Any, s: Any) -> Any:
    """``F(alpha) = (alpha-1)(alpha rho - eps) + alpha log(1 - 1/alpha) - log(alpha - 1)`` at
    ``alpha = 1 + e^s``: the log of the RDP-form delta with tau = alpha rho."""
    e = ctx.exp(s)
    alpha = 1 + e
    return e * (alpha * rho - eps) + alpha * (s - ctx.log1p(e)) - s


def _cks_stationarity(ctx: Any, rho: Any, eps: Any, s: Any) -> Any:
    """``dF/dalpha = (2 alpha - 1) rho - eps + log(1 - 1/alpha)`` at ``alpha = 1 + e^s``;
    increasing in s (``d2F/dalpha2 = 2 rho + 1/(alpha(alpha - 1)) > 0``)."""
    e = ctx.exp(s)
    return (1 + 2 * e) * rho - eps + s - ctx.log1p(e)


def cks_delta(ctx: Any, rho: Any, eps: Any) -> Any:
    """``min(1, inf_{alpha > 1} exp((alpha-1)(alpha rho - eps)) (1-1/alpha)^alpha/(alpha-1))``:
    rho-zCDP implies (eps, delta)-DP ([CKS20] arXiv 2004.00010v4, Prop. 12 with tau = alpha rho;
    the zCDP corollary of Sec. 2.3).

    F = log of the bracket is strictly convex in alpha, with derivative -> -inf at 1+ and
    +inf at infinity: its unique stationary point is bracketed by certified bisection on
    ``s = log(alpha - 1)`` and F is evaluated on the whole bracket, so in arb the ball encloses
    the infimum itself.
    """
    start = ctx.min(ctx.zero, eps - 3 * rho) - 1  # there (1 + 2e^s) rho - eps + s < 0
    s = _bracket_increasing_root(ctx, lambda v: _cks_stationarity(ctx, rho, eps, v), start)
    return ctx.min(ctx.one, ctx.exp(_cks_log_delta_at(ctx, rho, eps, s)))


def _cks_eps_objective(ctx: Any, rho: Any, L: Any, s: Any) -> Any:
    """``G(alpha) = alpha rho + log(1 - 1/alpha) + (L - log alpha)/(alpha - 1)``, the RDP-form
    eps at order alpha with tau = alpha rho ([CKS20] Prop. 12 solved for eps), at alpha = 1+e^s."""
    e = ctx.exp(s)
    lg = ctx.log1p(e)
    return (1 + e) * rho + (s - lg) + (L - lg) / e


def _cks_eps_stationarity(ctx: Any, rho: Any, L: Any, s: Any) -> Any:
    """``(alpha - 1)^2 dG/dalpha = rho (alpha-1)^2 - (L - log alpha)``, increasing in alpha."""
    e = ctx.exp(s)
    return rho * e**2 - L + ctx.log1p(e)


def cks_eps(ctx: Any, rho: Any, delta: Any) -> Any:
    """Least eps >= 0 with ``cks_delta(rho, eps) <= delta`` ([CKS20] Prop. 12), computed as
    ``max(0, inf_alpha G(alpha))``: for each alpha, ``delta_alpha(eps) <= delta`` iff ``eps >=
    G(alpha)``. ``G'`` has the sign of ``rho (alpha-1)^2 - log(1/delta) + log alpha`` (increasing,
    negative at 1+ since delta < 1), so G is unimodal; its stationary point is bracketed by
    certified bisection and G is evaluated on the bracket (an enclosure of the infimum)."""
    L = -ctx.log(delta)
    start = ctx.min(ctx.log(L / 4), ctx.log(L / (4 * rho)) / 2)
    s = _bracket_increasing_root(ctx, lambda v: _cks_eps_stationarity(ctx, rho, L, v), start)
    return ctx.pos(_cks_eps_objective(ctx, rho, L, s))


def cks_eps_by_inversion(ctx: Any, rho: Any, delta: Any) -> Any:
    """The same eps by bisection of ``cks_delta(rho, eps)`` in eps (an independent route: it
    nests the delta-form infimum inside a monotone inversion)."""
    return ctx.solve(lambda e: cks_delta(ctx, rho, e), delta, lo=0, hi=1)


def _pointwise_bound_problem(alpha: int) -> SmtProblem:
    import sympy as sp

    (u,) = _sym("u")
    K_ = sp.Rational(alpha - 1, alpha) ** (alpha - 1) / alpha
    return SmtProblem({"u": "real"}, (sp.Gt(u, 0),), sp.Ge(K_ * u**alpha - u + 1, 0),
                      (f"alpha = {alpha}", "u = e^{z - eps} = w/x with w = e^z, x = e^eps",
                       "c e^{(alpha-1)z} = K u^{alpha-1}, K = ((alpha-1)/alpha)^{alpha-1}/alpha",
                       "1 - e^{eps-z} <= K u^{alpha-1}  <=>  K u^alpha - u + 1 >= 0 (u > 0)"))


def _pointwise_equality_problem(alpha: int) -> SmtProblem:
    import sympy as sp

    (u,) = _sym("u")
    K_ = sp.Rational(alpha - 1, alpha) ** (alpha - 1) / alpha
    return SmtProblem({"u": "real"}, (sp.Eq(u, sp.Rational(alpha, alpha - 1)),),
                      sp.Eq(K_ * u**alpha - u + 1, 0),
                      (f"alpha = {alpha}", "u = e^{z - eps} = alpha/(alpha - 1) at the touch"))


def _touch_identities_problem(which: str) -> SmtProblem:
    import sympy as sp

    alpha, E, K_ = _sym("alpha", "E", "K")
    hyp = (sp.Gt(alpha, 1), sp.Gt(E, 0), sp.Eq(K_ * alpha * E, 1))
    if which == "value":
        goal = sp.Eq(K_ * E - 1 + (alpha - 1) / alpha, 0)
    else:
        goal = sp.Eq(K_ * (alpha - 1) * E - (alpha - 1) / alpha, 0)
    return SmtProblem({"alpha": "real", "E": "real", "K": "real"}, hyp, goal,
                      ("t = z - eps, t* = log(alpha/(alpha-1))",
                       "E = e^{(alpha-1)t*} = (alpha/(alpha-1))^{alpha-1}",
                       "K = ((alpha-1)/alpha)^{alpha-1}/alpha = 1/(alpha E)",
                       "phi(t) = K e^{(alpha-1)t} - 1 + e^{-t}"))


def _convexity_problem() -> SmtProblem:
    import sympy as sp

    alpha, K_, A, B = _sym("alpha", "K", "A", "B")
    return SmtProblem({"alpha": "real", "K": "real", "A": "real", "B": "real"},
                      (sp.Gt(alpha, 1), sp.Gt(K_, 0), sp.Gt(A, 0), sp.Gt(B, 0)),
                      sp.Gt(K_ * (alpha - 1) ** 2 * A + B, 0),
                      ("A = e^{(alpha-1)t} > 0", "B = e^{-t} > 0",
                       "K = (1-1/alpha)^{alpha-1}/alpha > 0",
                       "phi''(t) = K (alpha-1)^2 A + B"))


def _touch(ctx: Any, alpha: Any) -> Any:
    """``t* = log(alpha/(alpha - 1))``: where the two sides of the pointwise bound touch."""
    return ctx.log(alpha / (alpha - 1))


def _pointwise_lhs(ctx: Any, alpha: Any, t: Any) -> Any:
    return ctx.pos(-ctx.expm1(-t))


def _pointwise_rhs(ctx: Any, alpha: Any, t: Any) -> Any:
    am1 = alpha - 1
    return ctx.exp(am1 * ctx.log(am1 / alpha) - ctx.log(alpha) + am1 * t)


def _cks_delta_forms_problem() -> SmtProblem:
    import sympy as sp

    alpha, b, P = _sym("alpha", "b", "P")
    return SmtProblem({"alpha": "real", "b": "real", "P": "real"},
                      (sp.Gt(alpha, 1), sp.Eq(b * alpha, alpha - 1), sp.Gt(P, 0)),
                      sp.Eq(P * b / (alpha - 1), P / alpha),
                      ("b = 1 - 1/alpha", "P = b^{alpha - 1} > 0", "b^alpha = P b"))


_CKS_REGIMES = _CONV_REGIMES

CKS20_CONV = Theorem(
    id="CKS20-CONV",
    title="Improved zCDP/RDP to approximate DP",
    family=FAMILY,
    source=Source(CKS20[0], "Prop. 12 (v4 numbering, as cited by the authors' TensorFlow "
                  "Privacy code; Sec. 2.3); the zCDP form is its infimum over alpha with tau = "
                  "alpha rho (Cor. 13 per the catalogue, number not confirmed)",
                  arxiv=CKS20[1], version=CKS20[2]),
    types=("BOUND",),
    confidence=("HIGH",),
    statement=(
        "If D_alpha(P||Q) <= tau for some alpha > 1, then for every eps H_{e^eps}(P||Q) <= "
        "exp((alpha-1)(tau - eps)) (1 - 1/alpha)^alpha/(alpha - 1) = exp((alpha-1)(tau - eps)) "
        "(1 - 1/alpha)^{alpha-1}/alpha. zCDP form: delta = inf_{alpha > 1} exp((alpha-1)(alpha "
        "rho - eps)) (1 - 1/alpha)^alpha/(alpha - 1); the optimal alpha solves (2 alpha - 1) rho "
        "- eps + log(1 - 1/alpha) = 0."
    ),
    domain="alpha > 1, tau >= 0, rho > 0, eps real",
    evaluators=(
        Evaluator("delta", (RHO, EPS_REAL), cks_delta,
                  "min(1, inf_alpha of the RDP-form delta at tau = alpha rho) (rigorous "
                  "enclosure of the infimum)"),
        Evaluator("eps", (RHO, DELTA), cks_eps,
                  "least eps >= 0 with delta(rho, eps) <= delta (= max(0, inf_alpha eps_alpha))"),
        Evaluator("delta_rdp", (ALPHA, TAU, EPS_REAL), cks_delta_rdp,
                  "exp((alpha-1)(tau - eps)) (1 - 1/alpha)^alpha/(alpha - 1)"),
    ),
    claims=(
        Claim(1, "Exact Gaussian eps <= CKS eps in 4 regimes (rho, delta) in {(0.01, 1e-6), "
                 "(0.5, 1e-5), (2, 1e-10), (0.001, 1e-3)}; e.g. rho = 0.01, delta = 1e-6: "
                 "0.57506 <= 0.62169.",
              (Compare(_gauss_eps_at_rho, "le", cks_eps, _CKS_REGIMES, "numeric",
                       lhs_name="BW-ANALYTIC-GAUSS.eps(1/sqrt(2 rho), delta)",
                       rhs_name="CKS20-CONV.eps"),
               Compare(_gauss_eps_at_rho, "eq", _const("0.57506"),
                       points({"rho": "0.01", "delta": "1e-6"}), "numeric", Tol.abs("5e-6"),
                       "exact Gaussian eps(0.01, 1e-6)", "0.57506"),
               Compare(cks_eps, "eq", _const("0.62169"),
                       points({"rho": "0.01", "delta": "1e-6"}), "numeric", Tol.abs("5e-6"),
                       "CKS20-CONV.eps(0.01, 1e-6)", "0.62169"))),
        Claim(2, "CKS20-CONV.eps <= STK-ZCDP-CONV.eps for all rho, delta.",
              (Compare(cks_eps, "le", zcdp_conv_eps,
                       Box(reals={"rho": ("1e-4", "50"), "delta": ("1e-15", "0.9")},
                           log_scale=frozenset({"rho", "delta"})),
                       "property", lhs_name="CKS20-CONV.eps", rhs_name="STK-ZCDP-CONV.eps"),)),
        Claim(3, "The two closed forms of the RDP-form delta are equal ((1-1/alpha)^alpha/(alpha"
                 "-1) = (1-1/alpha)^{alpha-1}/alpha).",
              (Smt(_cks_delta_forms_problem,
                   "b = 1 - 1/alpha, P = b^{alpha-1}: P b/(alpha - 1) = P/alpha"),
               Compare(cks_delta_rdp, "eq", cks_delta_rdp_second_form,
                       grid(alpha=["1.01", "2.5", "64"], tau=["0", "3.7"], eps=["-1", "0.3", "9"]),
                       "numeric", Tol.rel("1e-45"), "exp(...) (1-1/a)^a/(a-1)",
                       "exp(...) (1-1/a)^{a-1}/a"))),
        Claim(4, "The pointwise bound max(0, 1 - e^{eps-z}) <= c e^{(alpha-1)z} holds for all "
                 "real z, with equality at e^z = alpha e^eps/(alpha-1): a polynomial inequality "
                 "after w = e^z, x = e^eps for integer alpha >= 2 [smt]; for general alpha over "
                 "the box alpha in [1.01, 64], z - eps in [-50, 50] [interval].",
              tuple(Smt(lambda a=a: _pointwise_bound_problem(a),
                        f"alpha = {a}: K u^{a} - u + 1 >= 0 for u > 0")
                    for a in (2, 3, 4, 8, 16))
              + tuple(Smt(lambda a=a: _pointwise_equality_problem(a),
                          f"alpha = {a}: equality at u = {Fraction(a, a - 1)}")
                      for a in (2, 3, 4, 8, 16))
              + (Smt(_convexity_problem,
                     "phi'' = K (alpha-1)^2 e^{(alpha-1)t} + e^{-t} > 0: phi is strictly convex"),
                 Smt(lambda: _touch_identities_problem("value"),
                     "phi(t*) = 0 at e^{t*} = alpha/(alpha-1), for every real alpha > 1"),
                 Smt(lambda: _touch_identities_problem("slope"),
                     "phi'(t*) = 0 at e^{t*} = alpha/(alpha-1), for every real alpha > 1"),
                 Compare(_pointwise_lhs, "le", _pointwise_rhs,
                         Box(reals={"alpha": ("1.01", "64"), "t": ("-50", "50")},
                             log_scale=frozenset({"alpha"})),
                         "property", lhs_name="max(0, 1 - e^{eps - z})",
                         rhs_name="c e^{(alpha-1)z} (t = z - eps)"),
                 *(Compare(lambda ctx, alpha, v, sign=sign: _pointwise_lhs(
                               ctx, alpha, _touch(ctx, alpha) + sign * v), "le",
                           lambda ctx, alpha, v, sign=sign: _pointwise_rhs(
                               ctx, alpha, _touch(ctx, alpha) + sign * v),
                           Box(reals={"alpha": ("1.01", "64"), "v": ("1e-8", "1/100")},
                               log_scale=frozenset({"alpha", "v"})),
                           "property", lhs_name=f"max(0, 1 - e^{{-t}}), t = t*(alpha) {op} v",
                           rhs_name="c e^{(alpha-1)z} (near the touching point t*)")
                   for sign, op in ((1, "+"), (-1, "-"))))),
        Claim(5, "delta_rdp(alpha, tau, BALLE20-CONV.eps(alpha, tau, delta)) = delta (the delta "
                 "and eps forms agree; see BALLE20-CONV claim 2).",
              (Compare(lambda ctx, alpha, tau, delta: cks_delta_rdp(
                           ctx, alpha, tau, balle_eps(ctx, alpha, tau, delta)), "eq",
                       lambda ctx, delta, **_: delta,
                       Points(({"alpha": "5.45", "tau": "2.725", "delta": "1e-5"},
                               {"alpha": "1.01", "tau": "0.01", "delta": "0.3"},
                               {"alpha": "300", "tau": "0.03", "delta": "1e-12"})),
                       "numeric", Tol.rel("1e-40"), "delta_rdp(alpha, tau, eps(alpha, tau, "
                       "delta))", "delta"),)),
    ),
    notes="The RDP form applied order by order to an RDP curve and solved for eps is "
          "BALLE20-CONV. Claim 4 for general real alpha: with t = z - eps, phi(t) = c e^{(alpha-1)"
          "z} - (1 - e^{eps-z}) is strictly convex (smt: phi'' is a sum of positive exponentials) "
          "and phi(t*) = phi'(t*) = 0 at e^{t*} = alpha/(alpha-1) (smt), so phi >= 0 with the "
          "single touching point t*; the box alpha in [1.01, 64], t in [-50, 50] is searched by "
          "the property route. Branch and bound cannot certify a tangency (every box meeting "
          "the curve t = t*(alpha) stays undecided), so the catalogue's [interval] route is "
          "replaced by this proof.",
)


# ==========================================================================================
# BS16-L36


def bs16_delta_shift(ctx: Any, rho: Any, x: Any) -> Any:
    """The quoted [BS16] Lemma 3.6 delta at ``eps = rho + x`` (x >= 0): ``2 e^{-x^2/(4 rho)}/(1
    + a + sqrt((1 + a)^2 + 4/(pi rho)))`` with ``a = x/(2 rho)``."""
    a = x / (2 * rho)
    return 2 * ctx.exp(-(x**2) / (4 * rho)) / (
        1 + a + ctx.sqrt((1 + a) ** 2 + 4 / (ctx.pi * rho)))


def bs16_delta(ctx: Any, rho: Any, eps: Any) -> Any:
    """[BS16] arXiv 1605.02065, Lemma 3.6 as quoted by a secondary source (UNCERTAIN):
    ``delta = 2 e^{-(eps-rho)^2/(4 rho)}/(1 + a + sqrt((1 + a)^2 + 4/(pi rho)))``, ``a = (eps -
    rho)/(2 rho)``, for eps >= rho; 1 (no guarantee) below, as in STK-ZCDP-CONV."""
    return ctx.piecewise_lt(eps, rho, lambda: ctx.one,
                            lambda: bs16_delta_shift(ctx, rho, eps - rho))


def bs16_eps(ctx: Any, rho: Any, delta: Any) -> Any:
    """Least eps >= rho with ``bs16_delta(rho, eps) <= delta`` (bisection; the quoted delta is
    decreasing in eps >= rho)."""
    return rho + ctx.solve(lambda x: bs16_delta_shift(ctx, rho, x), delta, lo=0, hi=1)


def _bs16_minus_cks(ctx: Any, rho: Any, delta: Any) -> Any:
    return bs16_eps(ctx, rho, delta) - cks_eps(ctx, rho, delta)


BS16_L36 = Theorem(
    id="BS16-L36",
    title="Refined zCDP to (eps, delta) conversion (Bun–Steinke Lemma 3.6, as quoted)",
    family=FAMILY,
    source=Source(BS16[0], "Lemma 3.6, as quoted by a secondary source (the paper's display "
                  "could not be read)", arxiv=BS16[1]),
    types=("BOUND",),
    confidence=("UNCERTAIN",),
    statement=(
        "Formula as quoted: delta = 2 e^{-(eps-rho)^2/(4rho)}/(1 + a + sqrt((1+a)^2 + 4/(pi "
        "rho))) with a = (eps - rho)/(2 rho), roughly sqrt(pi rho) e^{-(eps-rho)^2/(4rho)} for "
        "small rho."
    ),
    domain="rho > 0, eps >= rho",
    evaluators=(
        Evaluator("delta", (RHO, EPS), bs16_delta,
                  "the quoted formula for eps >= rho; 1 (no guarantee) below"),
        Evaluator("eps", (RHO, DELTA), bs16_eps,
                  "least eps >= rho with delta(rho, eps) <= delta (bisection)"),
    ),
    claims=(
        Claim(1, "Exact Gaussian eps <= BS16 eps in the 4 regimes of CKS20-CONV claim 1.",
              (Compare(_gauss_eps_at_rho, "le", bs16_eps, _CKS_REGIMES, "numeric",
                       lhs_name="exact Gaussian eps", rhs_name="BS16-L36.eps"),)),
        Claim(2, "BS16-L36.eps - CKS20-CONV.eps lies in [0.017, 0.26] in those regimes (it is "
                 "worse than CKS). Erratum: the catalogue's interval is a rounding of the "
                 "observed range; the certified differences are 0.016886... at (0.001, 1e-3) and "
                 "0.263254... at (2, 1e-10), outside [0.017, 0.26] (BS16 is still worse than CKS "
                 "everywhere).",
              (Compare(_bs16_minus_cks, "gt", lambda ctx, **_: ctx.zero, _CKS_REGIMES,
                       "numeric", lhs_name="BS16-L36.eps - CKS20-CONV.eps", rhs_name="0"),
               Compare(_bs16_minus_cks, "ge", _const("0.017"), _CKS_REGIMES, "numeric",
                       lhs_name="BS16-L36.eps - CKS20-CONV.eps", rhs_name="0.017"),
               Compare(_bs16_minus_cks, "le", _const("0.26"), _CKS_REGIMES, "numeric",
                       lhs_name="BS16-L36.eps - CKS20-CONV.eps", rhs_name="0.26")),
              expected="refuted"),
    ),
    aliases=("BS16-L3.6",),
    notes="Alias BS16-L3.6 (the dot is dropped in the id because '.' separates an id from an "
          "evaluator). Do not use it as the primary conversion; CKS20-CONV is simpler to "
          "justify and tighter. Only the weaker form eps = rho + sqrt(4 rho log(sqrt(pi rho)/"
          "delta)) (the quoted bound's sqrt(pi rho) majorant) circulates in public code.",
)


# ==========================================================================================
# STK-RDP-DEF


def _draw_eps_dp(rng: random.Random) -> dict[str, Any]:
    num = rng.randint(1, 300)
    p, q = random_eps_dp_pair(rng, num, 100)
    return {"p": p, "q": q, "r": 1 + Fraction(num, 100),
            "alpha": 1 + Fraction(rng.randint(1, 4000), 100)}


def _draw_two_orders(rng: random.Random) -> dict[str, Any]:
    p, q = random_pair(rng)
    a1 = 1 + Fraction(rng.randint(1, 2000), 100)
    return {"p": p, "q": q, "alpha1": a1, "alpha2": a1 + Fraction(rng.randint(1, 2000), 100)}


STK_RDP_DEF = Theorem(
    id="STK-RDP-DEF",
    title="Rényi DP",
    family=FAMILY,
    source=Source(MIR17[0], "Def. 4; [S22] Sec. 6.4 (result numbers there not confirmed)",
                  arxiv=MIR17[1], version=MIR17[2]),
    types=("DEFINITION",),
    confidence=("HIGH",),
    statement=(
        "(alpha, tau)-RDP means D_alpha(M(x)||M(x')) <= tau for all neighbours, i.e. "
        "E[e^{(alpha-1)Z}] <= e^{(alpha-1)tau}. Adaptive composition adds tau's; closed under "
        "post-processing; rho-zCDP <=> (alpha, alpha rho)-RDP for all alpha > 1; eps-DP => "
        "(alpha, eps)-RDP (and the sharper STK-PDP-ZCDP curve)."
    ),
    domain="alpha > 1, tau >= 0",
    claims=(
        Claim(1, "For random finite eps-DP pairs, D_alpha <= eps for every alpha > 1.",
              (Compare(lambda ctx, p, q, alpha, **_: renyi(ctx, p, q, alpha), "le",
                       lambda ctx, r, **_: ctx.log(r),
                       Generated(_draw_eps_dp, 100, "random pairs with P/Q in [1/r, r], eps = "
                                                    "log r, alpha in (1, 41]"),
                       "oracle", lhs_name="D_alpha(P||Q)", rhs_name="eps = log r"),)),
        Claim(2, "D_alpha(P||Q) is nondecreasing in alpha for random finite pairs.",
              (Compare(lambda ctx, p, q, alpha1, **_: renyi(ctx, p, q, alpha1), "le",
                       lambda ctx, p, q, alpha2, **_: renyi(ctx, p, q, alpha2),
                       Generated(_draw_two_orders, 100, "random pairs, 1 < alpha1 < alpha2"),
                       "oracle", lhs_name="D_alpha1", rhs_name="D_alpha2"),)),
    ),
)


# ==========================================================================================
# MIR-RDP-CONV and BALLE20-CONV


def mir_eps(ctx: Any, alpha: Any, tau: Any, delta: Any) -> Any:
    """``tau + log(1/delta)/(alpha - 1)``: (alpha, tau)-RDP implies (eps, delta)-DP ([Mir17]
    arXiv 1702.07476v3, Prop. 3)."""
    return tau - ctx.log(delta) / (alpha - 1)


def balle_eps(ctx: Any, alpha: Any, tau: Any, delta: Any) -> Any:
    """``tau + log((alpha - 1)/alpha) - (log delta + log alpha)/(alpha - 1)``: (alpha, tau)-RDP
    implies (eps, delta)-DP ([BBGHS20] arXiv 1905.09982, Thm 21; = [CKS20] Prop. 12 solved for
    eps; [Aso20] Eq. 20). Not clamped at 0 (accountants report max(0, eps))."""
    am1 = alpha - 1
    return tau + ctx.log(am1 / alpha) - (ctx.log(delta) + ctx.log(alpha)) / am1


def balle_delta(ctx: Any, alpha: Any, tau: Any, eps: Any) -> Any:
    """The same bound solved for delta: CKS20-CONV.delta_rdp ([CKS20] Prop. 12)."""
    return cks_delta_rdp(ctx, alpha, tau, eps)


def _order_grid() -> tuple[Fraction, ...]:
    """The orders of BALLE20-CONV claim 1: ``{1 + x/20 : x = 1..199} ∪ {11, ..., 499}``."""
    return tuple(1 + Fraction(x, 20) for x in range(1, 200)) + tuple(
        Fraction(a) for a in range(11, 500))


def _min_over_orders(ctx: Any, f: Any, orders: Any) -> Any:
    return ctx.min(*(f(ctx.num(a)) for a in orders))


def _gauss_curve_balle(ctx: Any, mu: Any, delta: Any) -> Any:
    return _min_over_orders(ctx, lambda a: balle_eps(ctx, a, a * mu**2 / 2, delta), _order_grid())


def _gauss_curve_mir(ctx: Any, mu: Any, delta: Any) -> Any:
    return _min_over_orders(ctx, lambda a: mir_eps(ctx, a, a * mu**2 / 2, delta), _order_grid())


def _gauss_exact_mu(ctx: Any, mu: Any, delta: Any) -> Any:
    return gauss_eps(ctx, 1 / mu, delta)


_GAUSS_CURVES = Points(({"mu": "1", "delta": "1e-5"}, {"mu": "0.3", "delta": "1e-6"},
                        {"mu": "3", "delta": "1e-3"}))


def _balle_minus_mir(ctx: Any, alpha: Any, tau: Any, delta: Any) -> Any:
    return balle_eps(ctx, alpha, tau, delta) - mir_eps(ctx, alpha, tau, delta)


MIR_RDP_CONV = Theorem(
    id="MIR-RDP-CONV",
    title="RDP to (eps, delta): Mironov's conversion",
    family=FAMILY,
    source=Source(MIR17[0], "Prop. 3 (numbering of v3)", arxiv=MIR17[1], version=MIR17[2]),
    types=("BOUND",),
    confidence=("HIGH",),
    statement="(alpha, tau)-RDP => (tau + log(1/delta)/(alpha-1), delta)-DP. For an RDP curve, "
              "take the minimum over the available orders.",
    domain="alpha > 1, tau >= 0, delta in (0, 1)",
    evaluators=(Evaluator("eps", (ALPHA, TAU, DELTA), mir_eps,
                          "tau + log(1/delta)/(alpha - 1)"),),
    claims=(
        Claim(1, "BALLE20-CONV.eps <= MIR-RDP-CONV.eps: the difference is log(1 - 1/alpha) - "
                 "log(alpha)/(alpha-1) < 0 for all alpha > 1 (box alpha in [1.0001, 1e4]).",
              (Compare(_balle_minus_mir, "lt", lambda ctx, **_: ctx.zero,
                       Box(reals={"alpha": ("1.0001", "10000")}, fixed={"tau": "0",
                                                                          "delta": "1/2"},
                           log_scale=frozenset({"alpha"})),
                       "interval", lhs_name="BALLE20-CONV.eps - MIR-RDP-CONV.eps (independent "
                       "of tau, delta)", rhs_name="0"),
               Compare(balle_eps, "lt", mir_eps,
                       Box(reals={"alpha": ("1.0001", "10000"), "tau": ("0", "100"),
                                  "delta": ("1e-30", "0.99")},
                           log_scale=frozenset({"alpha", "delta"})),
                       "property", lhs_name="BALLE20-CONV.eps", rhs_name="MIR-RDP-CONV.eps"))),
        Claim(2, "On the Gaussian curves of BALLE20-CONV claim 1, improved <= Mironov after "
                 "minimising each over the same order grid.",
              (Compare(_gauss_curve_balle, "le", _gauss_curve_mir, _GAUSS_CURVES, "numeric",
                       lhs_name="min_alpha BALLE20-CONV.eps", rhs_name="min_alpha "
                       "MIR-RDP-CONV.eps"),)),
    ),
    notes="Superseded by BALLE20-CONV; kept because many accountants and published numbers "
          "still use it.",
)


# ------------------------------------------------------------------------------------------
# The Poisson-subsampled Gaussian (formulas owned by theorems/subsampling.py, imported lazily:
# that module imports this one)


def sgm_eps_exact(ctx: Any, q: Any, sigma: Any, delta: Any) -> Any:
    """The exact eps of one Poisson-subsampled Gaussian step under add/remove (catalogue
    SGM-1STEP-EXACT, derived from [BBG] arXiv 1807.01647v2): least eps >= 0 whose profile,
    the maximum over both orders of the dominating pair, is at most delta."""
    from dpverify.theorems.subsampling import sgm1_eps

    return sgm1_eps(ctx, q, sigma, delta)


def sgm_eps_rdp(ctx: Any, q: Any, sigma: Any, delta: Any) -> Any:
    """One step: MTZ-SGM-RDP at the integer orders 2..128 ([MTZ19] arXiv 1908.10530, Sec. 3.3,
    binomial expansion), converted by BALLE20-CONV and minimised over the orders."""
    from dpverify.theorems.subsampling import sgm_rdp_binomial

    return ctx.min(*(balle_eps(ctx, ctx.num(a), sgm_rdp_binomial(ctx, q, sigma, a), delta)
                     for a in range(2, 129)))


BALLE20_CONV = Theorem(
    id="BALLE20-CONV",
    title="RDP to (eps, delta): improved conversion",
    family=FAMILY,
    source=Source(BBGHS20[0], "Thm 21 (arXiv numbering, as cited by Opacus and autodp); = "
                  "[CKS20] Prop. 12 solved for eps; [Aso20] arXiv 2001.05990 Eq. 20",
                  arxiv=BBGHS20[1]),
    types=("BOUND",),
    confidence=("HIGH",),
    statement="(alpha, tau)-RDP => (eps, delta)-DP with eps = tau + log((alpha - 1)/alpha) - "
              "(log delta + log alpha)/(alpha - 1). For an RDP curve, take the minimum over the "
              "available orders.",
    domain="alpha > 1, tau >= 0, delta in (0, 1)",
    evaluators=(
        Evaluator("eps", (ALPHA, TAU, DELTA), balle_eps,
                  "tau + log((alpha - 1)/alpha) - (log delta + log alpha)/(alpha - 1)"),
        Evaluator("delta", (ALPHA, TAU, EPS_REAL), balle_delta,
                  "CKS20-CONV.delta_rdp(alpha, tau, eps)"),
    ),
    claims=(
        Claim(1, "Exact Gaussian eps <= improved eps minimised over the orders {1 + x/20 : x = "
                 "1..199} ∪ {11, ..., 499} for (mu, delta) in {(1, 1e-5), (0.3, 1e-6), (3, "
                 "1e-3)}, with tau(alpha) = alpha mu^2/2; e.g. mu = 1, delta = 1e-5: 4.37718 <= "
                 "4.72843.",
              (Compare(_gauss_exact_mu, "le", _gauss_curve_balle, _GAUSS_CURVES, "numeric",
                       lhs_name="BW-ANALYTIC-GAUSS.eps(1/mu, delta)",
                       rhs_name="min over the grid of BALLE20-CONV.eps"),
               Compare(_gauss_exact_mu, "eq", _const("4.37718"),
                       points({"mu": "1", "delta": "1e-5"}), "numeric", Tol.abs("5e-6"),
                       "exact Gaussian eps(mu = 1, 1e-5)", "4.37718"),
               Compare(_gauss_curve_balle, "eq", _const("4.72843"),
                       points({"mu": "1", "delta": "1e-5"}), "numeric", Tol.abs("5e-6"),
                       "grid-minimised BALLE20-CONV.eps(mu = 1, 1e-5)", "4.72843"))),
        Claim(2, "The eps form and the delta form agree: delta(alpha, tau, eps(alpha, tau, delta)) "
                 "= delta to 1e-40 at the optimal order of claim 1.",
              (Compare(lambda ctx, alpha, mu, delta: balle_delta(
                           ctx, alpha, alpha * mu**2 / 2,
                           balle_eps(ctx, alpha, alpha * mu**2 / 2, delta)), "eq",
                       lambda ctx, delta, **_: delta,
                       # the grid orders minimising claim 1's eps (asserted in the tests)
                       Points(({"alpha": "5.45", "mu": "1", "delta": "1e-5"},
                               {"alpha": "17", "mu": "0.3", "delta": "1e-6"},
                               {"alpha": "2.15", "mu": "3", "delta": "1e-3"})),
                       "numeric", Tol.rel("1e-40"), "delta(alpha, tau, eps(alpha, tau, delta))",
                       "delta"),)),
        Claim(3, "One step of the Poisson-subsampled Gaussian (q = 0.01, sigma = 1, delta = "
                 "1e-5): the exact eps (SGM-1STEP-EXACT) is 0.19945, while RDP (MTZ-SGM-RDP at "
                 "integer orders 2..128, then this conversion) gives 0.95628.",
              (Compare(sgm_eps_exact, "le", sgm_eps_rdp,
                       points({"q": "0.01", "sigma": "1", "delta": "1e-5"}), "numeric",
                       lhs_name="exact one-step eps", rhs_name="RDP-based eps"),
               Compare(sgm_eps_exact, "eq", _const("0.19945"),
                       points({"q": "0.01", "sigma": "1", "delta": "1e-5"}), "numeric",
                       Tol.abs("5e-6"), "exact one-step eps", "0.19945"),
               Compare(sgm_eps_rdp, "eq", _const("0.95628"),
                       points({"q": "0.01", "sigma": "1", "delta": "1e-5"}), "numeric",
                       Tol.abs("5e-6"), "RDP-based eps (orders 2..128)", "0.95628"))),
        Claim(4, "The same ordering (exact <= RDP-based) for q = 0.1, sigma = 0.8, delta = 1e-6.",
              (Compare(sgm_eps_exact, "le", sgm_eps_rdp,
                       points({"q": "0.1", "sigma": "0.8", "delta": "1e-6"}), "numeric",
                       lhs_name="exact one-step eps", rhs_name="RDP-based eps"),)),
    ),
    notes="The order grid matters: a coarser grid gives a larger (still sound) eps. Common "
          "accountants restrict to alpha > 1.01 and short-circuit eps = 0 when delta^2 + "
          "expm1(-tau) >= 0. Claims 3–4 use the subsampled-Gaussian formulas of "
          "theorems/subsampling.py (SGM-1STEP-EXACT; MTZ-SGM-RDP's integer-order sum).",
)


THEOREMS: tuple[Theorem, ...] = (
    STK_PLD_DEF,
    STK_COMP_PLD,
    STK_ZCDP_DEF,
    STK_ZCDP_GAUSS,
    STK_ZCDP_COMP,
    STK_ADAPT_POST,
    STK_PDP_ZCDP,
    STK_ZCDP_CONV,
    STK_REMARK15,
    CKS20_CONV,
    BS16_L36,
    STK_RDP_DEF,
    MIR_RDP_CONV,
    BALLE20_CONV,
)

__all__ = [
    "THEOREMS",
    "balle_delta",
    "balle_eps",
    "bs16_delta",
    "bs16_eps",
    "cks_delta",
    "cks_delta_rdp",
    "cks_eps",
    "cks_eps_by_inversion",
    "comp_gauss_delta",
    "comp_gauss_eps",
    "mir_eps",
    "pdp_rho",
    "pdp_rho_simple",
    "pdp_tau",
    "remark15_rho",
    "sgm_eps_exact",
    "sgm_eps_rdp",
    "zcdp_comp_rho",
    "zcdp_conv_delta",
    "zcdp_conv_eps",
    "zcdp_gauss_rho",
]
