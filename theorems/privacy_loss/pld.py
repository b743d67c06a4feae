"""Privacy loss distributions: STK-PLD-DEF (the privacy loss random variable), STK-APPROX-PLD (the
three PLD forms of the hockey-stick divergence) and STK-COMP-PLD (composition is convolution).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import (
    Claim,
    Compare,
    Generated,
    Predicate,
    Smt,
    SmtProblem,
    Tol,
    grid,
    points,
)
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.gaussian import (
    comp_gauss_delta,
    comp_gauss_eps,
    gauss_delta,
    gauss_delta_output_quad,
    gauss_delta_pld_quad,
    gauss_delta_tail_quad,
    pld_gauss_delta_quad,
    pld_gauss_mgf_quad,
)
from dpverify.theorems.formulas.kov_mv import kov_delta_pure
from dpverify.theorems.formulas.laplace import (
    laplace_delta,
    laplace_delta_output_quad,
    laplace_delta_pld_quad,
    laplace_delta_tail_quad,
    laplace_delta_two_term,
)
from dpverify.theorems.formulas.mechanism_pld import (
    laplace_pld_delta,
    laplace_pld_eps,
    rr_pld_delta,
    rr_pld_eps,
)
from dpverify.theorems.numerics import finite
from dpverify.theorems.numerics.finite import (
    hockey_stick,
    hockey_stick_events,
    max_log_ratio,
    privacy_loss_atoms,
    product,
    random_pair,
    renyi,
)
from dpverify.theorems.params import DELTA, EPS0, EPS_REAL, Q_ONE, SENSITIVITY, SIGMA, B, K
from dpverify.theorems.privacy_loss.common import (
    FAMILY,
    GAUSS_REGIMES,
    LAPLACE_POINTS,
    QUAD_TOL,
    laplace_term,
)
from dpverify.theorems.privacy_loss.pld_pairs_smt import (
    pure_level_iff_problem,
    reverse_moment_problem,
    two_term_problem,
)
from dpverify.theorems.privacy_loss.pld_universal import (
    approx_pld_universal,
    comp_pld_universal,
    mgf_problem,
    pld_def_universal,
)
from dpverify.theorems.refs import S22, cite
from dpverify.theorems.values import exact_params

# ==========================================================================================
# STK-PLD-DEF


def _pld_moment(ctx: Any, atoms: list[tuple[Any, Any]], g: Any) -> Any:
    return ctx.fsum(prob * g(z) for z, prob in atoms)


def _pld_moment_of(ctx: Any, p: Any, q: Any, g: Any) -> Any:
    return _pld_moment(ctx, privacy_loss_atoms(ctx, p, q), g)


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
              (Compare(lambda ctx, rho: pld_gauss_mgf_quad(ctx, rho, -ctx.one),
                       "eq", lambda ctx, **_: ctx.one, points({"rho": "0.37"}), "numeric",
                       QUAD_TOL, "E[e^-Z] (quadrature)", "1"),), scope="instance"),
        Claim(2, "For random finite pairs with common support, E[g(Z')] = E[g(-Z) e^{-Z}] for g "
                 "in {identity, exp, indicator of (-inf, c]}. Proved by z3 for every "
                 "full-support pair on 2 and 3 outputs and every real c (both sides from the "
                 "PLD atoms in the sym context, log P_i and log Q_i abstracted as free reals); "
                 "certified on random pairs on 2–6 outputs.",
              (*(reverse_check(*g) for g in g_forms),
               *(Smt(lambda g=g, n=n: reverse_moment_problem(g[1], g[2], _pld_moment_of, n),
                     f"E[g(Z')] = E[g(-Z) e^-Z], g = {g[0]}, every full-support pair on {n} "
                     "outputs")
                 for g in g_forms for n in (2, 3)))),
        Claim(3, "For random finite pairs, max |Z| <= eps iff the pair is eps-indistinguishable "
                 "in both orders (all events enumerated). Proved by z3 for every full-support "
                 "pair on 2 and 3 outputs and every real eps (x = e^eps), from max_log_ratio and "
                 "hockey_stick_events in the sym context; certified on random pairs on 2–6 "
                 "outputs.",
              (Predicate(eps_dp_iff, Generated(_draw_pair_eps, 100,
                                               "random pairs, eps around their max |Z|"),
                         "oracle", "max|Z| <= eps  <=>  H_{e^eps}(P||Q) = H_{e^eps}(Q||P) = 0"),
               *(Smt(lambda n=n: pure_level_iff_problem(max_log_ratio, hockey_stick_events, n),
                     f"max|Z| <= eps <=> both-order max over events of P - x Q <= 0, every "
                     f"full-support pair on {n} outputs, every x = e^eps > 0")
                 for n in (2, 3)))),
        Claim(4, "D_alpha from the PLD MGF equals the direct Rényi divergence for random finite "
                 "pairs. Proved by z3 for every full-support pair on 3 outputs at alpha in {2, 3} "
                 "(the PLD moment and the direct sum, symbolically; the same problems as claim "
                 "6); certified on random pairs on 2–6 outputs, alpha in (1, 21].",
              (Compare(mgf_renyi, "eq", lambda ctx, p, q, alpha: renyi(ctx, p, q, alpha),
                       Generated(_draw_pair_alpha, 100, "random pairs, alpha in (1, 21]"),
                       "oracle", Tol.abs("1e-40"), "log E[e^{(alpha-1)Z}]/(alpha-1)",
                       "D_alpha(P||Q)"),
               Smt(lambda: mgf_problem(2), "E[e^{Z}] = sum P^2/Q on 3 outputs (alpha = 2)"),
               Smt(lambda: mgf_problem(3), "E[e^{2Z}] = sum P^3/Q^2 on 3 outputs (alpha = 3)"))),
    )


STK_PLD_DEF = Theorem(
    id="STK-PLD-DEF",
    title="Privacy loss random variable and distribution",
    family=FAMILY,
    source=cite(S22, "Sec. 3, definition of the privacy loss (definition number not confirmed)"),
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
    claims=(*_pld_def_claims(), *pld_def_universal()),
    notes="For finite distributions the PLD is a finite list of (loss, probability) atoms; "
          "outputs with Q(y) = 0 < P(y) give an atom at +infinity.",
)


# ------------------------------------------------------------------------------------------
# STK-APPROX-PLD


def _finite_two_term(ctx: Any, p: Any, q: Any, eps: Any, **_: Any) -> Any:
    """``P[Z > eps] - e^eps P[Z' < -eps]`` from the PLD atoms of ``(P, Q)`` and ``(Q, P)``
    ([S22] arXiv 2210.00597v4, Sec. 3.3); losses of ``+inf`` (``Q(y) = 0``) count in
    ``P[Z > eps]``."""
    forward = finite.privacy_loss_atoms(ctx, p, q)
    reverse = finite.privacy_loss_atoms(ctx, q, p)
    above = ctx.fsum(ctx.piecewise_lt(eps, z, lambda m=m: m, lambda: ctx.zero)
                     for z, m in forward)
    below = ctx.fsum(ctx.piecewise_lt(z, -eps, lambda m=m: m, lambda: ctx.zero)
                     for z, m in reverse)
    return above - ctx.exp(eps) * below


def _draw_pair_signed_eps(rng: random.Random) -> dict[str, Any]:
    p, q = finite.random_pair(rng, allow_zero=rng.random() < 0.3)
    return {"p": p, "q": q, "eps": Fraction(rng.randint(-250, 250), 100)}


def _approx_pld_claims() -> tuple[Claim, ...]:
    def gauss(route: Any, name: str) -> Compare:
        return Compare(route, "eq", gauss_delta, GAUSS_REGIMES, "numeric", Tol.abs("1e-40"),
                       name, "BW closed form")  # arb: rigorous acb.integral (formulas.gaussian)

    def lap(route: Any, name: str, arb: bool = False) -> Compare:
        return Compare(laplace_term(route), "eq", laplace_term(laplace_delta), LAPLACE_POINTS,
                       "numeric", Tol.abs("1e-40"), name, "Laplace closed form",
                       ctx="arb" if arb else "mp")

    return (
        Claim(1, "The PLD expectation E[max(0, 1 - e^{eps-Z})] (quadrature over z) equals the "
                 "closed form, in the 4 Gaussian regimes of STK-HT claim 1, to 1e-40.",
              (gauss(gauss_delta_pld_quad, "PLD-expectation quadrature"),), scope="instance"),
        Claim(2, "The tail-integral form ∫_eps^∞ e^{eps-z} P[Z > z] dz equals the closed form "
                 "(same regimes, 1e-40).",
              (gauss(gauss_delta_tail_quad, "tail-integral quadrature"),), scope="instance"),
        Claim(3, "The output-space integral ∫ (p - e^eps q)_+ equals the closed form (same "
                 "regimes, 1e-40).",
              (gauss(gauss_delta_output_quad, "output-space quadrature"),), scope="instance"),
        Claim(4, "The same identities hold for Laplace, where the PLD has atoms (at the points "
                 "of STK-LAPLACE): PLD expectation, tail integral, output-space integral, and "
                 "the two-term form P[Z > eps] - e^eps P[Z' < -eps] (certified in arb).",
              (lap(laplace_delta_pld_quad, "PLD expectation (atoms + quadrature)", arb=True),
               lap(laplace_delta_tail_quad, "tail-integral quadrature"),
               lap(laplace_delta_output_quad, "output-space quadrature", arb=True),
               lap(laplace_delta_two_term, "P[Z > eps] - e^eps P[Z' < -eps]", arb=True)),
              scope="instance"),
        Claim(5, "P[Z > eps] - e^eps P[Z' < -eps] equals the hockey-stick value for random "
                 "finite pairs. Proved by z3 for every pair on 1, 2 and 3 outputs (every zero "
                 "pattern: P(y) = 0 or Q(y) = 0 allowed) and every real eps (x = e^eps), from "
                 "the same two terms in the sym context; certified on random pairs on 2-6 "
                 "outputs.",
              (Compare(_finite_two_term, "eq",
                       lambda ctx, p, q, eps, **_: finite.hockey_stick(ctx, p, q, eps),
                       Generated(_draw_pair_signed_eps, count=200,
                                 description="random finite pairs (2-6 outputs, some with "
                                             "zeros) and eps in [-2.5, 2.5]"),
                       "oracle", Tol.abs("1e-40"), "P[Z > eps] - e^eps P[Z' < -eps]",
                       "sum_y (P(y) - e^eps Q(y))_+"),
               *(Smt(lambda n=n: two_term_problem(_finite_two_term, finite.hockey_stick, n),
                     f"P[Z > eps] - e^eps P[Z' < -eps] = H_x(P||Q), every pair on {n} outputs "
                     "(every zero pattern), every x = e^eps > 0")
                 for n in (1, 2, 3)))),
    )


STK_APPROX_PLD = Theorem(
    id="STK-APPROX-PLD",
    title="Approximate DP from the PLD",
    family=FAMILY,
    source=cite(S22, "Sec. 3.3; = [CKS20] Lemma 9 (number as cited by a co-author)"),
    types=("EXACT",),
    confidence=("HIGH",),
    statement=(
        "For Z ~ PrivLoss(P||Q), Z' ~ PrivLoss(Q||P) and any real eps: H_{e^eps}(P||Q) = "
        "E[max(0, 1 - e^{eps - Z})] = P[Z > eps] - e^eps P[Z' < -eps] = ∫_eps^∞ e^{eps-z} "
        "P[Z > z] dz. M is (eps, delta)-DP iff delta >= this value for every ordered "
        "neighbouring pair. P[Z > eps] <= delta is sufficient but not necessary."
    ),
    domain="eps real",
    claims=(*_approx_pld_claims(), *approx_pld_universal()),
    notes="The second form needs the reverse loss Z'; the tail-integral form needs only the "
          "law of Z. Gaussian and Laplace instances are BW-ANALYTIC-GAUSS and STK-LAPLACE.",
)


# ==========================================================================================
# STK-COMP-PLD


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


@exact_params("eps0", "eps")
def _rr_engine_contains_kov(ctx: Any, eps0: Any, k: int, eps: Any, **_: Any) -> bool | None:
    """The PLD engine's enclosure of k-fold RR contains KOV-DELTA.delta_pure (exact)."""
    enc = flint.arb(rr_pld_delta(ctx, eps0, k, eps))
    exact = flint.arb(kov_delta_pure(ctx, ctx.num(eps0), k, ctx.num(eps)))
    return _inside(exact, enc)


@exact_params("b", "eps")
def _laplace_engine_contains_exact(ctx: Any, b: Any, eps: Any, **_: Any) -> bool | None:
    """The engine's one-step Laplace enclosure contains STK-LAPLACE.delta (closed form)."""
    enc = flint.arb(laplace_pld_delta(ctx, b, 1, eps))
    exact = flint.arb(laplace_delta(ctx, ctx.num(b), ctx.num(eps), ctx.one))
    return _inside(exact, enc)


def _inside(inner: Any, outer: Any) -> bool | None:
    if inner.lower() >= outer.lower() and inner.upper() <= outer.upper():
        return True
    if inner.upper() < outer.lower() or inner.lower() > outer.upper():
        return False
    return None


def _engine_claim() -> Claim:
    return Claim(6, "The certified PLD engine behind delta_rr and delta_laplace agrees with the "
                    "exact routes: its enclosure of k-fold RR(eps0) contains KOV-DELTA."
                    "delta_pure at (0.5, 10, 1), (0.1, 100, 0.5), (1, 3, 0) and its one-step "
                    "Laplace enclosure contains STK-LAPLACE.delta at (b, eps) = (1, 0.3), "
                    "(2, 0.1).",
                 (Predicate(_rr_engine_contains_kov,
                            points({"eps0": "0.5", "k": 10, "eps": "1"},
                                   {"eps0": "0.1", "k": 100, "eps": "0.5"},
                                   {"eps0": "1", "k": 3, "eps": "0"}),
                            "numeric", "KOV-DELTA.delta_pure in the PLD enclosure", ctx="arb"),
                  Predicate(_laplace_engine_contains_exact,
                            points({"b": "1", "eps": "0.3"}, {"b": "2", "eps": "0.1"}),
                            "numeric", "STK-LAPLACE.delta in the PLD enclosure", ctx="arb")),
                 scope="instance")


def hockey_product(ctx: Any, ps: Any, qs: Any, eps: Any, **_: Any) -> Any:
    p, q = ps[0], qs[0]
    for a, b in zip(ps[1:], qs[1:], strict=True):
        p, q = product(p, a), product(q, b)
    return hockey_stick(ctx, p, q, eps)


def pld_convolution(ctx: Any, ps: Any, qs: Any, eps: Any, **_: Any) -> Any:
    atoms = _convolve_plds(ctx, [privacy_loss_atoms(ctx, p, q)
                                 for p, q in zip(ps, qs, strict=True)])
    return ctx.fsum(prob * ctx.pos(-ctx.expm1(eps - z)) for z, prob in atoms)


def product_pld_problem(k: int, outputs: int = 2) -> SmtProblem:
    """Claim 3 for every k pairs of full-support distributions on ``outputs`` outputs and every
    real eps: both sides from the formula bodies in SymCtx (the PLD atoms' e^{-log(P/Q)} = Q/P,
    positive parts as Max), x = e^eps."""
    import sympy as sp

    from dpverify.theorems.symbolic import exp_as_powers

    ctx = SymCtx()
    ps = [list(sp.symbols(" ".join(f"p{j}_{i}" for i in range(outputs)), positive=True))
          for j in range(k)]
    qs = [list(sp.symbols(" ".join(f"q{j}_{i}" for i in range(outputs)), positive=True))
          for j in range(k)]
    eps, x = sp.Symbol("eps", real=True), sp.Symbol("x", positive=True)
    sides = [sp.expand_log(f(ctx, ps, qs, eps), force=True) for f in (hockey_product,
                                                                      pld_convolution)]
    sides = [exp_as_powers(sp.powsimp(sp.expand(v, power_exp=True)), eps, x) for v in sides]
    # the last mass of each distribution eliminated by its sum constraint (z3 closes the
    # smaller problem reliably, whatever the order of its assertions)
    last = {d[-1]: 1 - sum(d[:-1]) for d in (*ps, *qs)}
    hyps = [sp.Gt(v, 0) for v in last.values()]
    return SmtProblem({str(v): "real" for d in (*ps, *qs) for v in d[:-1]} | {"x": "real"},
                      tuple(hyps), sp.Eq(*(v.subs(last) for v in sides)),
                      ("x = e^eps > 0", f"k = {k} pairs on {outputs} outputs",
                       "e^{-log(P/Q)} = Q/P", "last mass = 1 - the others"))


def _comp_pld_claims() -> tuple[Claim, ...]:
    def hetero_closed(ctx: Any, mu_list: Any, eps: Any) -> Any:
        mu = ctx.sqrt(ctx.fsum(m**2 for m in mu_list))
        return gauss_delta(ctx, 1 / mu, eps)

    def hetero_quad(ctx: Any, mu_list: Any, eps: Any) -> Any:  # rigorous in arb
        return pld_gauss_delta_quad(ctx, ctx.fsum(m**2 for m in mu_list) / 2, eps)

    return (
        Claim(1, "k = 25, sigma = 4: the mu_k = sqrt(k)/sigma closed form equals the "
                 "N(k rho, 2k rho) quadrature to 1e-40 at eps in {0.5, 2}.",
              (Compare(comp_gauss_delta, "eq",
                       lambda ctx, sigma, k, eps: pld_gauss_delta_quad(
                           ctx, k / (2 * sigma**2), eps),
                       grid(sigma=["4"], k=[25], eps=["0.5", "2"]), "numeric",
                       QUAD_TOL, "delta(sigma/sqrt(k), eps)",
                       "PLD quadrature N(k rho, 2k rho)"),), scope="instance"),
        Claim(2, "Heterogeneous mus (0.5, 1, 0.3): the profile with sqrt(sum mu_j^2) equals the "
                 "quadrature with rho = sum mu_j^2/2 at eps = 1, to 1e-40.",
              (Compare(hetero_closed, "eq", hetero_quad,
                       points({"mu_list": (Fraction(1, 2), Fraction(1), Fraction(3, 10)),
                               "eps": "1"}), "numeric", QUAD_TOL,
                       "GDP profile at sqrt(sum mu^2)", "PLD quadrature"),),
              scope="instance"),
        Claim(3, "For random finite pairs, the exact hockey-stick of the product distribution "
                 "equals E[max(0, 1 - e^{eps - (Z_1 + ... + Z_k)})] computed by discrete "
                 "convolution of the PLDs. Proved by z3 for k = 2 and every two full-support "
                 "pairs on 2 outputs, every real eps (both sides from the formula bodies, "
                 "positive parts as Max, x = e^eps; k = 3 or 3 outputs return unknown within "
                 "20 s); certified on random pairs, k in {2, 3}, 2–3 outputs.",
              (Compare(hockey_product, "eq", pld_convolution,
                       Generated(_draw_product, 100, "k in {2, 3} random pairs on 2–3 outputs"),
                       "oracle", Tol.abs("1e-40"), "H_{e^eps}(P^k||Q^k)",
                       "E[(1 - e^{eps - sum Z_j})_+] (convolution)"),
               Smt(lambda: product_pld_problem(2),
                   "H_{e^eps}(P1 x P2||Q1 x Q2) = E[(1 - e^{eps - Z1 - Z2})_+], 2 outputs"))),
    )


STK_COMP_PLD = Theorem(
    id="STK-COMP-PLD",
    title="Composition is convolution of PLDs",
    family=FAMILY,
    source=cite(S22, "Sec. 4, composition of privacy loss distributions (theorem number not "
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
        Evaluator("delta_laplace", (B, K, EPS_REAL, Q_ONE, SENSITIVITY), laplace_pld_delta,
                  "certified delta(eps) of k Laplace(b) steps, each on a Poisson sample of rate "
                  "q (add/remove; q = 1: no sampling): PLD engine enclosure",
                  enclosure_only=True),
        Evaluator("eps_laplace", (B, K, DELTA, Q_ONE, SENSITIVITY), laplace_pld_eps,
                  "certified eps(delta) of k Laplace(b) steps on Poisson samples of rate q",
                  enclosure_only=True),
        Evaluator("delta_rr", (EPS0, K, EPS_REAL, Q_ONE), rr_pld_delta,
                  "certified delta(eps) of k RR(eps0) steps, each on a Poisson sample of rate q "
                  "(add/remove): PLD engine enclosure (q = 1: KOV-DELTA.delta_pure)",
                  enclosure_only=True),
        Evaluator("eps_rr", (EPS0, K, DELTA, Q_ONE), rr_pld_eps,
                  "certified eps(delta) of k RR(eps0) steps on Poisson samples of rate q",
                  enclosure_only=True),
    ),
    claims=(*_comp_pld_claims(), *comp_pld_universal(), _engine_claim()),
    notes="Numerical composition of non-Gaussian PLDs (discretisation, FFT) must bound its "
          "discretisation error before its output can be used as a certified value: the "
          "evaluators delta_laplace, eps_laplace, delta_rr, eps_rr (added for issue 16; not in "
          "the catalogue's list) expose the certified PLD engine (theorems.numerics.pld) that "
          "the accountant audit uses: upper and lower discrete PLDs composed exactly, the value "
          "being the midpoint of the rigorous enclosure (relative width 1e-3 by default, "
          "--rel-width to refine). Sensitivity s: Lap(0, b) vs Lap(s, b) (under replace-one "
          "with contributions of norm <= 1, s = 2); q < 1: the add and remove Poisson "
          "dominating pairs ([ZDW22] arXiv 2106.08567v3, Thm 10), both attained, so the value "
          "is the exact profile of the subsampled mechanism under add/remove.",
)
