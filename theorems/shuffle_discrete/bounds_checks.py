"""Terms, SMT problems and exact cross-route terms of the closed-form shuffle bounds
(EFMRTT19, BBGN19-BLANKET, FMT21-CLONES; entries in :mod:`.shuffle_bounds`, no entries here).

The SMT problems are built from the formula bodies of
:mod:`dpverify.theorems.formulas.shuffle_bounds` evaluated in :class:`SymCtx`. The cross-claim
terms call the exact engines of FMT21-NUM and SHUFFLE-RR-EXACT
(:mod:`dpverify.theorems.formulas.shuffle_exact`), which take eps0 and eps/delta exactly: those
terms keep them unconverted (``exact_params``).
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import SmtProblem
from dpverify.theorems.ctx import SymCtx
from dpverify.theorems.errors import InvalidParameter
from dpverify.theorems.formulas import shuffle_bounds as sb
from dpverify.theorems.formulas import shuffle_exact as sx
from dpverify.theorems.symbolic import exp_as_powers, polynomial_roots
from dpverify.theorems.values import exact_params, to_ctx


def const(value: str) -> Any:
    return lambda ctx, **_: ctx.num(value)


def refused(call: Any) -> Any:
    """A predicate: True iff the evaluator refuses the point with InvalidParameter."""

    def test(ctx: Any, **point: Any) -> bool:
        try:
            call(ctx, **point)
        except InvalidParameter:
            return True
        return False

    return test


@exact_params("eps0", "delta")
def num_eps(ctx: Any, eps0: Any, n: int, delta: Any, **_: Any) -> Any:
    """FMT21-NUM.eps (the exact clone-pair bound, bisection)."""
    return sx.fmt21_num_eps(ctx, eps0, n, delta)


@exact_params("eps0", "delta")
def clones_over_num(ctx: Any, eps0: Any, n: int, delta: Any, **_: Any) -> Any:
    """FMT21-CLONES.eps / FMT21-NUM.eps: how loose the closed form is."""
    clones = sb.fmt21_eps(ctx, to_ctx(ctx, eps0), n, to_ctx(ctx, delta))
    return clones / sx.fmt21_num_eps(ctx, eps0, n, delta)


def num_delta_at_clones_over(factor: str) -> Any:
    """FMT21-NUM.delta at eps = FMT21-CLONES.eps / factor. FMT21-NUM.delta is continuous and
    nonincreasing in eps and FMT21-NUM.eps is the least eps where it reaches delta, so: a value
    <= delta means FMT21-NUM.eps <= CLONES/factor (ratio >= factor), a value > delta means
    FMT21-NUM.eps > CLONES/factor (ratio < factor). One delta evaluation, no bisection."""

    @exact_params("eps0", "delta")
    def term(ctx: Any, eps0: Any, n: int, delta: Any, **_: Any) -> Any:
        clones = sb.fmt21_eps(ctx, to_ctx(ctx, eps0), n, to_ctx(ctx, delta))
        return sx.fmt21_num_delta(ctx, eps0, n, clones / ctx.num(factor))

    return term


@exact_params("eps0", "eps")
def rr_exact_delta(ctx: Any, eps0: Any, n: int, eps: Any, k: int = 2, **_: Any) -> Any:
    """SHUFFLE-RR-EXACT.delta: the exact shuffled k-ary RR delta (a lower bound for every
    universal shuffle bound, RR being eps0-DP)."""
    return sx.shuffle_rr_delta(ctx, eps0, n, eps, k)


@exact_params("eps0", "eps")
def blanket_rr(ctx: Any, eps0: Any, n: int, eps: Any, k: int = 2, **_: Any) -> Any:
    return sb.bbgn19_delta_rr(ctx, to_ctx(ctx, eps0), k, n, to_ctx(ctx, eps))


def table(key: str, values: dict[Fraction, str]) -> Any:
    """A catalogue value per point, looked up by the exact value of parameter ``key``."""

    @exact_params(key)
    def term(ctx: Any, **point: Any) -> Any:
        return ctx.num(values[Fraction(point[key])])

    return term


def efm_round_trip_problem() -> SmtProblem:
    """``delta(eps0, n, eps(eps0, n, delta)) = delta`` from the formula bodies in SymCtx, with
    ``delta = e^{-L}`` (L > 0). The square root of ``eps`` is replaced by an auxiliary ``r0 >=
    0``, ``r0^2 = L/n`` BEFORE eps enters the delta formula (else sympy would cancel the square
    itself); the goal is the exponent of the outer exp equal to ``-L``."""
    import sympy as sp

    ctx = SymCtx()
    e0, n, big_l = sp.symbols("eps0 n L", real=True)  # real: sympy must not split the root
    eps = sb.efmrtt19_eps_value(ctx, e0, n, sp.exp(-big_l))
    hyps, eps_poly, roots = polynomial_roots(eps)
    back = sb.efmrtt19_delta_value(ctx, e0, n, eps_poly)
    if not isinstance(back, sp.exp):
        raise ValueError(f"EFMRTT19 delta is not an exponential: {back}")
    variables = {"eps0": "real", "n": "real", "L": "real"} | {str(r): "real" for r in roots}
    return SmtProblem(variables, (sp.Gt(e0, 0), sp.Gt(n, 0), sp.Gt(big_l, 0), *hyps),
                      sp.Eq(back.args[0], -big_l),
                      ("delta = e^{-L}", "r0 = sqrt(L/n)"))


GENERIC = lambda ctx, eps0, n, eps, k: sb.generic_blanket_delta(ctx, eps0, n, eps)  # noqa: E731
RR = lambda ctx, eps0, n, eps, k: sb.rr_blanket_delta(ctx, eps0, k, n, eps)  # noqa: E731
LAPLACE = lambda ctx, eps0, n, eps, k: sb.laplace_blanket_delta(ctx, eps0, n, eps)  # noqa: E731
VARIANTS = (GENERIC, RR, LAPLACE)  # indexed by the box parameter ``variant``


def monotone(ctx: Any, eps0: Any, n: int, s: Any, t: Any, k: int, variant: int,
              **_: Any) -> bool | None:
    """min(1, delta) at (eps_hi, n + 1) and at (eps_hi, n) and at (eps_lo, n): each <= the next
    (eps_lo = s eps0 < eps_hi = eps_lo + t (eps0 - eps_lo)). A value certified >= 1 makes the
    clipped comparison exact (min(1, .) = 1 on the right side)."""
    f = VARIANTS[variant]
    lo = s * eps0
    hi = lo + t * (eps0 - lo)
    chain = [f(ctx, eps0, n + 1, hi, k), f(ctx, eps0, n, hi, k), f(ctx, eps0, n, lo, k)]
    verdict: bool | None = True
    for left, right in itertools.pairwise(chain):
        if ctx.le(ctx.one, right) is True:
            continue
        step = ctx.le(left, right)
        if step is False:
            return False
        if step is None:
            verdict = None
    return verdict


CONSTANTS = {
    "delta": lambda ctx, eps0, eps, k: sb.generic_blanket_constants(ctx, eps0, eps),
    "delta_rr": lambda ctx, eps0, eps, k: sb.rr_blanket_constants(ctx, eps0, k, eps),
    "delta_laplace": lambda ctx, eps0, eps, k: sb.laplace_blanket_constants(ctx, eps0, eps),
}


def symbolic_parts(name: str, tag: str) -> tuple[Any, Any, Any, Any]:
    """The arguments of the two logs of :func:`blanket_log_parts` (``e^P = b^2/(4 a gamma)`` and
    ``e^Q - 1 = gamma (e^t - 1)``, ``t = -2a^2/b^2``) for the constants ``name``, from the formula
    bodies in SymCtx with ``z = e^{eps0/2}``, ``y = e^eps``; the remaining exponential ``e^t``
    becomes the variable ``E_tag``. Returns (e^P, e^Q - 1, E_tag, t)."""
    import sympy as sp

    ctx = SymCtx()
    w, e, k, z, y = sp.symbols("w e k z y", real=True)
    gamma, b = CONSTANTS[name](ctx, 2 * w, e, k)
    big_p, big_q = sb.blanket_log_parts(ctx, gamma, b, e)

    def powers(x: Any) -> Any:
        return exp_as_powers(exp_as_powers(x, w, z), e, y)

    p_arg, q_arg = powers(sp.exp(big_p)), powers(sp.exp(big_q) - 1)
    rest = [a for a in sp.preorder_traversal(q_arg) if isinstance(a, sp.exp)]
    if len(rest) != 1 or p_arg.has(w, e) or q_arg.has(w, e) or p_arg.has(sp.exp):
        raise ValueError(f"unexpected symbolic blanket parts: {p_arg}, {q_arg}")
    big_e = sp.Symbol(f"E_{tag}", real=True)
    return p_arg, q_arg.subs(rest[0], big_e), big_e, rest[0].args[0]


def blanket_base() -> tuple[dict[str, str], list[Any]]:
    import sympy as sp

    z, y, k = sp.symbols("z y k", real=True)
    return ({"z": "real", "y": "real", "k": "real"},
            [sp.Gt(z, 1), sp.Gt(y, 1), sp.Ge(k, 2)])


def exp_lemmas(big_e: Any, t: Any) -> list[Any]:
    """What the problems use of ``E = e^t``: ``E > 0`` and ``t < 0 => E < 1``."""
    import sympy as sp

    return [sp.Gt(big_e, 0), sp.Implies(signed(sp.Lt, t), sp.Lt(big_e, 1))]


def signed(rel: Any, expr: Any) -> Any:
    """``expr R 0`` for ``expr = N/D`` as ``N D R 0 and D != 0`` (same truth value wherever
    ``expr`` is defined, and false where it is not): a polynomial relation z3 decides faster."""
    import sympy as sp

    num, den = sp.fraction(sp.factor(sp.together(expr)))
    if den.is_number:
        return rel(num * den, 0)
    return sp.And(rel(sp.factor(num * den), 0), sp.Ne(den, 0))


def dominance_problem(other: str, part: str) -> Any:
    """Generic >= ``other`` for the P part (``b^2/(4 a gamma)``: polynomial after clearing) or
    the Q part (``gamma (E - 1)``, with ``t_g >= t_o => E_g >= E_o``: exp is increasing)."""

    def build() -> SmtProblem:
        import sympy as sp

        variables, hyps = blanket_base()
        pg, qg, eg, tg = symbolic_parts("delta", "g")
        po, qo, eo, to = symbolic_parts(other, "o")
        if part == "P":
            return SmtProblem(variables, tuple(hyps), signed(sp.Ge, pg - po),
                              ("z = e^{eps0/2}", "y = e^eps", "log is increasing: compare "
                               "b^2/(4 a gamma)"))
        variables = variables | {"E_g": "real", "E_o": "real"}
        hyps += exp_lemmas(eg, tg) + exp_lemmas(eo, to)
        hyps.append(sp.Implies(signed(sp.Ge, tg - to), sp.Ge(eg, eo)))
        return SmtProblem(variables, tuple(hyps), signed(sp.Ge, qg - qo),
                          ("z = e^{eps0/2}", "y = e^eps", "E = e^t, t = -2a^2/b^2 (exp is "
                           "increasing)", "log1p is increasing: compare gamma (E - 1)"))

    return build


def _parts_at_model(ctx: Any, name: str, z: Any, y: Any, k: Any) -> tuple[Any, Any]:
    """P and Q of the constants ``name`` at a z3 model (``eps0 = 2 log z``, ``eps = log y``)."""
    eps0, eps = 2 * ctx.log(z), ctx.log(y)
    gamma, b = CONSTANTS[name](ctx, eps0, eps, k)
    return sb.blanket_log_parts(ctx, gamma, b, eps)


def dominance_model_check(other: str, part: str) -> Any:
    """The original claim at a z3 model: True iff the generic P (or Q) is below ``other``'s
    there (a model of the relaxation with E free in its lemmas need not be one of the claim)."""
    i = 0 if part == "P" else 1

    def check(ctx: Any, z: Any, y: Any, k: Any, **_: Any) -> bool:
        generic = _parts_at_model(ctx, "delta", z, y, k)[i]
        return ctx.lt(generic, _parts_at_model(ctx, other, z, y, k)[i]) is True

    return check


def q_negative_model_check(name: str) -> Any:
    def check(ctx: Any, z: Any, y: Any, k: Any, **_: Any) -> bool:
        return ctx.le(ctx.zero, _parts_at_model(ctx, name, z, y, k)[1]) is True

    return check


def q_negative_problem(name: str) -> Any:
    def build() -> SmtProblem:
        import sympy as sp

        variables, hyps = blanket_base()
        _, q_arg, big_e, t = symbolic_parts(name, "q")
        return SmtProblem(variables | {"E_q": "real"}, tuple(hyps + exp_lemmas(big_e, t)),
                          sp.And(signed(sp.Lt, q_arg), signed(sp.Gt, q_arg + 1)),
                          ("z = e^{eps0/2}", "y = e^eps", "E = e^t, t = -2a^2/b^2",
                           "Q = log1p(gamma (E - 1)) < 0 iff -1 < gamma (E - 1) < 0"))

    return build


def log_delta(name: str, step_n: int = 0) -> Any:
    """``log delta`` at eps = s eps0 and n + step_n (the whole formula body)."""

    def term(ctx: Any, eps0: Any, s: Any, n: Any, k: Any = 2, **_: Any) -> Any:
        f = {"delta": GENERIC, "delta_rr": RR, "delta_laplace": LAPLACE}[name]
        return ctx.log(f(ctx, eps0, n + step_n, s * eps0, k))

    return term


INVERSES = (lambda ctx, eps0, n, delta, k: sb.bbgn19_eps(ctx, eps0, n, delta),
             lambda ctx, eps0, n, delta, k: sb.bbgn19_eps_rr(ctx, eps0, k, n, delta),
             lambda ctx, eps0, n, delta, k: sb.bbgn19_eps_laplace(ctx, eps0, n, delta))


def round_trip(ctx: Any, eps0: Any, n: int, delta: Any, k: int, variant: int, **_: Any) -> Any:
    eps = INVERSES[variant](ctx, eps0, n, delta, k)
    return VARIANTS[variant](ctx, eps0, n, eps, k)


def fmt_code_problem() -> SmtProblem:
    """``eps <= eps_code`` from the two formula bodies in SymCtx: both are ``log(1 + .)``, so the
    goal compares the arguments; ``eps0 = 2w``, ``z = e^w > 1``, ``L = log(4/delta) > 0``, the
    square root ``sqrt(z^2 L/n)`` an auxiliary variable. With ``y = 1 + S >= 1`` the inequality
    is ``1 + 1/(z^2 y) <= 1 + 1/z^2`` (catalogue claim 2)."""
    import sympy as sp

    ctx = SymCtx()
    w, n, d, big_l, z = sp.symbols("w n d L z", real=True)
    args = []
    for f in (sb.fmt21_eps_value, sb.fmt21_eps_code_value):
        arg = sp.exp(f(ctx, 2 * w, n, d)) - 1  # exp(log(1 + A)) - 1 = A
        arg = arg.rewrite(sp.exp).subs(sp.log(4 / d), big_l)
        args.append(exp_as_powers(sp.expand(arg), w, z))
    if any(a.has(w) for a in args):
        raise ValueError(f"exponentials of eps0 left after z = e^(eps0/2): {args}")
    hyps, diff, roots = polynomial_roots(args[1] - args[0])
    diff = sp.factor(sp.together(diff))  # exact: 64 z^2 (z^2 - 1)(n r0 + z)^2 / (...)
    variables = {"z": "real", "n": "real", "L": "real"} | {str(r): "real" for r in roots}
    return SmtProblem(variables, (sp.Gt(z, 1), sp.Gt(n, 0), sp.Gt(big_l, 0), *hyps),
                      sp.Ge(diff, 0),
                      ("eps0 = 2w, z = e^w", "L = log(4/delta)", "roots as auxiliary variables",
                       "log1p is increasing: compare the arguments A_code - A >= 0"))
