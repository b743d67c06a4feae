"""Symbolic rewriting for the SMT problems that claims build from a formula's sympy form.

z3 takes polynomial problems: these turn the sympy expressions that a formula body produces in
the ``sym`` context into that form — exponentials of ``eps`` as powers of ``x = e^eps``, square
roots as auxiliary variables, a Rényi ``log(S)/(alpha - 1)`` back into its moment ``S``.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any


def strip_log(expr: Any, scale: Any) -> Any:
    """``exp(scale * expr)`` simplified: turns ``log(S)/(alpha - 1)`` (a Rényi divergence or an
    RDP curve evaluated in SymCtx) into the moment ``S`` for a numeric alpha, as a cancelled,
    factored rational expression (sympy's ``factor(cancel(.))``; ``simplify`` gave the same
    smt goals for every catalogue use but STK-ADAPT-POST 2/2, at twice the cost)."""
    import sympy as sp

    return sp.factor(sp.cancel(sp.powsimp(sp.expand_log(sp.exp(scale * expr), force=True))))


# the seed of sympy's generators while an SMT problem is built (any fixed value: a build's
# result does not depend on it, its cost does)
SYMPY_SEED = 0


@contextlib.contextmanager
def sympy_random_fixed(seed: int = SYMPY_SEED) -> Iterator[None]:
    """Within: sympy's random generators (``sympy.core.random``: the evaluation points of
    Wang's multivariate factorization, the order of assumption queries) seeded with ``seed``;
    their states are restored on exit, also on an exception. A factorization is unique, so
    what is built is the same with any seed, but its cost is not: unseeded, the generators
    start from the operating system's entropy, and one process in some tens drew the points
    that made a factorization take seconds instead of milliseconds (DLAP 7/5: 32 s of CPU in
    a run of main, 1.5 s in most)."""
    from sympy.core import random as sympy_random

    saved = (sympy_random.rng.getstate(), sympy_random._assumptions_rng.getstate())
    sympy_random.seed(seed)
    try:
        yield
    finally:
        sympy_random.rng.setstate(saved[0])
        sympy_random._assumptions_rng.setstate(saved[1])


# a Max/Min argument of at most this many nodes is still compared with the numbers among the
# arguments by extrema_unreduced: Max(0, t) of a nonnegative symbol t is t (builders rely on
# such reductions), and the comparison is cheap
SMALL_EXTREMUM_ARGUMENT = 12


def _small(expr: Any) -> bool:
    import sympy as sp

    for n, _ in enumerate(sp.preorder_traversal(expr), 1):
        if n > SMALL_EXTREMUM_ARGUMENT:
            return False
    return True


# how many extrema_unreduced() are active (a Max/Min built within may differ from one without)
_extrema_unreduced_depth = 0


@contextlib.contextmanager
def extrema_unreduced() -> Iterator[None]:
    """Within: sympy's ``Max``/``Min`` compare each argument with the numbers among the
    arguments only, and only when it is small (at most :data:`SMALL_EXTREMUM_ARGUMENT`
    nodes), instead of comparing every pair of arguments (``_find_localzeros``: an assumption
    query on ``x - y`` per pair, most of the time of an SMT problem build whose formula takes
    maxima of many or of large rational functions, paid again each time a rewrite —
    ``replace``, ``subs``, ``expand`` — rebuilds the maximum from new arguments). An argument
    kept that sympy would have dropped is never the extremum, so it leaves the same function
    (``max(a, b) = a`` when ``a >= b``): a problem built within is equivalent to the one built
    without; z3 takes either (one ``If`` per argument). Numbers are still reduced to the
    extreme one (``Max(1, 2) = 2``), a small argument against it (``Max(0, t) = t`` for
    ``t >= 0``), and sympy's other reductions (flattening, the zero and identity, ``Max(x,
    Min(x, y)) = x``) still apply. Process-local; restored on exit, also on an exception;
    nests. sympy's cache is kept (clearing it cost more than the comparisons saved): a result
    cached within (``expand`` of an expression with a ``Max``) may carry a kept argument into
    later work of the process, which is again the same function."""
    from sympy.functions.elementary.miscellaneous import MinMaxBase

    saved = MinMaxBase.__dict__["_find_localzeros"]
    compare = saved.__func__

    def against_numbers(cls: Any, values: Any, **options: Any) -> set[Any]:
        numbers = [v for v in values if v.is_number]
        rest = [v for v in values if not v.is_number]
        if not numbers:
            return set(rest)
        extreme = set(compare(cls, numbers, **options))
        kept: set[Any] = set()
        dominated: set[Any] = set()  # numbers that a kept argument dominates
        for v in rest:  # each against the extreme number: the same outcome in any order
            if _small(v):
                both = _against_number(compare, cls, extreme, v, options)
                if v not in both:  # dominated by the number
                    continue
                dominated |= extreme - both
            kept.add(v)
        return kept | (extreme - dominated)

    global _extrema_unreduced_depth
    MinMaxBase._find_localzeros = classmethod(against_numbers)
    _extrema_unreduced_depth += 1
    try:
        yield
    finally:
        MinMaxBase._find_localzeros = saved
        _extrema_unreduced_depth -= 1


# the outcomes of comparing a small Max/Min argument with a number: a pure function of the two
# (symbols compare with their assumptions), asked again each time a rewrite rebuilds the extremum
# (the catalogue's 340 smt builds in one process: 1016 comparisons, 377 distinct)
_COMPARISONS: dict[tuple[Any, ...], frozenset[Any]] = {}
_COMPARISONS_LIMIT = 20_000


def _against_number(compare: Any, cls: Any, extreme: set[Any], v: Any,
                    options: dict[str, Any]) -> set[Any]:
    """``set(compare(cls, [*extreme, v], **options))``, memoised when ``extreme`` is one
    number (the order of several would matter)."""
    if len(extreme) != 1:
        return set(compare(cls, [*extreme, v], **options))
    key = (cls, *extreme, v, tuple(sorted(options.items())))
    out = _COMPARISONS.get(key)
    if out is None:
        if len(_COMPARISONS) >= _COMPARISONS_LIMIT:
            _COMPARISONS.clear()
        out = _COMPARISONS[key] = frozenset(compare(cls, [*extreme, v], **options))
    return set(out)


# the answers of the sympy functions memoised within sympy_memoised, by function, arguments and
# the global state that they depend on (the catalogue's 340 smt builds in one process: 11591
# comparisons is_ge, 2778 distinct; 17665 sign estimates _monotonic_sign, 2205 distinct; 7319
# expand, 938 distinct; 1003 cancel, 357; 632 factor, 215; 619 together, 208; 487 fraction, 111;
# 127 powsimp, 100; 90 expand_log, 66; 36 expand_power_exp, 19; 25 simplify, 14)
_MEMO: dict[tuple[Any, ...], Any] = {}
_MEMO_LIMIT = 50_000

# the rewrites memoised as they are called from a build (``sp.cancel(...)``: an attribute of the
# sympy package); sympy's own calls of them are not
MEMOISED_REWRITES = ("cancel", "expand", "expand_log", "expand_power_exp", "factor", "fraction",
                     "powsimp", "simplify", "together")


@contextlib.contextmanager
def sympy_memoised() -> Iterator[None]:
    """Within: sympy's comparison of two expressions (``sympy.core.relational.is_ge``, behind
    ``>=``, ``<=``, ``>``, ``<``, building an inequality and comparing ``Max``/``Min``
    arguments), its equality test (``is_eq``, behind building an ``Eq``), its sign estimate of
    a sum (``sympy.core.exprtools._monotonic_sign``, behind ``is_positive`` of an ``Add``) and
    the rewrites :data:`MEMOISED_REWRITES` called as ``sympy.<name>`` answer a repeated call
    from a memo. sympy keeps an assumption on the object asked only, and a build asks again
    about equal expressions rebuilt as new objects, and rewrites them again (most of an SMT
    problem build: the catalogue's smt builds in one process, 17.0-18.6 s of CPU without the
    memo, 13.7-14.7 s with it). Each is a pure function of its arguments (symbols compare with their
    assumptions; a factorization is unique, whatever points sympy's random generator draws) and
    of the global state that the memo's key includes: sympy's ``evaluate`` and ``distribute``
    flags and whether :func:`extrema_unreduced` is active; arguments are compared with their
    types (``2`` and ``2.0`` are equal in Python); a comparison with an ``assumptions``
    argument (the new assumptions system) or a call with an unhashable argument is not
    memoised, and an exception is never stored. So a build within returns the same expressions
    as without (tests/test_smt.py; the catalogue's 340 smt problems compared by ``srepr`` and by
    the SMT-LIB text z3 gets). A ``_monotonic_sign`` answer may be a ``Dummy`` standing for the
    sign: a repeated question gets the same ``Dummy`` instead of a new one, which its callers
    use only for its sign. Process-local; restored on exit, also on an exception; nests. The
    memo is kept across uses (emptied past :data:`_MEMO_LIMIT` answers)."""
    import sympy
    from sympy.core import exprtools, relational

    if getattr(relational.is_ge, "memoised", False):  # nested: the outer memo is in place
        yield
        return
    saved = (relational.is_ge, relational.is_eq, exprtools._monotonic_sign,
             *(getattr(sympy, name) for name in MEMOISED_REWRITES))
    is_ge, is_eq, monotonic_sign = saved[:3]

    def memo_is_ge(lhs: Any, rhs: Any, assumptions: Any = None) -> Any:
        if assumptions is not None:
            return is_ge(lhs, rhs, assumptions)
        return _memoised(is_ge, "is_ge", (lhs, rhs), {})

    def memo_is_eq(lhs: Any, rhs: Any, assumptions: Any = None) -> Any:
        if assumptions is not None:
            return is_eq(lhs, rhs, assumptions)
        return _memoised(is_eq, "is_eq", (lhs, rhs), {})

    def memo_monotonic_sign(expr: Any) -> Any:
        return _memoised(monotonic_sign, "_monotonic_sign", (expr,), {})

    def memo_rewrite(name: str, rewrite: Any) -> Any:
        @functools.wraps(rewrite)
        def memo(*args: Any, **options: Any) -> Any:
            return _memoised(rewrite, name, args, options)

        return memo

    memos = (memo_is_ge, memo_is_eq, memo_monotonic_sign,
             *(memo_rewrite(name, f) for name, f in zip(MEMOISED_REWRITES, saved[3:],
                                                        strict=True)))
    for f in memos:
        f.memoised = True  # type: ignore[attr-defined]
    relational.is_ge, relational.is_eq, exprtools._monotonic_sign = memos[:3]
    for name, f in zip(MEMOISED_REWRITES, memos[3:], strict=True):
        setattr(sympy, name, f)
    try:
        yield
    finally:
        relational.is_ge, relational.is_eq, exprtools._monotonic_sign = saved[:3]
        for name, f in zip(MEMOISED_REWRITES, saved[3:], strict=True):
            setattr(sympy, name, f)


def _memoised(function: Any, name: str, args: tuple[Any, ...], options: dict[str, Any]) -> Any:
    """``function(*args, **options)``, from :data:`_MEMO` when called before with equal
    arguments of the same types in the same global state."""
    from sympy.core.parameters import global_parameters

    key = (name, tuple((type(a), a) for a in args),
           tuple(sorted((k, type(v), v) for k, v in options.items())),
           global_parameters.evaluate, global_parameters.distribute,
           _extrema_unreduced_depth > 0)
    try:
        return _MEMO[key]
    except KeyError:
        pass
    except TypeError:  # an unhashable argument: not memoised
        return function(*args, **options)
    out = function(*args, **options)
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[key] = out
    return out


def over_common_denominator(expr: Any) -> tuple[Any, Any]:
    """``(N, D)`` with ``expr = N/D``: a sum of terms ``n_i/d_i`` over ``D``, the product of the
    symbolic factors of the ``d_i``, each at its highest power (the denominator that
    ``sympy.together`` forms, which spends its time in ``gcd_terms``: 2.6 s of the 3.8 s of
    the SMITH-ADAPT-COMP problems), ``N = sum_i n_i D/d_i`` unexpanded. Falls back to
    ``sympy.fraction(sympy.together(expr))`` when a denominator has a numeric factor."""
    import sympy as sp

    parts = [term.as_numer_denom() for term in sp.Add.make_args(sp.sympify(expr))]
    highest: dict[Any, Any] = {}
    powers = []
    for _, den in parts:
        dp = den.as_powers_dict()
        if any(base.is_number or not exp.is_Integer or exp < 0 for base, exp in dp.items()):
            return sp.fraction(sp.together(expr))
        powers.append(dp)
        for base, exp in dp.items():
            highest[base] = max(highest.get(base, 0), exp)
    num = sp.Add(*(n * sp.Mul(*(b**(e - dp.get(b, 0)) for b, e in highest.items()))
                   for (n, _), dp in zip(parts, powers, strict=True)))
    return num, sp.Mul(*(b**e for b, e in highest.items()))


def polynomial_roots(expr: Any, prefix: str = "r") -> tuple[tuple[Any, ...], Any, list[Any]]:
    """Replace each square root in ``expr`` by a fresh variable ``r_i >= 0`` with ``r_i^2`` its
    radicand; returns the hypotheses, the expression and the new symbols."""
    import sympy as sp

    hyps: list[Any] = []
    syms: list[Any] = []
    while True:  # innermost roots first: a radicand may contain another root
        roots = [a for a in sp.postorder_traversal(expr)
                 if isinstance(a, sp.Pow) and a.exp == sp.Rational(1, 2)]
        if not roots:
            return tuple(hyps), expr, syms
        root = roots[0]
        r = sp.Symbol(f"{prefix}{len(syms)}", real=True)
        expr = expr.subs(root, r)
        hyps += [sp.Ge(r, 0), sp.Eq(r**2, root.base)]
        syms.append(r)


def exp_as_powers(expr: Any, var: Any, sym: Any) -> Any:
    """Each ``e^{k var + rest}`` with rational ``k`` written as ``sym^k e^{rest}`` (``sym =
    e^var``); other exponentials are left as they are."""
    import sympy as sp

    def repl(node: Any) -> Any:
        arg = sp.expand(node.args[0])
        k = arg.coeff(var)
        rest = sp.expand(arg - k * var)
        if rest.has(var) or not sp.sympify(k).is_Rational:
            return node
        return sym**k * sp.exp(rest)

    return sp.sympify(expr).replace(lambda n: isinstance(n, sp.exp) and n.has(var), repl)


def exp_to_power(expr: Any, var: Any, sym: Any) -> Any:
    """``e^{k var + rest}`` -> ``sym^k e^{rest}`` (``sym = e^var``, rational k), then a rational
    function of ``sym`` (also the core of the smt verifier's ``substitute_exp``). Raises
    :class:`ValueError` if an exponential of ``var`` remains."""
    import sympy as sp

    out = sp.factor(sp.cancel(sp.together(exp_as_powers(expr, var, sym))))
    if any(isinstance(n, sp.exp) and n.has(var) for n in sp.preorder_traversal(out)):
        raise ValueError(f"cannot write {expr} as a rational function of {sym} = e^{var}")
    return out


def exp_relations(expr: Any, var: Any, sym: Any) -> Any:
    """Each relation ``lhs R rhs`` that involves ``var`` or a logarithm rewritten as
    ``e^{lhs - rhs} R 1`` (exp is strictly increasing), expanded so that ``e^{log(u) + k var}``
    becomes ``u sym^k`` (``sym = e^var``): turns the branch conditions of a formula written with
    logarithms (an inverse CDF) into polynomial ones."""
    import sympy as sp

    def repl(rel: Any) -> Any:
        moved = exp_as_powers(sp.expand(sp.exp(rel.lhs - rel.rhs), power_exp=True), var, sym)
        return type(rel)(moved, 1)

    return sp.sympify(expr).replace(
        lambda n: isinstance(n, sp.core.relational.Relational) and (n.has(sp.log) or n.has(var)),
        repl)


@functools.lru_cache(maxsize=512, typed=True)
def clear_denominators(expr: Any) -> Any:
    """A piecewise rational expression in a form z3 decides quickly: nested ``Piecewise`` folded,
    each relation ``lhs R rhs`` written ``N R 0`` (or ``0 R N``) where ``(lhs - rhs) = N/D``
    with ``D`` of a sign sympy proves from the symbols' assumptions, and each rational piece
    cancelled (a common factor is removed, as everywhere in sympy: the form is equal wherever
    the original is defined). Memoised: a pure function of an immutable expression (symbols
    compare with their assumptions), and the SMT problems of one theorem clear the same
    relations again (DRS-SUBSAMPLE: 131 calls, 52 distinct)."""
    import sympy as sp

    def relation(rel: Any) -> Any:
        num, den = _numerator_denominator(rel.lhs - rel.rhs)
        if den.is_positive:
            return type(rel)(num, 0)
        if den.is_negative:
            return type(rel)(0, num)
        return rel

    out = sp.piecewise_fold(sp.sympify(expr))
    out = out.replace(lambda n: isinstance(n, sp.core.relational.Relational), relation)
    return _cancel_rational_pieces(out)


def _numerator_denominator(expr: Any) -> tuple[Any, Any]:
    """``sympy.fraction(sympy.factor(sympy.cancel(sympy.together(expr))))`` with the numerator
    expanded, without factoring the numerator when both parts of the cancelled fraction are
    polynomials (in their symbols and other atoms, e.g. ``Max(...)``, the generators ``factor``
    takes): only the denominator's factors decide a sign, and the expanded numerator is
    fixed by the contents and the sign of the leading coefficient (``factor`` makes every
    factor primitive with a positive leading coefficient and moves the rest into one rational
    coefficient, whose numerator ``fraction`` puts above the line and its denominator below).
    Factoring a large multivariate numerator is most of the cost of a relation, and Wang's
    algorithm draws its evaluation points from sympy's unseeded generator: DLAP 7/5 took
    1.5 s to build in most processes, 7 to more than 12 s in about one in six."""
    import sympy as sp

    num, den = sp.fraction(sp.cancel(sp.together(expr)))
    try:  # polynomials in their symbols and other atoms (Max(...), sqrt(...)), as factor sees them
        if (num.is_number or (den.is_number and not den.is_Rational)
                or num.has(sp.zoo, sp.nan, sp.oo, -sp.oo)):
            raise sp.PolynomialError("a numeric numerator, an irrational denominator, an infinity")
        num_content, num_primitive = sp.expand(num).as_content_primitive()
        sp.Poly(num_primitive)
        if den.is_number:
            den_content, den_primitive, den_sign = abs(den), sp.S.One, sp.sign(den)
        else:
            den_content, den_primitive = sp.expand(den).as_content_primitive()
            den_sign = sp.sign(sp.Poly(den_primitive).LC())
    except sp.PolynomialError:  # sympy's factor, as before (cheap for a number)
        num, den = sp.fraction(sp.factor(sp.cancel(sp.together(expr))))
        return sp.expand(num), den
    coefficient = sp.Rational(num_content) / sp.Rational(den_content)
    numerator = sp.expand(den_sign * coefficient.p * num_primitive)
    return numerator, den_sign * coefficient.q * sp.factor(den_primitive)


def _cancel_rational_pieces(expr: Any) -> Any:
    """``expr.replace(query, lambda n: factor(cancel(n)))`` for the sums and products ``n``
    without ``Piecewise``, ``Max``, ``Min`` (sympy's replace: children first, then the node
    rebuilt from them), except that a node that is a rational function of its symbols is
    cancelled at once: ``factor(cancel(.))`` is sympy's canonical form of the rational
    function (reduced, numerator and denominator expanded, then factored), so cancelling its
    subterms first gives the same expression (tests/test_smt.py) at the cost of many more
    cancellations (clear_denominators on DLAP's problems: 3/4 of its ``cancel`` calls)."""
    import sympy as sp

    def query(n: Any) -> bool:
        return isinstance(n, sp.Add | sp.Mul) and not n.has(sp.Piecewise, sp.Max, sp.Min)

    def walk(n: Any) -> Any:
        if query(n) and _rational_in_symbols(n):
            return sp.factor(sp.cancel(n))
        if n.args:
            new = tuple(walk(a) for a in n.args)
            if new != n.args:
                n = n.func(*new)
        return sp.factor(sp.cancel(n)) if query(n) else n

    return walk(expr)


def _rational_in_symbols(expr: Any) -> bool:
    """Built from symbols and rationals by ``+``, ``*`` and integer powers only."""
    import sympy as sp

    for n in sp.preorder_traversal(expr):
        if isinstance(n, sp.Pow):
            if not n.exp.is_Integer:
                return False
        elif not (isinstance(n, sp.Add | sp.Mul | sp.Symbol) or n.is_Rational):
            return False
    return True


def eval_in_ctx(expr: Any, ctx: Any, values: dict[str, Any]) -> Any:
    """Evaluate a sympy expression built from ``+ * ^``, rationals, ``pi``, ``exp``, ``log``,
    ``erfc`` and square roots in a formula context (exact rationals stay exact: ``ctx.num`` of a
    Fraction, never a float); raises ValueError on any other node."""
    from fractions import Fraction

    import sympy as sp

    def ev(e: Any) -> Any:
        if isinstance(e, sp.Symbol):
            return values[e.name]
        if isinstance(e, sp.Rational):  # Integer included
            return ctx.num(Fraction(int(e.p), int(e.q)))
        if e is sp.pi:
            return ctx.pi
        if isinstance(e, sp.Add):
            return ctx.fsum(ev(a) for a in e.args)
        if isinstance(e, sp.Mul):
            out = ev(e.args[0])
            for a in e.args[1:]:
                out = out * ev(a)
            return out
        if isinstance(e, sp.Pow):
            base, exp = e.args
            if exp == sp.Rational(1, 2):
                return ctx.sqrt(ev(base))
            if exp == -sp.Rational(1, 2):
                return 1 / ctx.sqrt(ev(base))
            if isinstance(exp, sp.Integer):
                b = ev(base)
                return b ** int(exp) if int(exp) >= 0 else 1 / b ** (-int(exp))
            return ctx.pow(ev(base), ev(exp))
        if isinstance(e, sp.exp):
            return ctx.exp(ev(e.args[0]))
        if isinstance(e, sp.log):
            return ctx.log(ev(e.args[0]))
        if isinstance(e, sp.erfc):
            return ctx.erfc(ev(e.args[0]))
        raise ValueError(f"cannot evaluate {type(e).__name__} in a formula context: {e}")

    return ev(sp.sympify(expr))


def partial_derivative(formula: Any, names: tuple[str, ...], var: str, sym_ctx: Any) -> Any:
    """``d formula/d var`` from the formula body: evaluated in ``sym_ctx()`` (the SymCtx class,
    passed in because this layer sits below the contexts) at real symbols, differentiated by
    sympy, exponentials combined and their exponents expanded (so equal Gaussian densities
    written two ways cancel exactly), then evaluated in any context by :func:`eval_in_ctx`.
    Returns the derivative as a term ``(ctx, **point) -> number``."""
    from functools import cache

    @cache
    def expression() -> Any:  # built on first use, not at import
        import sympy as sp

        symbols = {n: sp.Symbol(n, real=True) for n in names}
        expr = sp.diff(formula(sym_ctx(), **symbols), symbols[var])
        expr = sp.expand(sp.powsimp(sp.expand(expr), combine="exp"))
        expr = expr.replace(lambda n: isinstance(n, sp.exp),
                            lambda n: sp.exp(sp.expand(n.args[0])))
        return sp.expand(sp.powsimp(expr, combine="exp"))

    def term(ctx: Any, **point: Any) -> Any:
        return eval_in_ctx(expression(), ctx, {n: point[n] for n in names})

    term.expression = expression  # type: ignore[attr-defined]
    return term
