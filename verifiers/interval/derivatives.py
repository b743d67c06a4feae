"""Derivative engines of the difference ``g`` of a check, and limits on symbolic work.

:class:`_SymEngine` differentiates the sympy form of ``g`` (checked against the arb evaluation
of the terms, and each derivative against a difference quotient); :class:`_DualEngine` falls
back to :class:`~.dual.DualCtx` where sympy cannot represent a term.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import Compare
from dpverify.theorems.ctx import Interval, Unsupported, arb_precision
from dpverify.verifiers.interval.boxes import _EVAL_ERRORS, START_BITS
from dpverify.verifiers.interval.dual import Dual, DualCtx
from dpverify.verifiers.interval.enclosure import Iv, _Undecided, compile_interval

SIMPLIFY_MAX_NODES = 250  # expand (and simplify) only expressions this small (tree nodes)
MAX_DERIVATIVE_NODES = 1000  # larger derivatives evaluate slowly and loosely: not used
# sympy.simplify (of g and its first derivatives, in the order the search asks for them) is
# charged the square of the form's node count (its CPU time grows about so: 4e-5 to 1e-4 s per
# node^2 measured) and runs while the check's charges fit in this allowance: a count, so the
# evidence of a verdict (its boxes) does not depend on the machine's speed. It replaces a 1 CPU-s
# allowance and allows on every check of the catalogue what that did on this machine when idle
# (SMITH-GROUP 3/1: 5 forms of 86, 50, 66, 89, 53 nodes, 24,982; DR-CLASSIC-GAUSS 2/0: 73 and 94
# nodes, not its next one of 125, 1.7 s for a larger form)
SIMPLIFY_WORK = 25_000
SIMPLIFY_SECONDS = 4.0  # CPU-s in sympy.simplify per check: a hang guard only (catalogue: <= 1.1)
SYMPY_SECONDS = 12.0  # CPU seconds of symbolic work (building, differentiating) per check
SYMPY_STEP_SECONDS = 5.0  # CPU seconds for one symbolic operation: a hang guard, far above the
#   catalogue's largest step (DR-CLASSIC-GAUSS 2/0: one operation of 1.0-1.25 s on this machine,
#   cut at a 1 s limit, kept at 1.25 s); at 2 s the check went inconclusive in 1 of 3 CI runs
#   (CPU time grows on a loaded shared core: no symbolic enclosure, 3000 boxes undecided)


class _SympyTimeout(Exception):
    """A symbolic operation ran past its time limit."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt pure-Python sympy work after ``seconds`` of this process's CPU time (SIGPROF
    from ITIMER_PROF: the same work is cut at the same point on an idle or a loaded machine;
    main thread only; elsewhere and when a limit is already running, no new limit is set)."""
    import signal
    import threading

    if seconds <= 0:
        raise _SympyTimeout("no time left for symbolic work")
    if (threading.current_thread() is not threading.main_thread()
            or not hasattr(signal, "setitimer") or signal.getitimer(signal.ITIMER_PROF)[0] > 0):
        yield
        return

    def on_alarm(signum: int, frame: Any) -> None:
        raise _SympyTimeout(f"symbolic work took more than {seconds:.1f} s")

    previous = signal.signal(signal.SIGPROF, on_alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _size(e: Any) -> int:
    """The number of nodes of a sympy expression tree (``count_ops`` can be slow)."""
    import sympy as sp

    return sum(1 for _ in sp.preorder_traversal(e))


# expand is skipped where the estimate exceeds the size rule's limit this many times over: no
# form of the catalogue kept by the rule is estimated above 2.2 times its limit
EXPANSION_ESTIMATE_MARGIN = 4


def _expanded_size_estimate(e: Any) -> int:
    """An estimate, from the tree alone, of the node count of ``sympy.expand(e)``: products of
    sums distribute (the product of the factors' term counts), integer powers of sums by the
    multinomial count, ``exp`` of a sum splits into a product, ``log`` of a product into a sum
    (one term per factor, two for a fraction). Like terms are not collected, so cancellation
    can make the expansion smaller: it is not a bound, only a cheap way to skip expansions far
    over the limit (DR-CLASSIC-GAUSS 2/0: 244 nodes expand to 29,264 in 0.6 s; estimated
    17,308, over 4 times its limit of 508)."""
    terms, nodes = _expansion_terms(e)
    return nodes + (1 if terms > 1 else 0)


def _expansion_terms(e: Any) -> tuple[int, int]:
    """(number of terms, nodes of the terms without their ``Add``) of the expansion of ``e``."""
    import sympy as sp

    if e.is_Atom:
        return 1, 1
    if isinstance(e, sp.Add):
        parts = [_expansion_terms(a) for a in e.args]
        return sum(t for t, _ in parts), sum(s for _, s in parts)
    if isinstance(e, sp.Mul):
        parts = [_expansion_terms(a) for a in e.args]
        total = math.prod(t for t, _ in parts)
        return total, total + sum(s * (total // t) for t, s in parts)
    if isinstance(e, sp.Pow):
        tb, sb = _expansion_terms(e.base)
        if e.exp.is_Integer and tb > 1 and abs(int(e.exp)) >= 2:
            k = abs(int(e.exp))
            count = math.comb(k + tb - 1, tb - 1)
            size = count + count * k * sb // tb
            return (count, size) if e.exp > 0 else (1, size + 3)
        te, se = _expansion_terms(e.exp)
        return 1, 2 + sb + (tb > 1) + se + (te > 1)
    if isinstance(e, sp.log):
        arg = e.args[0]
        k = sum((f.p != 1) + (f.q != 1) if f.is_Rational else 1
                for f in sp.Mul.make_args(arg))
        if k > 1:
            return k, 3 * k + _expanded_size_estimate(arg)
    if isinstance(e, sp.exp):
        ta, sa = _expansion_terms(e.args[0])
        return 1, ta + sa + (ta > 1)
    return 1, 1 + sum(s + (t > 1) for t, s in map(_expansion_terms, e.args))


class _SymEngine:
    """``g`` and its partial derivatives as sympy expressions, evaluated by :func:`compile_arb`."""

    kind = "sympy"

    def __init__(self, g: Any, symbols: Mapping[str, Any],
                 base: Mapping[str, tuple[Fraction, Fraction]],
                 simplify: Callable[..., Any],
                 allowance: Callable[[], float] = lambda: SYMPY_STEP_SECONDS) -> None:
        self.allowance = allowance
        self.g = g
        self.symbols = dict(symbols)
        self.names = tuple(symbols)
        self.base = dict(base)
        self.simplify = simplify
        self._compiled: dict[Any, Callable[[Mapping[str, Iv]], Iv] | None] = {}
        self._diff: dict[tuple[Any, str], Any] = {}
        self._faces: dict[tuple[Any, frozenset[tuple[str, Fraction]]], Any] = {}
        self._factored: dict[Any, Any] = {}
        self._smooth: dict[Any, list[Callable[[Mapping[str, Iv]], Iv]] | None] = {}
        # equivalent forms of a node (sympy's raw derivative beside its expanded normal form):
        # each encloses the same function, so their enclosures are intersected
        self.alternates: dict[Any, list[Any]] = {}

    @property
    def root(self) -> Any:
        return self.g

    def _fn(self, node: Any) -> Callable[[Mapping[str, Iv]], Iv] | None:
        if node not in self._compiled:
            try:
                self._compiled[node] = compile_interval(node)
            except Unsupported:
                self._compiled[node] = None
        return self._compiled[node]

    def _face_node(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]]) -> Any:
        """On a face of the whole region (a variable at its region end) substitute it exactly:
        sympy then cancels what is identically zero there (``g = 0`` at ``q = 0``)."""
        ends = frozenset((n, lo) for n, (lo, hi) in box.items()
                         if lo == hi and lo in self.base[n])
        if not ends:
            return node
        key = (node, ends)
        if key not in self._faces:
            import sympy as sp

            sub = {self.symbols[n]: sp.Rational(v.numerator, v.denominator) for n, v in ends}
            try:
                with _time_limit(self.allowance()):
                    self._faces[key] = self.simplify(node.subs(sub))
            except Exception:  # sympy failed or timed out on the substitution: keep the node
                self._faces[key] = node
        return self._faces[key]

    def enclose(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]],
                prec: int) -> Iv | None:
        out = self._enclose_form(node, box, prec)
        for alt in self.alternates.get(node, ()):
            v = self._enclose_form(alt, box, prec)
            if v is not None and v.is_finite():
                out = v if out is None or not out.is_finite() else out.meet(v)
        return out

    def _enclose_form(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]],
                      prec: int) -> Iv | None:
        fn = self._fn(self._face_node(node, box))
        if fn is None:
            fn = self._fn(node)
        if fn is None:
            return None
        with arb_precision(prec):
            env = {n: Iv.exact(lo, hi) for n, (lo, hi) in box.items()}
            try:
                v = fn(env)
            except (_Undecided, *_EVAL_ERRORS):
                return None
        return v if isinstance(v, Iv) else None

    def deriv(self, node: Any, name: str) -> Any:
        key = (node, name)
        if key not in self._diff:
            import sympy as sp

            try:
                with _time_limit(self.allowance()):
                    raw = sp.diff(node, self.symbols[name])
                    d = (None if _size(raw) > MAX_DERIVATIVE_NODES
                         else self.simplify(raw, node is self.g))
            except Exception:  # sympy failed or timed out: no derivative information
                d = None
            if d is not None and (d.has(sp.Derivative, sp.Subs)
                                  or _size(d) > MAX_DERIVATIVE_NODES or self._fn(d) is None
                                  or not self._consistent(node, d, name)):
                d = None
            if (d is not None and raw != d and not raw.has(sp.Derivative, sp.Subs)
                    and _size(raw) <= MAX_DERIVATIVE_NODES and self._fn(raw) is not None
                    and self._consistent(node, raw, name)):
                # expanding splits a quotient into terms whose enclosures wrap: keep both
                self.alternates.setdefault(d, []).append(raw)
            self._diff[key] = d
        return self._diff[key]

    def smooth(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]]) -> bool:
        """May derivatives of ``node`` be used on ``box``? Only where it is continuous: no
        step functions, and every ``Piecewise`` branch decided on the whole box (sympy drops
        the conditions of a ``Piecewise`` whose branches have equal derivatives, so a jump
        would otherwise go unseen)."""
        import sympy as sp

        if node not in self._smooth:
            if node.has(sp.Heaviside, sp.sign, sp.floor, sp.ceiling, sp.frac, sp.DiracDelta):
                self._smooth[node] = None
            else:
                pieces = [p for p in sp.preorder_traversal(node) if isinstance(p, sp.Piecewise)]
                try:
                    self._smooth[node] = [compile_interval(p, True) for p in pieces]
                except Unsupported:
                    self._smooth[node] = None
        checks = self._smooth[node]
        if checks is None:
            return False
        if not checks:
            return True
        env = {n: Iv.exact(lo, hi) for n, (lo, hi) in box.items()}
        try:
            with arb_precision(START_BITS):
                for f in checks:
                    f(env)
        except (_Undecided, *_EVAL_ERRORS):
            return False
        return True

    def factored(self, node: Any) -> Any:
        """``node`` as a product (sums factored by sympy), or None if it is not one."""
        if node not in self._factored:
            import sympy as sp

            out = None
            if isinstance(node, sp.Mul | sp.Pow | sp.exp):
                out = node
            elif isinstance(node, sp.Add) and _size(node) <= SIMPLIFY_MAX_NODES // 2:
                # square-free factorisation (gcd-based, cheap) of a small polynomial in few
                # generators: full factorisation can take minutes
                try:
                    with _time_limit(self.allowance()):
                        poly = sp.Poly(node)
                        small = len(poly.gens) <= 3 and poly.total_degree() <= 8
                        f = sp.sqf(node) if small else None
                except Exception:  # not a polynomial, or too slow: no structural sign
                    f = None
                if isinstance(f, sp.Mul | sp.Pow) and self._fn(f) is not None:
                    out = f
            self._factored[node] = out
        return self._factored[node]

    def _consistent(self, node: Any, d: Any, name: str) -> bool:
        """A safeguard on sympy's derivative (not a source of rigour): by the mean-value
        theorem the difference quotient of ``node`` over ``[x, x + h]`` lies in the range of
        ``d`` over that segment, so the two enclosures must overlap."""
        for t in (Fraction(3, 10), Fraction(2, 3)):
            pt = {n: lo + t * (hi - lo) for n, (lo, hi) in self.base.items()}
            lo, hi = self.base[name]
            h = (hi - lo) / 1024
            if h == 0:
                return True
            x = pt[name]
            left = {n: (v, v) for n, v in pt.items()}
            right = dict(left)
            right[name] = (x + h, x + h)
            seg = dict(left)
            seg[name] = (x, x + h)
            a, b = self.enclose(node, left, START_BITS), self.enclose(node, right, START_BITS)
            dv = self.enclose(d, seg, START_BITS)
            if a is None or b is None or dv is None:
                continue
            with arb_precision(START_BITS):
                q = ((b - a) / Iv.exact(h, h)).ball()
            if q.is_finite() and dv.is_finite() and not q.overlaps(dv.ball()):
                return False
        return True


class _DualEngine:
    """``g`` and its gradient by forward-mode AD (first derivatives only)."""

    kind = "dual"
    root = "g"

    def __init__(self, check: Compare, ints: Mapping[str, int], fixed: Mapping[str, Any],
                 names: tuple[str, ...]) -> None:
        self.check = check
        self.ints = dict(ints)
        self.fixed = dict(fixed)
        self.names = names
        self._cache: dict[tuple[Any, ...], Dual | None] = {}

    def _eval(self, box: Mapping[str, tuple[Fraction, Fraction]], prec: int) -> Dual | None:
        key = (prec, *((n, *box[n]) for n in self.names))
        if key in self._cache:
            return self._cache[key]
        if len(self._cache) > 64:
            self._cache.clear()
        ctx = DualCtx(prec, self.names)
        params: dict[str, Any] = {n: Interval(lo, hi) for n, (lo, hi) in box.items()}
        params.update(self.ints)
        params.update(self.fixed)
        try:
            lhs = Dual.lift(ctx.run(self.check.lhs, **params))
            rhs = Dual.lift(ctx.run(self.check.rhs, **params))
            out: Dual | None = rhs - lhs if self.check.op in ("le", "lt") else lhs - rhs
        except (_Undecided, *_EVAL_ERRORS):
            out = None
        self._cache[key] = out
        return out

    def enclose(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]],
                prec: int) -> Iv | None:
        g = self._eval(box, prec)
        if g is None:
            return None
        if node == "g":
            return Iv.of(g.v)
        return Iv.of(g.d.get(node[1], flint.arb(0)))

    def deriv(self, node: Any, name: str) -> Any:
        return ("d", name) if node == "g" else None

    def smooth(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]]) -> bool:
        return True  # DualCtx raises on a branch undecided over the box
