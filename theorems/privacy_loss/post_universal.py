"""Universal claims of STK-ADAPT-POST (issue 11), without the optional dp_accounting library:
data processing and two-step adaptive composition of Rényi divergences, searched by hypothesis
over seeded random finite instances and real orders, and proved by z3 for small sizes.

Facts relied on: ``e^{(alpha-1) D_alpha(P||Q)} = sum_y P(y)^alpha Q(y)^{1-alpha}`` ([Mir17]
arXiv 1702.07476v3, Def. 3); the push-forward of P by a Markov kernel B is ``(BP)(z) = sum_y
P(y) B(z|y)``; the transcript law of a two-step adaptive composition is ``P_1(i) P_2^{(i)}(j)``
([S22] arXiv 2210.00597v4, Sec. 4.2).
"""

from __future__ import annotations

import random
from typing import Any

from dpverify.theorems.claims import Box, SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.numerics.finite import push_forward, random_kernel, random_pair, renyi
from dpverify.theorems.privacy_loss.universal import real_vars
from dpverify.theorems.symbolic import strip_log

SEEDS = {"seed": (0, 2**31 - 1)}
ORDER_BOX = Box(ints=SEEDS, reals={"alpha": ("1.01", "40")}, log_scale=frozenset({"alpha"}))


def transcript(first: Any, second: Any) -> tuple[Any, ...]:
    """The law of (y_1, y_2) when y_1 ~ first and y_2 ~ second[y_1]."""
    return tuple(a * b for a, row in zip(first, second, strict=True) for b in row)


# ------------------------------------------------------------------------------------------
# Data processing


def seeded_kernel_instance(seed: int) -> tuple[Any, Any, Any]:
    """A random full-support pair on 2–6 outputs and a random kernel to 2–4 outputs."""
    rng = random.Random(seed)
    p, q = random_pair(rng)
    return p, q, random_kernel(rng, len(p), rng.randint(2, 4))


def processed_renyi(ctx: Any, seed: int, alpha: Any, **_: Any) -> Any:
    p, q, kernel = seeded_kernel_instance(seed)
    bp, bq = push_forward(p, kernel), push_forward(q, kernel)
    return renyi(ctx, ctx.convert(bp), ctx.convert(bq), alpha)


def input_renyi(ctx: Any, seed: int, alpha: Any, **_: Any) -> Any:
    p, q, _kernel = seeded_kernel_instance(seed)
    return renyi(ctx, ctx.convert(p), ctx.convert(q), alpha)


def data_processing_problem(alpha: int) -> SmtProblem:
    """``sum_z (BP)(z)^alpha (BQ)(z)^{1-alpha} <= sum_y P(y)^alpha Q(y)^{1-alpha}`` for every
    full-support pair on 2 outputs and every 2x2 Markov kernel with positive entries; both
    moments from :func:`renyi` in SymCtx, multiplied by their positive denominators."""
    import sympy as sp

    ctx = SymCtx()
    p1, q1, b1, b2 = sp.symbols("p1 q1 b1 b2", positive=True)
    p, q = [p1, 1 - p1], [q1, 1 - q1]
    kernel = [[b1, 1 - b1], [b2, 1 - b2]]
    a = sp.Integer(alpha)
    out = strip_log(renyi(ctx, push_forward(p, kernel), push_forward(q, kernel), a), a - 1)
    inp = strip_log(renyi(ctx, p, q, a), a - 1)
    num_out, den_out = sp.fraction(sp.together(out))
    num_in, den_in = sp.fraction(sp.together(inp))
    hyps = [sp.Lt(v, 1) for v in (p1, q1, b1, b2)] + [sp.Gt(v, 0) for v in (p1, q1, b1, b2)]
    return SmtProblem(real_vars(p1, q1, b1, b2), tuple(hyps),
                      sp.Le(sp.expand(num_out * den_in), sp.expand(num_in * den_out)),
                      (f"alpha = {alpha}", "e^{(alpha-1) D_alpha} = sum P^alpha Q^{1-alpha}",
                       "kernel rows (b1, 1 - b1), (b2, 1 - b2)",
                       "cross-multiplied by the denominators (products of powers of the Q's and "
                       "of BQ, all > 0)"))


# ------------------------------------------------------------------------------------------
# Two-step adaptive composition


def seeded_tree(seed: int) -> tuple[Any, Any, Any, Any]:
    """A random first pair on 2–3 outputs and, for each first output, a second pair."""
    rng = random.Random(seed)
    n1, n2 = rng.randint(2, 3), rng.randint(2, 3)
    p1, q1 = random_pair(rng, n1)
    second = [random_pair(rng, n2) for _ in range(n1)]
    return p1, q1, tuple(s[0] for s in second), tuple(s[1] for s in second)


def tree_transcript_renyi(ctx: Any, seed: int, alpha: Any, **_: Any) -> Any:
    p1, q1, p2, q2 = seeded_tree(seed)
    return renyi(ctx, ctx.convert(transcript(p1, p2)), ctx.convert(transcript(q1, q2)), alpha)


def tree_sum_tau(ctx: Any, seed: int, alpha: Any, **_: Any) -> Any:
    p1, q1, p2, q2 = seeded_tree(seed)
    tau1 = renyi(ctx, ctx.convert(p1), ctx.convert(q1), alpha)
    tau2 = ctx.max(*(renyi(ctx, ctx.convert(a), ctx.convert(b), alpha)
                     for a, b in zip(p2, q2, strict=True)))
    return tau1 + tau2


def adaptive_problem(alpha: int) -> SmtProblem:
    """Two steps on 2 outputs each: if every second-step moment ``e^{(alpha-1) tau_2^{(i)}}`` is
    at most ``T``, the transcript moment is at most ``e^{(alpha-1) tau_1} T`` (the exponential
    form of ``D_alpha(transcript) <= tau_1 + max_i tau_2^{(i)}``); all moments from
    :func:`renyi` in SymCtx."""
    import sympy as sp

    ctx = SymCtx()
    a = sp.Integer(alpha)
    p1, q1, t = sp.symbols("p1 q1 T", positive=True)
    u = sp.symbols("u1 u2", positive=True)  # P_2^{(i)}(first output)
    v = sp.symbols("v1 v2", positive=True)  # Q_2^{(i)}(first output)
    first_p, first_q = [p1, 1 - p1], [q1, 1 - q1]
    second_p = [[u[i], 1 - u[i]] for i in range(2)]
    second_q = [[v[i], 1 - v[i]] for i in range(2)]
    whole = strip_log(renyi(ctx, transcript(first_p, second_p), transcript(first_q, second_q),
                            a), a - 1)
    step1 = strip_log(renyi(ctx, first_p, first_q, a), a - 1)
    steps2 = [strip_log(renyi(ctx, second_p[i], second_q[i], a), a - 1) for i in range(2)]
    hyps = [sp.Gt(s, 0) for s in (p1, q1, *u, *v)] + [sp.Lt(s, 1) for s in (p1, q1, *u, *v)]
    hyps += [sp.Le(s, t) for s in steps2]
    return SmtProblem(real_vars(p1, q1, *u, *v, t), tuple(hyps), sp.Le(whole, step1 * t),
                      (f"alpha = {alpha}", "e^{(alpha-1) D_alpha} = sum P^alpha Q^{1-alpha}",
                       "T bounds every second-step moment (T = e^{(alpha-1) max tau_2})"))
