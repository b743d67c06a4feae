"""The finite generalized composition experiment (GCE) of [GCE]: exact ground truth for HDP.

A round's mechanism is an explicit finite pair ``(P, Q)``: ``P`` is the output law of
``M_i(D_i^0)`` and ``Q`` that of ``M_i(D_i^1)``. A hypothesis is a finite distribution over
``{0,1}^n``, written as ``((b, weight), ...)``. Under a point hypothesis ``b`` the adversary's
view is the product of ``P_i`` (where ``b_i = 0``) and ``Q_i`` (where ``b_i = 1``); under a
composite hypothesis it is the mixture of those products. Everything is enumerated: the views
(the product output space), the vectors of a hypothesis, and, where asked, all events.

Numbers are generic: exact :class:`~fractions.Fraction` values (then ``z = e^eps`` is passed as
an exact rational and every comparison is exact) or numbers of an arithmetic context (pass the
context as ``ctx`` so that positive parts use ``ctx.pos``).

Main results
------------
- mechanisms: :func:`rr`, :func:`rr_exp` (randomized response with ``e^eps0`` given exactly),
  :func:`worst`, :func:`worst_exp` (the worst (eps0, delta0) four-output mechanism of [KOV]),
  :func:`subsampled` (Poisson subsampling with rate 1/2, [GCE] Sec. V-B), random mechanisms
  (:func:`random_mechanism`, any finite pair; :func:`random_dp_mechanism`, a random Markov
  kernel applied to the worst (log x, delta0) mechanism, hence (log x, delta0)-DP);
- views: :func:`point_law`, :func:`mixture_law`, :func:`classic_laws` (Alg. 1 with per-round
  orders, built independently of the GCE code);
- divergences: :func:`hockey` (``sum_y (p - z q)_+``), :func:`two_sided`,
  :func:`events_delta` (the maximum over all events of both inequalities of Def. 2/3),
  :func:`hdp_delta` (exact HDP delta of a pair (H0, H1)), :func:`classic_delta` (exact
  Def. 2 delta, the maximum over all per-round orders), :func:`max_log_ratio`;
- hypotheses: :func:`point`, :func:`uniform`, :func:`uniform_nonzero`, :func:`random_hypothesis`;
- Alg. 3 of [GCE] (:func:`refine`) in exact rational arithmetic, and :func:`differing`.

References
----------
- [GCE] V. Hartmann, V. Bindschaedler, R. West, *On the Choice of Databases in Differential
  Privacy Composition*, arXiv 2209.13697 (version not recorded), Alg. 1–3, Def. 2–3.
- [KOV] P. Kairouz, S. Oh, P. Viswanath, *The Composition Theorem for Differential Privacy*,
  arXiv 1311.0776v4, Thm 3.3 (the worst (eps0, delta0) mechanism).
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

Law = tuple[Any, ...]
Mechanism = tuple[Law, Law]  # (law of M(D^0), law of M(D^1))
Vector = tuple[int, ...]
Hypothesis = tuple[tuple[Vector, Any], ...]  # ((b, weight), ...), weights summing to 1
RefinedList = list[tuple[Vector, Fraction]]
Refined = tuple[RefinedList, RefinedList]  # (T0', T1') of Alg. 3: equal lengths and weights


# ------------------------------------------------------------------------------------------
# mechanisms


def rr(ctx: Any, eps0: Any) -> Mechanism:
    """RR(eps0): ``P = (e^eps0, 1)/(1 + e^eps0)``, ``Q = (1, e^eps0)/(1 + e^eps0)``."""
    return rr_exp(ctx.exp(eps0))


def rr_exp(x: Any) -> Mechanism:
    """RR with ``e^eps0 = x`` (exact when ``x`` is a Fraction)."""
    return (x / (1 + x), 1 / (1 + x)), (1 / (1 + x), x / (1 + x))


def worst_exp(x: Any, delta0: Any) -> Mechanism:
    """The (log x, delta0) four-output mechanism of [KOV] arXiv 1311.0776v4, Thm 3.3:
    ``P = (delta0, (1-delta0) x/(1+x), (1-delta0)/(1+x), 0)`` and its mirror ``Q``."""
    hi = (1 - delta0) * x / (1 + x)
    lo = (1 - delta0) / (1 + x)
    zero = delta0 * 0
    return (delta0, hi, lo, zero), (zero, lo, hi, delta0)


def worst(ctx: Any, eps0: Any, delta0: Any) -> Mechanism:
    """:func:`worst_exp` at ``x = e^eps0``."""
    return worst_exp(ctx.exp(eps0), delta0)


def subsampled(mech: Mechanism) -> Mechanism:
    """Poisson subsampling with rate 1/2 in the setting of [GCE] Sec. V-B (``D^0 = {}``,
    ``D^1 = {r}``): on ``D^0`` the mechanism sees the empty set (law ``P``); on ``D^1`` it sees
    ``{r}`` or ``{}`` with probability 1/2 each (law ``(P + Q)/2``)."""
    p, q = mech
    return tuple(p), tuple((a + b) / 2 for a, b in zip(p, q, strict=True))


def random_mechanism(rng: random.Random, outputs: tuple[int, int] = (2, 3),
                     denominator: int = 40) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Any finite pair: two random rational laws on 2..3 outputs (zeros allowed)."""
    k = rng.randint(*outputs)

    def law() -> tuple[Fraction, ...]:
        w = [rng.randint(0, denominator) for _ in range(k)]
        if sum(w) == 0:
            w[rng.randrange(k)] = 1
        return tuple(Fraction(v, sum(w)) for v in w)

    return law(), law()


def random_kernel(rng: random.Random, n_in: int, n_out: int,
                  denominator: int = 20) -> tuple[tuple[Fraction, ...], ...]:
    rows = []
    for _ in range(n_in):
        w = [rng.randint(0, denominator) for _ in range(n_out)]
        if sum(w) == 0:
            w[rng.randrange(n_out)] = 1
        rows.append(tuple(Fraction(v, sum(w)) for v in w))
    return tuple(rows)


def push(law: Law, kernel: Sequence[Sequence[Any]]) -> Law:
    return tuple(sum((law[y] * kernel[y][t] for y in range(len(law))), law[0] * 0)
                 for t in range(len(kernel[0])))


def random_dp_mechanism(rng: random.Random, x: Fraction, delta0: Fraction,
                        outputs: tuple[int, int] = (2, 3)) -> Mechanism:
    """A random (log x, delta0)-DP pair: a random Markov kernel applied to the worst
    mechanism :func:`worst_exp` (every (eps0, delta0)-DP pair is such a post-processing,
    [KOV] v4, Thm 2.1 and its proof)."""
    kernel = random_kernel(rng, 4, rng.randint(*outputs))
    p, q = worst_exp(x, delta0)
    return push(p, kernel), push(q, kernel)


# ------------------------------------------------------------------------------------------
# views


def vectors(n: int) -> list[Vector]:
    """All of ``{0,1}^n`` in lexicographic order."""
    return [tuple(v) for v in itertools.product((0, 1), repeat=n)]


def point_law(mechs: Sequence[Mechanism], b: Vector) -> Law:
    """The view under the point hypothesis ``b``: ``prod_i (b_i ? Q_i : P_i)`` over the product
    output space (row-major in the rounds)."""
    if len(b) != len(mechs):
        raise ValueError(f"vector of length {len(b)} for {len(mechs)} rounds")
    law: tuple[Any, ...] = (1,)
    for m, bi in zip(mechs, b, strict=True):
        factor = m[bi]
        law = tuple(a * c for a in law for c in factor)
    return law


def all_point_laws(mechs: Sequence[Mechanism]) -> dict[Vector, Law]:
    """:func:`point_law` of every ``b`` in ``{0,1}^n``, sharing prefixes (``~4^n`` products
    for binary outputs instead of ``n 4^n``)."""
    laws: dict[Vector, Law] = {(): (1,)}
    for m in mechs:
        laws = {(*b, bit): tuple(a * c for a in law for c in m[bit])
                for b, law in laws.items() for bit in (0, 1)}
    return laws


def mixture_law(mechs: Sequence[Mechanism], hyp: Hypothesis,
                cache: dict[Vector, Law] | None = None) -> Law:
    """The view under a hypothesis: ``sum_b H(b) point_law(b)``."""
    total: list[Any] | None = None
    for b, w in hyp:
        if cache is not None:
            law = cache.get(b)
            if law is None:
                law = cache[b] = point_law(mechs, b)
        else:
            law = point_law(mechs, b)
        wc = _weight_like(w, law[0])
        if total is None:
            total = [wc * v for v in law]
        else:
            for j, v in enumerate(law):
                total[j] = total[j] + wc * v
    if total is None:
        raise ValueError("empty hypothesis")
    return tuple(total)


def _weight_like(w: Any, v: Any) -> Any:
    """An exact weight as a number of ``v``'s kind (arb balls do not multiply with
    Fractions): ``(0*v + numerator)/denominator``."""
    if isinstance(w, Fraction) and not isinstance(v, Fraction | int):
        return (v * 0 + w.numerator) / w.denominator
    return w


def classic_laws(mechs: Sequence[Mechanism], order: Vector) -> tuple[Law, Law]:
    """Alg. 1 of [GCE] with per-round orders: in round i the adversary names the neighbours
    ``(D_i^0, D_i^1)`` as ``(D^0, D^1)`` when ``order_i = 0`` and swapped when ``order_i = 1``;
    the view under the hidden bit ``b`` is ``prod_i M_i(D_i^b)``. Returns ``(V^0, V^1)``.
    Written independently of :func:`point_law` (an explicit loop over output tuples)."""
    spaces = [range(len(m[0])) for m in mechs]
    v0, v1 = [], []
    for ys in itertools.product(*spaces):
        a: Any = 1
        c: Any = 1
        for m, o, y in zip(mechs, order, ys, strict=True):
            first, second = (m[0], m[1]) if o == 0 else (m[1], m[0])
            a = a * first[y]
            c = c * second[y]
        v0.append(a)
        v1.append(c)
    return tuple(v0), tuple(v1)


# ------------------------------------------------------------------------------------------
# divergences


def _pos(ctx: Any, x: Any) -> Any:
    if ctx is None:
        return x if x > 0 else x * 0
    return ctx.pos(x)


def hockey(p: Law, q: Law, z: Any, ctx: Any = None) -> Any:
    """``H_z(P||Q) = sum_y (P(y) - z Q(y))_+`` with ``z = e^eps``."""
    total = p[0] * 0
    for a, b in zip(p, q, strict=True):
        total = total + _pos(ctx, a - z * b)
    return total


def two_sided(p: Law, q: Law, z: Any, ctx: Any = None) -> Any:
    """``max(H_z(P||Q), H_z(Q||P))``: the smallest delta of the two inequalities of Def. 3."""
    a, b = hockey(p, q, z, ctx), hockey(q, p, z, ctx)
    if ctx is None:
        return max(a, b)
    return ctx.max(a, b)


def events_delta(p: Law, q: Law, z: Any, ctx: Any = None) -> Any:
    """``max_S max(P(S) - z Q(S), Q(S) - z P(S))`` over all ``2^|Y|`` events S (empty event
    included), by enumeration: Def. 2/3 read literally."""
    if ctx is None and all(_is_rational(x) for x in (*p, *q, z)):
        return _events_delta_rational(p, q, z)
    n = len(p)
    best = p[0] * 0
    for mask in range(1, 2**n):
        ps = sum((p[i] for i in range(n) if mask >> i & 1), p[0] * 0)
        qs = sum((q[i] for i in range(n) if mask >> i & 1), q[0] * 0)
        for value in (ps - z * qs, qs - z * ps):
            best = (value if value > best else best) if ctx is None else ctx.max(best, value)
    return best


def _is_rational(x: Any) -> bool:
    return isinstance(x, int | Fraction) and not isinstance(x, bool)


def _events_delta_rational(p: Law, q: Law, z: Any) -> Any:
    """:func:`events_delta` over exact rationals, each event's ``P(S)``, ``Q(S)`` from those of
    the event without its lowest outcome (one addition an event instead of ``|S|``): the sums
    are exact, so the values, and their maximum, are those of the direct enumeration."""
    zero = p[0] * 0
    ps, qs = [zero] * (1 << len(p)), [q[0] * 0] * (1 << len(p))
    best = zero
    for mask in range(1, 1 << len(p)):
        low = mask & -mask
        i = low.bit_length() - 1
        ps[mask], qs[mask] = ps[mask ^ low] + p[i], qs[mask ^ low] + q[i]
        for value in (ps[mask] - z * qs[mask], qs[mask] - z * ps[mask]):
            if value > best:
                best = value
    return best


def hdp_delta(mechs: Sequence[Mechanism], h0: Hypothesis, h1: Hypothesis, z: Any,
              ctx: Any = None, cache: dict[Vector, Law] | None = None) -> Any:
    """The exact HDP delta of the pair (H0, H1) at ``z = e^eps``: the two-sided hockey-stick
    divergence of the two view mixtures ([GCE] Def. 3)."""
    return two_sided(mixture_law(mechs, h0, cache), mixture_law(mechs, h1, cache), z, ctx)


def classic_delta(mechs: Sequence[Mechanism], z: Any, ctx: Any = None) -> Any:
    """The exact Def. 2 delta of a fixed sequence: the maximum over all per-round orders of
    ``H_z(V^0||V^1)`` in the classic experiment (the orders cover both inequalities)."""
    best = None
    for order in vectors(len(mechs)):
        v0, v1 = classic_laws(mechs, order)
        h = hockey(v0, v1, z, ctx)
        best = h if best is None else (max(best, h) if ctx is None else ctx.max(best, h))
    return best


def max_log_ratio(ctx: Any, p: Law, q: Law) -> Any:
    """``max_y log(P(y)/Q(y))`` over ``P(y) > 0`` (``inf`` if some ``Q(y) = 0 < P(y)``): the
    one-sided pure-DP level of the pair."""
    best = None
    for a, b in zip(p, q, strict=True):
        if _zero(a):
            continue
        if _zero(b):
            return ctx.inf
        v = ctx.log(a / b)
        best = v if best is None else ctx.max(best, v)
    return ctx.zero if best is None else best


def _zero(x: Any) -> bool:
    try:
        return bool(x == 0)
    except TypeError:
        return False


# ------------------------------------------------------------------------------------------
# hypotheses


def point(b: Iterable[int]) -> Hypothesis:
    return ((tuple(b), Fraction(1)),)


def uniform(vs: Iterable[Vector]) -> Hypothesis:
    vs = list(vs)
    return tuple((tuple(v), Fraction(1, len(vs))) for v in vs)


def uniform_nonzero(n: int) -> Hypothesis:
    """``U*``: uniform on ``{0,1}^n \\ {0}``."""
    return uniform(v for v in vectors(n) if any(v))


def check_hypothesis(h: Hypothesis, n: int | None = None) -> None:
    """Exact validation: positive rational weights summing to 1, distinct 0/1 vectors."""
    seen = set()
    total = Fraction(0)
    for b, w in h:
        if not isinstance(w, Fraction | int) or w <= 0:
            raise ValueError(f"hypothesis weights must be positive rationals; got {w!r}")
        if any(v not in (0, 1) for v in b) or (n is not None and len(b) != n):
            raise ValueError(f"not a vector of {{0,1}}^{n}: {b!r}")
        if b in seen:
            raise ValueError(f"vector {b} listed twice")
        seen.add(b)
        total += w
    if total != 1:
        raise ValueError(f"hypothesis weights sum to {total}, not 1")


def random_hypothesis(rng: random.Random, n: int, support: tuple[int, int] = (1, 6),
                      denominator: int = 12,
                      allowed: Sequence[Vector] | None = None) -> Hypothesis:
    """A random hypothesis: a random support of ``support`` vectors (from ``allowed``, default
    all of ``{0,1}^n``) with random integer weights, normalised exactly."""
    pool = list(allowed) if allowed is not None else vectors(n)
    k = min(rng.randint(*support), len(pool))
    chosen = rng.sample(pool, k)
    w = [rng.randint(1, denominator) for _ in chosen]
    return tuple((b, Fraction(wi, sum(w))) for b, wi in zip(chosen, w, strict=True))


# ------------------------------------------------------------------------------------------
# Alg. 3: tuple refinement


def refine(t0: Hypothesis, t1: Hypothesis) -> Refined:
    """[GCE] App. A, Alg. 3, in exact rational arithmetic, FIFO order: take the head tuple of
    each list; equal weights are matched; otherwise the heavier tuple is split, its part equal
    to the lighter weight is matched, and the remainder goes back to the head of its list.

    Returns the refined lists ``(T0', T1')``: ``T0'[j] = (b_j^0, w_j)`` and ``T1'[j] = (b_j^1,
    w_j)``, a perfect equal-weight matching (``Pr[V|H0] = sum_j w_j Pr[V|b_j^0]``). Each step
    consumes at least one tuple (the last step two), so there are at most ``|T0| + |T1| - 1``
    pairs. The selection order of the paper was not recovered; any order has these properties.
    """
    for t in (t0, t1):
        if any(not isinstance(w, Fraction | int) or w <= 0 for _, w in t):
            raise ValueError("Alg. 3 needs exact positive rational weights")
    if sum(Fraction(w) for _, w in t0) != sum(Fraction(w) for _, w in t1):
        raise ValueError("the two lists must carry the same total weight")
    q0 = deque((b, Fraction(w)) for b, w in t0)
    q1 = deque((b, Fraction(w)) for b, w in t1)
    r0: RefinedList = []
    r1: RefinedList = []
    while q0 and q1:
        b0, w0 = q0.popleft()
        b1, w1 = q1.popleft()
        w = min(w0, w1)
        r0.append((b0, w))
        r1.append((b1, w))
        if w0 > w1:
            q0.appendleft((b0, w0 - w1))
        elif w1 > w0:
            q1.appendleft((b1, w1 - w0))
    if q0 or q1:  # impossible with equal totals; kept as a guard
        raise ValueError("unmatched weight left after refinement")
    return r0, r1


def matched(refined: Refined) -> list[tuple[Vector, Vector, Fraction]]:
    """The matched pairs ``(b_j^0, b_j^1, w_j)`` of a refinement (checked to be equal-weight)."""
    r0, r1 = refined
    if len(r0) != len(r1) or any(a[1] != b[1] for a, b in zip(r0, r1, strict=False)):
        raise ValueError("the refinement is not a perfect equal-weight matching")
    return [(a[0], b[0], a[1]) for a, b in zip(r0, r1, strict=True)]


RefineFn = Callable[[Hypothesis, Hypothesis], Refined]


def differing(b0: Vector, b1: Vector) -> tuple[int, ...]:
    """``I = {i : b0_i != b1_i}`` (0-based)."""
    return tuple(i for i, (a, c) in enumerate(zip(b0, b1, strict=True)) if a != c)


def restrict(mechs: Sequence[Mechanism], b0: Vector, b1: Vector
             ) -> tuple[list[Mechanism], Vector, Vector]:
    """The rounds where ``b0`` and ``b1`` differ, with the two vectors restricted to them."""
    idx = differing(b0, b1)
    return [mechs[i] for i in idx], tuple(b0[i] for i in idx), tuple(b1[i] for i in idx)
