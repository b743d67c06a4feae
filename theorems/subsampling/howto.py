"""STK-HOWTO: the usage rules of amplification for accountants, with their witnesses (scheme and
relation mismatch, conversion order).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Generated, Smt, SmtProblem, Tol
from dpverify.theorems.core import Theorem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.formulas.amplification import amp_eps, relation_eps
from dpverify.theorems.formulas.subsampled_gaussian import sgm1_delta, sgm_rdp_eps
from dpverify.theorems.numerics.finite import (
    max_log_ratio,
    random_distribution,
    randomized_response,
)
from dpverify.theorems.refs import S22, cite
from dpverify.theorems.subsampling.common import FAMILY, mixture, sym


def witness_pair(ctx: Any, eps0: Any, q: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The replace-one witness: ``(mix(q, A, B), mix(q, A, B'))`` with ``A = RR(eps0)`` on the
    second output, ``B`` its mirror and ``B'`` the extreme tilt of ``A`` (B/A, B'/A within
    e^{+-eps0})."""
    z = ctx.exp(eps0)
    a = (1 / (1 + z), z / (1 + z))
    bb = (z / (1 + z), 1 / (1 + z))
    bp = (1 / (z * (1 + z)), 1 - 1 / (z * (1 + z)))
    return mixture(q, a, bb), mixture(q, a, bp)


def witness_eps(ctx: Any, eps0: Any, q: Any, **_: Any) -> Any:
    return max_log_ratio(ctx, *witness_pair(ctx, eps0, q))


def _repl_witness_problem() -> SmtProblem:
    """Every likelihood ratio of the witness pair, both orders, is <= e^{eps'_repl}, with
    equality at the first output (x = e^eps0; pair and eps'_repl from the formula bodies)."""
    import sympy as sp

    from dpverify.theorems.symbolic import exp_as_powers, strip_log

    ctx = SymCtx()
    eps0, q = sp.symbols("eps0 q", positive=True)
    x = sp.Symbol("x", positive=True)
    p, p2 = witness_pair(ctx, eps0, q)
    bound = strip_log(relation_eps(ctx, eps0, q, "replace_one"), 1)
    p, p2, (bound,) = ([sp.cancel(exp_as_powers(v, eps0, x)) for v in vs]
                       for vs in (p, p2, [bound]))
    goals = [sp.Le(a, bound * b) for a, b in zip(p, p2, strict=True)]
    goals += [sp.Le(b, bound * a) for a, b in zip(p, p2, strict=True)]
    goals.append(sp.Eq(p[0], bound * p2[0]))
    return SmtProblem({"q": "real", "x": "real"}, (sp.Gt(q, 0), sp.Le(q, 1), sp.Ge(x, 1)),
                      sp.And(*goals),
                      ("x = e^eps0 >= 1", "q in (0, 1]",
                       "e^{eps'_repl} = (1 + q(x - 1))/(1 + q(1/x - 1))"))


def _howto_claims() -> tuple[Claim, ...]:
    def draw(rng: random.Random) -> dict[str, Any]:
        return {"k": rng.randint(2, 8), "q": Fraction(rng.randint(1, 999), 1000),
                "eps0": Fraction(rng.randint(1, 300), 100)}

    def shared_eps(ctx: Any, k: int, q: Any, eps0: Any, **_: Any) -> Any:
        rr1, rr0 = randomized_response(ctx, eps0)
        p, q0 = [], []
        for out in itertools.product((0, 1), repeat=k):
            a = b = ctx.one
            for o in out:
                a, b = a * rr1[o], b * rr0[o]
            p.append((1 - q) * b + q * a)
            q0.append(b)
        return max_log_ratio(ctx, p, q0)

    def superadd_problem(k: int) -> Callable[[], SmtProblem]:
        def build() -> SmtProblem:
            y, q = sym("y", "q")
            return SmtProblem({"y": "real", "q": "real"}, (y > 1, q > 0, q < 1),
                              1 + q * (y**k - 1) > (1 + q * (y - 1)) ** k,
                              ("y = e^eps0", f"k = {k}"))
        return build

    def random_triple_eps(ctx: Any, eps0: Any, q: Any, seed: int, **_: Any) -> Any:
        rng = random.Random(seed)
        a = random_distribution(rng, rng.randint(2, 5))
        ratio = ctx.exp(eps0)
        ca = ctx.convert(a)

        def tilt() -> tuple[Any, ...]:
            # B/A in [e^-eps0, e^eps0]: B = A * w / sum(A * w), w in [e^-eps0/2, e^eps0/2]
            ws = [ctx.exp(eps0 * ctx.num(Fraction(rng.randint(0, 100), 100) - Fraction(1, 2)))
                  for _ in a]
            s = ctx.fsum(x * w for x, w in zip(ca, ws, strict=True))
            return tuple(x * w / s for x, w in zip(ca, ws, strict=True))

        del ratio
        b, bp = tilt(), tilt()
        return max_log_ratio(ctx, mixture(q, ca, b), mixture(q, ca, bp))

    repl = lambda ctx, eps0, q, **_: relation_eps(ctx, eps0, q, "replace_one")  # noqa: E731
    return (
        Claim(1, "Scheme mismatch witness: k-fold eps0-RR of one inclusion bit on one shared "
                 "Poisson subsample has exact pure eps log(1 + q(e^{k eps0} - 1)), which exceeds "
                 "k log(1 + q(e^eps0 - 1)) for k >= 2 (superadditivity, [smt] for k = 2, 3).",
              (Compare(shared_eps, "eq",
                       lambda ctx, k, q, eps0, **_: ctx.log1p(q * ctx.expm1(k * eps0)),
                       Generated(draw, 100, "k in 2..8, q, eps0"), "oracle", Tol.abs("1e-40"),
                       "exact eps of the shared subsample", "log(1 + q(e^{k eps0} - 1))",
                       part="exact eps"),
               Compare(shared_eps, "gt", lambda ctx, k, q, eps0, **_: k * amp_eps(ctx, eps0, q),
                       Generated(draw, 100, "k in 2..8, q, eps0"), "oracle",
                       lhs_name="exact eps of the shared subsample",
                       rhs_name="k log(1 + q(e^eps0 - 1))", part="superadditivity"),
               Smt(superadd_problem(2), "1 + q(y^2 - 1) > (1 + q(y - 1))^2, y > 1, 0 < q < 1",
                   part="superadditivity"),
               Smt(superadd_problem(3), "1 + q(y^3 - 1) > (1 + q(y - 1))^3, y > 1, 0 < q < 1",
                   part="superadditivity"))),
        Claim(2, "Relation mismatch: under replace-one, a pure eps0-DP base gives a per-step eps "
                 "up to STK-ADDREM-VS-REPL.eps(eps0, q, replace_one), attained by a witness "
                 "triple (A, B, B'); so an accountant configured for replace-one must report at "
                 "least this value. Random triples never exceed it. The witness part is proved "
                 "by z3 for all eps0 >= 0 and q in (0, 1] (every likelihood ratio, both orders, "
                 "<= e^{eps'_repl} with equality at the first output; x = e^eps0, the pair and "
                 "eps'_repl from the formula bodies) and searched on eps0 in [0.01, 5], q in "
                 "[0.001, 1]; the random-triple part is searched only.",
              (Compare(witness_eps, "eq", repl,
                       Box(reals={"eps0": ("0.01", "5"), "q": ("0.001", "1")},
                           log_scale=frozenset({"q"})),
                       "property", Tol.abs("1e-40"), "exact eps of the witness pair",
                       "eps'_repl", part="attained by the witness"),
               Compare(random_triple_eps, "le", repl,
                       Box(reals={"eps0": ("0.01", "5"), "q": ("0.001", "1")},
                           ints={"seed": (0, 10**6)}, log_scale=frozenset({"q"})),
                       "property", lhs_name="exact eps of a random replace-one pair",
                       rhs_name="eps'_repl", part="random triples never exceed it"),
               Smt(_repl_witness_problem, "ratios of the replace-one witness <= e^{eps'_repl}, "
                   "with equality at one output", part="attained by the witness"))),
        Claim(3, "Conversion (rule 4): an RDP-based eps is >= the exact eps: MTZ-SGM-RDP.eps at "
                 "k = 1 is >= SGM-1STEP-EXACT.eps over a box of (q, sigma, delta), checked in "
                 "the equivalent form SGM-1STEP-EXACT.delta(RDP eps) <= delta (the exact profile "
                 "is decreasing).",
              (Compare(lambda ctx, q, sigma, delta, **_: sgm1_delta(
                           ctx, q, sigma, sgm_rdp_eps(ctx, q, sigma, 1, delta)),
                       "le", lambda ctx, delta, **_: delta,
                       Box(reals={"q": ("0.001", "1"), "sigma": ("0.6", "5"),
                                  "delta": ("1e-10", "0.1")},
                           log_scale=frozenset({"q", "sigma", "delta"})),
                       "property", lhs_name="SGM-1STEP-EXACT.delta(MTZ-SGM-RDP.eps at k = 1)",
                       rhs_name="delta"),)),
    )


STK_HOWTO = Theorem(
    id="STK-HOWTO",
    title="How to use amplification (rules for accountants)",
    family=FAMILY,
    source=cite(S22, "Sec. 6.7 (content not recovered; the rules are a synthesis)"),
    types=("ALGORITHM",),
    confidence=("DERIVED",),
    statement="1. The implemented sampling scheme must match the accounted one. 2. The "
              "neighbouring relation must match. 3. Account with RDP or PLD over all steps; "
              "never amplify an already composed guarantee. 4. Use the improved conversion and a "
              "dense order grid; the final eps must be >= the exact PLD-based eps.",
    domain="accountant configurations (sampling scheme, relation, q, sigma, steps, delta)",
    claims=_howto_claims(),
    notes="The standard DP-SGD scenarios of the catalogue are the inputs of SGM-PLD-COMP claim "
          "4 and MTZ-SGM-RDP claims 1 and 6.",
)
