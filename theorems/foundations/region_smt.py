"""Region proofs (z3) of foundations claims that were checked on random finite instances only
(no Theorem here). Each problem is built from the SAME formula body as the claim's terms,
evaluated in the sympy context with ``z = e^eps`` (``eps = ln z``, so ``e^{eps} = z`` and
``e^{2 eps} = z^2`` exactly), on every law of a stated small support size.

Main results
------------
- :func:`hs_events_problem` (DEF-DP claim 1), :func:`hs_curve_problem` (DEF-DP claim 2),
  :func:`group_two_problem` (DEF-DP claim 3), :func:`size_witness_problem` (DEF-DP claim 4).
- :func:`post_ratio_problem` (SMITH-POST claim 2), :func:`lap_range_problem` (BLOG-LAP claim 2),
  :func:`lap_tight_problem` (BLOG-LAP claim 1).
- :func:`ns_converse_problem` (BLOG-DEF claim 2), :func:`ns_posterior_problem`
  (SMITH-NAME-SHAME claim 2), :func:`bayes_posterior_problem` (SMITH-BAYES claim 3).

References
----------
- [GCE] V. Hartmann, V. Bindschaedler, R. West, arXiv 2209.13697 (version not recorded), Def. 1.
- [SmithLN] A. Smith, lecture notes (no arXiv): Lemma 1.6, Thm 3.1, Eq. 8, Ex. 3.3.
- [DR14] C. Dwork, A. Roth (2014, no arXiv), Thm 3.6 (Laplace).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.bayes_posterior import replace_record
from dpverify.theorems.formulas.laplace import laplace_delta
from dpverify.theorems.formulas.laplace_calibration import laplace_b, laplace_llr
from dpverify.theorems.formulas.name_and_shame import name_shame_law, name_shame_pair
from dpverify.theorems.numerics.finite import hockey_stick, hockey_stick_events, push_forward


def _problem(variables: Sequence[Any], hyps: Sequence[Any], goal: Any,
             substitutions: Sequence[str]) -> SmtProblem:
    return SmtProblem({str(v): "real" for v in variables}, tuple(hyps), goal,
                      tuple(substitutions))


def _laws(name: str, n: int, count: int = 1) -> tuple[list[tuple[Any, ...]], list[Any]]:
    """``count`` symbolic laws on ``n`` points (nonnegative, each summing to 1)."""
    import sympy as sp

    laws = [sp.symbols(f"{name}{j}_0:{n}", nonnegative=True) for j in range(count)]
    return laws, [sp.Eq(sum(law), 1) for law in laws]


def _z() -> tuple[Any, Any]:
    import sympy as sp

    z = sp.Symbol("z", positive=True)
    return z, sp.log(z)


# ==========================================================================================
# DEF-DP


def hs_events_problem(n: int) -> Callable[[], SmtProblem]:
    """``hockey_stick == hockey_stick_events`` for all laws on ``n`` points, all ``z > 0``."""

    def build() -> SmtProblem:
        ctx = SymCtx()
        z, eps = _z()
        (p, q), hyps = _laws("p", n, 2)
        goal = _eq(hockey_stick(ctx, p, q, eps), hockey_stick_events(ctx, p, q, eps))
        return _problem((z, *p, *q), hyps, goal,
                        (f"z = e^eps > 0 (every real eps); laws on {n} points",))

    return build


def _eq(a: Any, b: Any) -> Any:
    import sympy as sp

    return sp.Eq(a, b, evaluate=False)


def hs_curve_problem(n: int, prop: str) -> Callable[[], SmtProblem]:
    """One shape property of ``w -> H_w(P||Q)`` (``hockey_stick`` in the sym context with
    ``e^eps`` replaced by ``w >= 0``) for all laws on ``n`` points: ``nonincreasing``,
    ``convex``, ``affine`` (between consecutive breakpoints ``P(y)/Q(y)``) or ``ends``."""

    def build() -> SmtProblem:
        import sympy as sp

        ctx = SymCtx()
        z, eps = _z()
        (p, q), hyps = _laws("p", n, 2)
        curve = hockey_stick(ctx, p, q, eps)
        w1, w2, w = sp.symbols("w1 w2 w", nonnegative=True)

        def h(v: Any) -> Any:
            return curve.subs(z, v)

        # w1 <= w <= w2; convexity as (w2 - w1) H(w) <= (w2 - w) H(w1) + (w - w1) H(w2)
        hyps += [sp.Ge(w1, 0), sp.Le(w1, w), sp.Le(w, w2)]
        mix = (w2 - w1) * h(w)
        chord = (w2 - w) * h(w1) + (w - w1) * h(w2)
        if prop == "nonincreasing":
            goal = sp.Le(h(w2), h(w1))
        elif prop == "convex":
            goal = sp.Le(mix, chord)
        elif prop == "affine":  # no breakpoint p_i/q_i strictly between w1 and w2
            hyps += [sp.Ge((pi - w1 * qi) * (pi - w2 * qi), 0) for pi, qi in zip(p, q,
                                                                                   strict=True)]
            goal = _eq(mix, chord)
        elif prop == "ends":
            top = sp.And(*(sp.Le(pi, w1 * qi) for pi, qi in zip(p, q, strict=True)))
            goal = sp.And(_eq(h(sp.Integer(0)), 1), sp.Implies(top, _eq(h(w1), 0)))
        else:
            raise ValueError(f"unknown shape property {prop}")
        return _problem((w1, w2, w, *p, *q), hyps, goal,
                        (f"w = e^eps >= 0 replaces e^eps in hockey_stick; laws on {n} points",))

    return build


def group_two_problem(n: int) -> Callable[[], SmtProblem]:
    """Chains ``P0, P1, P2`` on ``n`` points whose consecutive pairs have both-order
    ``H_x <= d`` (``x = e^eps >= 1``): ``H_{x^2}(P0||P2) <= (1 + x) d``."""

    def build() -> SmtProblem:
        import sympy as sp

        ctx = SymCtx()
        x = sp.Symbol("x", positive=True)
        d = sp.Symbol("d", real=True)
        eps = sp.log(x)
        (p0, p1, p2), hyps = _laws("p", n, 3)
        hyps.append(sp.Ge(x, 1))
        for a, b in ((p0, p1), (p1, p0), (p1, p2), (p2, p1)):
            hyps.append(sp.Le(hockey_stick(ctx, a, b, eps), d))
        goal = sp.Le(hockey_stick(ctx, p0, p2, 2 * eps), (1 + x) * d)
        return _problem((x, d, *p0, *p1, *p2), hyps, goal,
                        (f"x = e^eps >= 1, e^(2 eps) = x^2; laws on {n} points",))

    return build


def size_witness_problem(profile: Callable[..., Any], addremove_min: Callable[..., Any],
                         max_size: int) -> Callable[[], SmtProblem]:
    """``M(x) = |x|``: the both-order profile of every replace-one pair (same size n) is 0 for
    ``z = e^eps >= 1`` and the smaller order of every add/remove pair (n, n + 1) is 1 for every
    ``z > 0``, for all sizes ``n <= max_size`` (M depends on the size only)."""

    def build() -> SmtProblem:
        import sympy as sp

        ctx = SymCtx()
        z, eps = _z()
        goals = []
        for n in range(max_size + 1):
            x, x_add = (0,) * n, (0,) * (n + 1)
            goals.append(_eq(addremove_min(ctx, x, x_add, eps), 1))
            if n >= 1:
                goals.append(sp.Implies(sp.Ge(z, 1), _eq(profile(ctx, x, x, eps), 0)))
        return _problem((z,), (), sp.And(*goals),
                        (f"z = e^eps > 0; all sizes 0..{max_size} (M(x) = |x| depends on the "
                         "size only)",))

    return build


# ==========================================================================================
# SMITH-POST, BLOG-LAP


def post_ratio_problem(n_in: int, n_out: int) -> Callable[[], SmtProblem]:
    """Full-support laws on ``n_in`` points with every ratio within ``[1/L, L]`` and every
    kernel to ``n_out`` outputs (``push_forward``): every ratio of ``BP, BQ`` is within
    ``[1/L, L]`` (so the pure level cannot grow)."""

    def build() -> SmtProblem:
        import sympy as sp

        (p, q), hyps = _laws("p", n_in, 2)
        big_l = sp.Symbol("L", positive=True)
        k = [sp.symbols(f"k{i}_0:{n_out}", nonnegative=True) for i in range(n_in)]
        hyps += [sp.Eq(sum(row), 1) for row in k]
        hyps += [sp.Gt(v, 0) for v in (*p, *q)]
        for pi, qi in zip(p, q, strict=True):
            hyps += [sp.Le(pi, big_l * qi), sp.Le(qi, big_l * pi)]
        bp, bq = push_forward(p, k), push_forward(q, k)
        goal = sp.And(*(sp.And(sp.Le(a, big_l * b), sp.Le(b, big_l * a))
                        for a, b in zip(bp, bq, strict=True)))
        return _problem((big_l, *p, *q, *itertools.chain(*k)), hyps, goal,
                        (f"L = any common bound of the ratios of (P, Q), e.g. e^(max |ln P/Q|); "
                         f"{n_in} points -> {n_out} outputs",))

    return build


def lap_range_problem() -> SmtProblem:
    """``laplace_llr`` (from the two densities, sym context, ``ln(e^u/e^v) = u - v``) times
    ``b > 0``: within ``[-s, s]``, ``= s`` on ``y <= 0`` and ``= -s`` on ``y >= s``."""
    import sympy as sp

    b, s = sp.symbols("b s", positive=True)
    y = sp.Symbol("y", real=True)
    llr = laplace_llr(SymCtx(), y, b, s)
    scaled = sp.expand(sp.simplify(sp.expand_log(sp.powsimp(llr), force=True) * b))
    if scaled.has(sp.exp, sp.log):
        raise ValueError(f"the Laplace LLR did not polynomialise: {llr}")
    goal = sp.And(sp.Le(-s, scaled), sp.Le(scaled, s),
                  sp.Implies(sp.Le(y, 0), _eq(scaled, s)),
                  sp.Implies(sp.Ge(y, s), _eq(scaled, -s)))
    return _problem((b, s, y), (), goal,
                    ("ln(e^u / e^v) = u - v; both sides times b > 0",))


def exp_abstraction(expr: Any, prefix: str = "E") -> tuple[Any, list[Any], list[Any]]:
    """Each ``e^a`` in ``expr`` replaced by a fresh ``E_j > 0`` that keeps the sign facts of
    exp (``E_j < 1, = 1, > 1`` as ``a < 0, = 0, > 0``): sound, since every real ``e^a``
    satisfies them, so a proof about the ``E_j`` is a proof about ``expr``."""
    import sympy as sp

    expr = expr.replace(lambda n: isinstance(n, sp.exp), lambda n: sp.exp(sp.expand(n.args[0])))
    hyps: list[Any] = []
    syms: list[Any] = []
    while True:
        node = next((a for a in sp.preorder_traversal(expr) if isinstance(a, sp.exp)), None)
        if node is None:
            return expr, hyps, syms
        e = sp.Symbol(f"{prefix}{len(syms)}", positive=True)
        a = node.args[0]
        hyps += [sp.Implies(sp.Lt(a, 0), sp.Lt(e, 1)), sp.Implies(sp.Gt(a, 0), sp.Gt(e, 1)),
                 sp.Implies(_eq(a, 0), _eq(e, 1))]
        expr = expr.xreplace({node: e})  # structural: subs would also rewrite e^(a/2) as E^(1/2)
        syms.append(e)


def lap_tight_problem() -> SmtProblem:
    """``STK-LAPLACE.delta(b, eps', s)`` with ``b = BLOG-LAP.b(eps, s)`` (sym context): 0 at
    ``eps' = eps`` and ``> 0`` at ``eps' = eps (1 - h)`` for every ``h > 0``."""
    import sympy as sp

    ctx = SymCtx()
    eps, s, h = sp.symbols("eps s h", positive=True)
    b = laplace_b(ctx, eps, s)
    at, hyp_at, syms_at = exp_abstraction(laplace_delta(ctx, b, eps, s), "A")
    below, hyp_below, syms_below = exp_abstraction(laplace_delta(ctx, b, eps * (1 - h), s), "B")
    goal = sp.And(_eq(at, 0), sp.Gt(below, 0))
    return _problem((eps, s, h, *syms_at, *syms_below), (*hyp_at, *hyp_below), goal,
                    ("each e^a kept as E > 0 with its sign facts (E < 1 iff a < 0, E = 1 iff "
                     "a = 0)", "eps' = eps (1 - h), h > 0 covers every eps' < eps"))


# ==========================================================================================
# BLOG-DEF, SMITH-NAME-SHAME, SMITH-BAYES


def ns_converse_problem() -> SmtProblem:
    """NS_delta0 (``name_shame_pair``, sym context) is (0, delta0)-DP in both orders, and for
    every ``x = e^eps >= 1`` its first output has ``P > (x + delta0) Q``."""
    import sympy as sp

    ctx = SymCtx()
    d = sp.Symbol("d", positive=True)
    x = sp.Symbol("x", positive=True)
    p, q = name_shame_pair(ctx, d)
    zero = sp.Integer(0)
    goal = sp.And(sp.Le(hockey_stick(ctx, p, q, zero), d), sp.Le(hockey_stick(ctx, q, p, zero), d),
                  sp.Gt(p[0], (x + d) * q[0]))
    return _problem((d, x), (sp.Lt(d, 1), sp.Ge(x, 1)), goal,
                    ("d = delta0 in (0, 1), x = e^eps >= 1",))


def ns_posterior_problem() -> SmtProblem:
    """Two records, every prior with full support on {0,1}^2, every observed output that
    publishes ``(i, default)`` (and possibly the other record), from ``name_shame_law`` in the
    sym context: the posterior puts no mass on ``x_i != default`` and some ``x`` has
    ``z p(x|a) < p_{-i}(x|a)``, for every ``z = e^{2 eps} > 0``."""
    import sympy as sp

    ctx = SymCtx()
    d, z = sp.symbols("d z", positive=True)
    prior = sp.symbols("pi0:4", positive=True)
    points = tuple(itertools.product((0, 1), repeat=2))
    goals = []
    for i, default, other_published, other_value in itertools.product((0, 1), repeat=4):
        observed = tuple(sorted({(i, default)} | ({(1 - i, other_value)} if other_published
                                                  else set())))

        def likelihood(x: tuple[int, ...], observed: Any = observed) -> Any:
            return name_shame_law(ctx, d, x).get(observed, sp.Integer(0))

        joint = [prior[t] * likelihood(x) for t, x in enumerate(points)]
        joint_i = [prior[t] * likelihood(replace_record(x, i, default))
                   for t, x in enumerate(points)]
        norm, norm_i = sum(joint), sum(joint_i)
        # posteriors joint/norm: compare cross-multiplied (both norms shown positive)
        goals += [sp.Gt(norm, 0), sp.Gt(norm_i, 0),
                  _eq(sum(joint[t] for t, x in enumerate(points) if x[i] != default), 0),
                  sp.Or(*(sp.Lt(sp.expand(z * joint[t] * norm_i), sp.expand(joint_i[t] * norm))
                          for t in range(len(points))))]
    return _problem((d, z, *prior), (sp.Lt(d, 1), sp.Eq(sum(prior), 1)), sp.And(*goals),
                    ("d = delta0 in (0, 1), z = e^(2 eps) > 0; all 16 (i, default, "
                     "other published?, other value) observations",))


def bayes_posterior_problem(n: int, outputs: int) -> SmtProblem:
    """Every mechanism on ``{0,1}^n`` with ``outputs`` outputs whose replace-one ratios are
    within ``[1/L, L]`` and every full-support prior: every posterior ratio ``p_{-i}(x|a) /
    p(x|a)`` is within ``[1/L^2, L^2]`` (the construction of SMITH-BAYES claim 3, x_i replaced
    by the default 0)."""
    import sympy as sp

    points = tuple(itertools.product((0, 1), repeat=n))
    big_l = sp.Symbol("L", positive=True)
    mech = {x: sp.symbols(f"m{''.join(map(str, x))}_0:{outputs}", positive=True)
            for x in points}
    prior = sp.symbols(f"pi0:{len(points)}", positive=True)
    hyps: list[Any] = [sp.Eq(sum(prior), 1), *(sp.Eq(sum(m), 1) for m in mech.values())]
    for x in points:
        for i in range(n):
            y = replace_record(x, i, 1 - x[i])
            hyps += [sp.Le(a, big_l * b) for a, b in zip(mech[x], mech[y], strict=True)]
    goals = []
    for i in range(n):
        for a in range(outputs):
            joint = [prior[t] * mech[x][a] for t, x in enumerate(points)]
            joint_i = [prior[t] * mech[replace_record(x, i, 0)][a] for t, x in enumerate(points)]
            norm, norm_i = sum(joint), sum(joint_i)
            for t in range(len(points)):
                num, den = joint_i[t] * norm, joint[t] * norm_i  # ratio = num/den, den > 0
                goals += [sp.Le(num, big_l**2 * den), sp.Le(den, big_l**2 * num)]
    variables = (big_l, *prior, *itertools.chain(*mech.values()))
    return _problem(variables, hyps, sp.And(*goals),
                    (f"L = e^eps bounds every replace-one ratio; {n} records, {outputs} "
                     "outputs; ratios cross-multiplied by the positive normalisers",))
