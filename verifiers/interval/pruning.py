"""Monotonicity pruning and the mean-value form over a sub-box.

If a partial derivative of ``g`` has a certified sign on the sub-box, the minimum of ``g`` lies
on one face and the interval of that parameter is replaced by the endpoint; on what remains,
``g(c) + sum_i g_i(B) (B_i - c_i)`` encloses ``g`` (intersected with the natural enclosure).
:func:`smear` scores the sides of a sub-box for splitting. :class:`_Pruner` chooses the
derivative engine of each integer assignment.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.claims import Box, Compare
from dpverify.theorems.ctx import ArbCtx, SymCtx, arb_precision
from dpverify.theorems.symbolic import extrema_unreduced
from dpverify.verifiers.interval.boxes import _EVAL_ERRORS, START_BITS
from dpverify.verifiers.interval.derivatives import (
    EXPANSION_ESTIMATE_MARGIN,
    MAX_DERIVATIVE_NODES,
    SIMPLIFY_MAX_NODES,
    SIMPLIFY_SECONDS,
    SIMPLIFY_WORK,
    SYMPY_SECONDS,
    SYMPY_STEP_SECONDS,
    _DualEngine,
    _expanded_size_estimate,
    _size,
    _SymEngine,
    _time_limit,
)
from dpverify.verifiers.interval.enclosure import Iv


def _sign(v: Iv | None, sense: int, strict: bool) -> bool | None:
    """Is ``sense * v >= 0`` (``> 0`` if strict) everywhere (True), violated everywhere
    (False), or undecided (None)?"""
    if v is None or not v.is_finite():
        return None
    w = v if sense > 0 else -v
    if strict:
        return True if w.lo > 0 else (False if w.hi <= 0 else None)
    return True if w.lo >= 0 else (False if w.hi < 0 else None)


@dataclass
class _Trace:
    """What certified (or refuted) the top-level box."""

    how: str = ""
    face: dict[str, tuple[Fraction, Fraction]] | None = None


class _Memo:
    """Enclosures and derivative signs of one top-level box, computed once each."""

    def __init__(self, engine: Any, prec: int, deadline: float = math.inf) -> None:
        self.deadline = deadline
        self.engine = engine
        self.names = engine.names
        self.prec = prec
        self._enc: dict[tuple[Any, ...], Iv | None] = {}
        self._sign: dict[tuple[Any, ...], int] = {}

    @staticmethod
    def key(box: Mapping[str, tuple[Fraction, Fraction]]) -> tuple[Any, ...]:
        # exact integer pairs: hashing a Fraction costs a modular inverse, every lookup
        return tuple((lo.numerator, lo.denominator, hi.numerator, hi.denominator)
                     for lo, hi in box.values())

    def enclose(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]],
                prec: int | None = None) -> Iv | None:
        prec = prec or self.prec
        k = (node, self.key(box), prec)
        if k not in self._enc:
            self._enc[k] = self.engine.enclose(node, box, prec)
        return self._enc[k]

    def deriv(self, node: Any, name: str) -> Any:
        return self.engine.deriv(node, name)

    def smooth(self, node: Any, box: Mapping[str, tuple[Fraction, Fraction]]) -> bool:
        k = ("smooth", node, self.key(box))
        if k not in self._enc:
            self._enc[k] = self.engine.smooth(node, box)  # type: ignore[assignment]
        return bool(self._enc[k])


def _bound_sign(m: _Memo, node: Any, box: dict[str, tuple[Fraction, Fraction]],
                depth: int) -> int:
    """+1 if ``node >= 0`` on ``box``, -1 if ``node <= 0``, 0 if neither is certified."""
    k = (node, m.key(box), depth)
    if k in m._sign:
        return m._sign[k]
    m._sign[k] = 0
    v = m.enclose(node, box)
    out = 0
    if v is not None and v.is_finite():
        if v.lo >= 0:
            out = 1
        elif v.hi <= 0:
            out = -1
        elif (out := _structural_sign(m, node, box, depth)) != 0:
            pass
        elif depth > 0:
            centre = {n: ((lo + hi) / 2,) * 2 for n, (lo, hi) in box.items()}
            c = m.enclose(node, centre)
            guess = 0 if c is None else (1 if c.lo > 0 else (-1 if c.hi < 0 else 0))
            for sense in ((guess,) if guess else (1, -1)):
                if _prove(m, node, box, sense, False, depth) is True:
                    out = sense
                    break
    m._sign[k] = out
    return out


def _structural_sign(m: _Memo, node: Any, box: dict[str, tuple[Fraction, Fraction]],
                     depth: int) -> int:
    """The sign of a symbolic product from the signs of its factors (``(e^x - 1)^2 >= 0``
    although its enclosure near ``x = 0`` straddles 0); sums are factored first."""
    factored = getattr(m.engine, "factored", None)
    if factored is None:
        return 0
    e = factored(node)
    if e is None:
        return 0
    import sympy as sp

    if isinstance(e, sp.Pow) and e.exp.is_Rational:
        if e.exp.is_Integer and int(e.exp) % 2 == 1:
            return _bound_sign(m, e.base, box, depth)
        return 1  # an even power, or a root (nonnegative where defined)
    if isinstance(e, sp.exp):
        return 1
    if isinstance(e, sp.Mul):
        sign = 1
        for f in e.args:
            s = _bound_sign(m, f, box, depth)
            if s == 0:
                return 0
            sign *= s
        return sign
    return 0


def _prove(m: _Memo, node: Any, box: dict[str, tuple[Fraction, Fraction]], sense: int,
           strict: bool, depth: int, trace: _Trace | None = None) -> bool | None:
    """Certify ``sense * node >= 0`` (``> 0``) on ``box``: True, False (certified violated on
    a face or on the whole box) or None."""
    s = _sign(m.enclose(node, box), sense, strict)
    if s is not None:
        if trace is not None:
            trace.how, trace.face = "enclosure", box
        return s
    free = [n for n in m.names if box[n][0] < box[n][1]]
    if not free:
        s = _sign(m.enclose(node, box, 4 * m.prec), sense, strict)
        if trace is not None and s is not None:
            trace.how, trace.face = "enclosure", box
        return s
    if depth <= 0 or time.monotonic() > m.deadline or not m.smooth(node, box):
        return None
    face = dict(box)
    pending = list(free)
    moved = False
    progress = True
    while progress and pending:
        progress = False
        for n in list(pending):
            d = m.deriv(node, n)
            if d is None:
                pending.remove(n)
                continue
            # sense*node is nondecreasing in n where sense*d >= 0: its minimum is at lo
            sg = _bound_sign(m, d, face, depth - 1) * sense
            if sg == 0:
                continue
            lo, hi = face[n]
            end = lo if sg > 0 else hi
            face[n] = (end, end)
            pending.remove(n)
            moved = progress = True
    if moved:
        s = _sign(m.enclose(node, face), sense, strict)
        if s is None and all(face[n][0] == face[n][1] for n in m.names):
            s = _sign(m.enclose(node, face, 4 * m.prec), sense, strict)
        if s is not None:
            if trace is not None:
                trace.how, trace.face = "monotonicity", face
            return s
    # mean-value form on what is left: g(c) + sum_i g_i(B) (B_i - c_i)
    rest = [n for n in m.names if face[n][0] < face[n][1]]
    if not rest:
        return None
    centre = dict(face)
    for n in rest:
        mid = (face[n][0] + face[n][1]) / 2
        centre[n] = (mid, mid)
    total = m.enclose(node, centre)
    if total is None:
        return None
    with arb_precision(m.prec):
        for n in rest:
            d = m.deriv(node, n)
            dv = None if d is None else m.enclose(d, face)
            if dv is None or not dv.is_finite():
                return None
            lo, hi = face[n]
            mid = centre[n][0]
            total = total + dv * Iv.exact(lo - mid, hi - mid)
        # the centred form is tight on small boxes, the natural one may be on a face: both hold
        natural = m.enclose(node, face)
        if natural is not None and natural.is_finite() and total.is_finite():
            total = total.meet(natural)
    s = _sign(total, sense, strict)
    if s is not None and trace is not None:
        trace.how, trace.face = ("monotonicity+mean-value" if moved else "mean-value"), face
    return s


def smear(m: _Memo, box: Mapping[str, tuple[Fraction, Fraction]]) -> dict[str, float] | None:
    """The smear ``sup |dg/dx_i (B)| * width_i`` of every free variable of ``box`` (the
    Ratschek–Rokne splitting heuristic: split where ``g`` varies most, not where the box is
    widest), ``inf`` where a derivative has no finite enclosure; None without derivatives."""
    out: dict[str, float] = {}
    root = m.engine.root
    for n in m.names:
        lo, hi = box[n]
        if lo == hi:
            continue
        d = m.deriv(root, n)
        dv = None if d is None else m.enclose(d, box)
        if dv is None or not dv.is_finite():
            out[n] = math.inf
            continue
        out[n] = float(dv.magnitude()) * float(hi - lo)
    if not out or all(v == math.inf for v in out.values()):
        return None
    return out


def _pruning_depth(n: int) -> int:
    return {1: 4, 2: 3, 3: 2}.get(n, 1)


@dataclass
class _Pruner:
    """Builds (lazily, per integer assignment) the derivative engine of a comparison."""

    check: Compare
    box: Box
    fixed: Mapping[str, Any]
    notes: list[str] = field(default_factory=list)
    engines: dict[tuple[tuple[str, int], ...], Any] = field(default_factory=dict)
    simplify_work: int = 0  # charged to thorough simplifications (node^2, SIMPLIFY_WORK)
    simplify_seconds: float = 0.0  # CPU-s spent in sympy.simplify (hang guard: SIMPLIFY_SECONDS)
    # symbolic allowances count this process's CPU time, not wall time: on a loaded machine the
    # same check must reach the same verdict (so does the task budget: Budget(clock="cpu"))
    sympy_deadline: float = field(default_factory=lambda: time.process_time() + SYMPY_SECONDS)

    def allowance(self) -> float:
        """Seconds the next symbolic operation may take."""
        return min(SYMPY_STEP_SECONDS, self.sympy_deadline - time.process_time())

    def engine(self, ints: Mapping[str, int]) -> Any:
        key = tuple(sorted(ints.items()))
        if key not in self.engines:
            self.engines[key] = self._build(ints)
        return self.engines[key]

    def _simplify(self, e: Any, thorough: bool = False) -> Any:
        """A cheap normal form (expand, then merge exponentials: cancels ``e^eps phi(a+b)``
        against ``phi(a-b)``), and ``sympy.simplify`` for a small ``g`` (or first derivative)
        while the check's allowance :data:`SIMPLIFY_WORK` lasts, except on an atom and where it
        would run ``trigsimp`` (:func:`_circular`). The expansion is skipped where its estimate
        is far over the size rule's limit (:func:`_expanded_size_estimate`)."""
        import sympy as sp

        ops = _size(e)
        if ops > MAX_DERIVATIVE_NODES:
            return e
        out = None
        limit = 2 * ops + 20
        if (ops <= SIMPLIFY_MAX_NODES
                and _expanded_size_estimate(e) <= EXPANSION_ESTIMATE_MARGIN * limit):
            expanded = sp.powsimp(sp.expand(e), combine="exp")
            if _size(expanded) <= limit:
                out = expanded
        if out is None:  # only where the expanded form is not taken (it usually is)
            out = sp.powsimp(e, combine="exp")
        size = _size(out)
        if (thorough and 1 < size <= SIMPLIFY_MAX_NODES // 2
                and self.simplify_work + size**2 <= SIMPLIFY_WORK
                and self.simplify_seconds < SIMPLIFY_SECONDS and not _circular(out)):
            self.simplify_work += size**2
            t0 = time.process_time()
            try:
                full = sp.simplify(out)
            finally:
                self.simplify_seconds += time.process_time() - t0
            if _size(full) < size:
                out = full
        return out

    def _build(self, ints: Mapping[str, int]) -> Any:
        names = tuple(self.box.reals)
        if not names:
            return None
        sym = self._build_sym(ints, names)
        if sym is not None:
            return sym
        return _DualEngine(self.check, ints, self.fixed, names)

    def _build_sym(self, ints: Mapping[str, int], names: tuple[str, ...]) -> _SymEngine | None:
        import sympy as sp

        base = {n: (Fraction(lo), Fraction(hi)) for n, (lo, hi) in self.box.reals.items()}
        symbols = {n: _symbol(n, *base[n]) for n in names}
        params: dict[str, Any] = dict(symbols)
        params.update(ints)
        params.update(self.fixed)
        try:
            # maxima built as in the smt route: sympy's pairwise comparison of large arguments
            # (GCE-T3 4/3: 47 maxima of sums of exponentials, > 2 s) drops nothing that is not
            # dominated, so the function is the same
            with _time_limit(self.allowance()), extrema_unreduced():
                ctx = SymCtx()
                lhs = ctx.run(self.check.lhs, **params)
                rhs = ctx.run(self.check.rhs, **params)
                g = rhs - lhs if self.check.op in ("le", "lt") else lhs - rhs
                g = sp.sympify(g)
        except Exception as e:  # any failure of the symbolic route falls back to AD
            self._note(f"sympy cannot represent the terms ({type(e).__name__}: {e}); "
                       "derivatives by automatic differentiation")
            return None
        if (nodes := _size(g)) > MAX_DERIVATIVE_NODES:
            # its derivatives would be dropped (and it is not simplified): AD gives them
            self._note(f"the symbolic form has {nodes} nodes (more than "
                       f"{MAX_DERIVATIVE_NODES}); derivatives by automatic differentiation")
            return None
        if g.has(sp.Heaviside, sp.sign, sp.floor, sp.ceiling, sp.frac, sp.DiracDelta):
            self._note("the symbolic form has a discontinuous function: no sympy derivatives")
            return None
        try:
            with _time_limit(self.allowance()):
                simplified = self._simplify(g, thorough=True)
        except Exception:  # too slow (or sympy failed): the form as evaluated
            simplified = g
        for candidate in (simplified, g):
            engine = _SymEngine(candidate, symbols, base, self._simplify, self.allowance)
            if engine._fn(candidate) is not None and self._agrees(engine, ints, base):
                return engine
        self._note("the symbolic form of the difference could not be cross-checked against "
                   "the arb evaluation; derivatives by automatic differentiation")
        return None

    def _agrees(self, engine: _SymEngine, ints: Mapping[str, int],
                base: Mapping[str, tuple[Fraction, Fraction]]) -> bool:
        """The symbolic form must enclose the same values as the terms in arb."""
        checked = 0
        for t in (Fraction(1, 2), Fraction(1, 7), Fraction(5, 6)):
            pt = {n: lo + t * (hi - lo) for n, (lo, hi) in base.items()}
            params: dict[str, Any] = dict(pt)
            params.update(ints)
            params.update(self.fixed)
            ctx = ArbCtx(START_BITS)
            try:
                lhs = flint.arb(ctx.run(self.check.lhs, **params))
                rhs = flint.arb(ctx.run(self.check.rhs, **params))
            except _EVAL_ERRORS:
                continue
            with arb_precision(START_BITS):
                ref = rhs - lhs if self.check.op in ("le", "lt") else lhs - rhs
            if not ref.is_finite():
                continue
            v = engine.enclose(engine.g, {n: (x, x) for n, x in pt.items()}, START_BITS)
            if v is None or not v.is_finite():
                continue
            if not v.ball().overlaps(ref):
                return False
            checked += 1
        return checked > 0

    def _note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


def _circular(e: Any) -> bool:
    """Has ``e`` a trigonometric or hyperbolic function? ``sympy.simplify`` then runs
    ``trigsimp``, which rewrites ``tanh`` as ``tan`` of an imaginary argument and factors over
    Q(i): 1.3 s for 3 nodes fewer (EFMRTT19 5/0), more than the 2 s step limit (FMT21-CLONES
    5/0), for no fewer boxes."""
    from sympy.functions.elementary.hyperbolic import HyperbolicFunction
    from sympy.functions.elementary.trigonometric import TrigonometricFunction

    return bool(e.has(HyperbolicFunction, TrigonometricFunction))


def _symbol(name: str, lo: Fraction, hi: Fraction) -> Any:
    """A real sympy symbol with the sign assumptions that hold on the whole box."""
    import sympy as sp

    kw: dict[str, bool] = {"real": True}
    if lo > 0:
        kw["positive"] = True
    elif lo >= 0:
        kw["nonnegative"] = True
    if hi < 0:
        kw["negative"] = True
    elif hi <= 0:
        kw["nonpositive"] = True
    return sp.Symbol(name, **kw)
