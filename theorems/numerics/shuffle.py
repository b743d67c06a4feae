"""Engines of the shuffle model: the clone-pair hockey-stick sum and the exact shuffled
randomized response, generic over the number type.

Every function takes numbers that support ``+ - * /`` with Python ints and a ``pos`` function
(the positive part): exact :class:`~fractions.Fraction` values (``pos = max(v, 0)``, the exact
oracle) or numbers of an arithmetic context (``pos = ctx.pos``: arb balls give rigorous
enclosures). The parameters are ``x0 = e^eps0`` and ``x = e^eps``, so rational ``x0, x`` give
exact rational deltas.

Main results
------------
- :func:`clone_walk`: ``sum_{c=c0}^{c1} B(c) H_c`` for the [FMT21] clone pair by the O(1)-per-c
  recurrence; :func:`clone_double_sum` is the direct double sum over ``(c, a)`` (O(n^2)).
- :func:`rr_binary_profile`: ``H_x(G_i || G_{i+1})`` for every i, G_i the law of the number of
  1-reports of n binary-RR users of whom i hold 1.
- :func:`rr_kary_max`: the maximum over count vectors of both orders of the hockey-stick between
  the report histograms of k-ary RR, by enumeration.

References
----------
- [FMT21] Feldman, McMillan & Talwar, *Hiding Among the Clones*, arXiv 2012.12803 (version not
  verified): the clone pair (Thm 3.2 as recalled by the catalogue; read in the authors' code
  apple/ml-shuffling-amplification, commit 993d285, ``onestep``/``deltacomp``). The recurrence
  and the threshold form are derived (catalogue FMT21-NUM).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import flint

from dpverify.theorems.values import approx_float

Pos = Callable[[Any], Any]


# ------------------------------------------------------------------------------------------
# the clone pair


def clone_coefficients(x0: Any, x: Any) -> tuple[Any, Any, Any]:
    """``(alpha, gamma, beta)`` of the clone pair: with ``w = x0/(x0 + 1)`` the term at a is
    ``P_c(a) - x Q_c(a) = alpha b_c(a) + gamma b_c(a - 1)``, ``alpha = w - x(1 - w) =
    (x0 - x)/(x0 + 1)``, ``gamma = (1 - w) - x w = (1 - x x0)/(x0 + 1)``; it is >= 0 exactly
    for ``a <= beta (c + 1)``, ``beta = alpha/(alpha - gamma) = (x0 - x)/((x0 - 1)(1 + x))``
    (the catalogue's ``R/(1 + R)``)."""
    alpha = (x0 - x) / (x0 + 1)
    gamma = (1 - x * x0) / (x0 + 1)
    beta = (x0 - x) / ((x0 - 1) * (1 + x))
    return alpha, gamma, beta


def threshold(beta_guess: Fraction, c: int) -> int:
    """``floor(beta_guess (c + 1))`` exactly."""
    return (beta_guess.numerator * (c + 1)) // beta_guess.denominator


class CloneState:
    """The walk's state at c: ``u = j_c - 1`` (``j_c`` the threshold index), ``F = F_c(u) =
    P[Bin(c, 1/2) <= u]``, ``bu = b_c(u)``, ``bv = b_c(u + 1)`` and ``B = Bin(n-1, p)(c)``."""

    __slots__ = ("B", "F", "bu", "bv", "c", "u")

    def __init__(self, c: int, u: int, F: Any, bu: Any, bv: Any, B: Any) -> None:
        self.c, self.u, self.F, self.bu, self.bv, self.B = c, u, F, bu, bv, B


def clone_walk(alpha: Any, gamma: Any, beta_guess: Fraction, n: int, ratio: Any,
               state: CloneState, c1: int, pos: Pos) -> tuple[Any, CloneState]:
    """``sum_{c=state.c}^{c1} B(c) H_c`` and the state at ``c1``.

    ``H_c = alpha F_c(j-1) + gamma F_c(j-2) + pos(term(j)) + pos(term(j+1))`` with
    ``j = floor(beta_guess (c + 1))``: exact whenever ``|beta - beta_guess| (c + 1) <= 1``,
    since then every term below j is >= 0 and every term above j + 1 is <= 0 (the caller
    certifies this). Steps (catalogue FMT21-NUM): ``F_{c+1}(t) = F_c(t) - b_c(t)/2``,
    ``b_{c+1}(t) = b_c(t)(c+1)/(2(c+1-t))``, ``b_c(t+1) = b_c(t)(c-t)/(t+1)``, and
    ``B(c+1) = B(c) (n-1-c)/(c+1) * ratio`` with ``ratio = p/(1-p)``.
    """
    c, u, F, bu, bv, B = state.c, state.u, state.F, state.bu, state.bv, state.B
    total = 0
    while True:
        j = threshold(beta_guess, c)
        while u < j - 1:  # j grows by at most 1 per step of c (beta <= 1/2)
            F = F + bv
            bu, bv = bv, bv * (c - u - 1) / (u + 2)
            u += 1
        bw = bv * (c - u - 1) / (u + 2)  # b_c(u + 2); 0 when u + 1 = c
        h = (alpha * F + gamma * (F - bu) + pos(alpha * bv + gamma * bu)
             + pos(alpha * bw + gamma * bv))
        total = total + B * h
        if c >= c1:
            return total, CloneState(c, u, F, bu, bv, B)
        F = F - bu / 2
        bu = bu * (c + 1) / (2 * (c + 1 - u))
        bv = bv * (c + 1) / (2 * (c - u))
        B = B * (n - 1 - c) * ratio / (c + 1)
        c += 1


def clone_start_exact(x0: Fraction, n: int) -> CloneState:
    """The state at c = 0, exactly: ``B(0) = (1 - 1/x0)^(n-1)``, ``b_0(0) = 1``."""
    return CloneState(0, -1, Fraction(0), Fraction(0), Fraction(1), (1 - 1 / x0) ** (n - 1))


def clone_delta_exact(x0: Fraction, n: int, x: Fraction) -> Fraction:
    """The exact rational delta of the clone pair by the recurrence (``x0 > 1`` rational,
    ``x >= 1`` rational), summed over every c in 0..n-1."""
    if x >= x0:
        return Fraction(0)
    alpha, gamma, beta = clone_coefficients(x0, x)
    total, _ = clone_walk(alpha, gamma, beta, n, 1 / (x0 - 1), clone_start_exact(x0, n), n - 1,
                          lambda v: v if v > 0 else Fraction(0))
    return total


def clone_pmfs(x0: Any, n: int, num: Callable[[Fraction], Any] = lambda q: q
               ) -> dict[tuple[int, int], tuple[Any, Any]]:
    """The clone pair's laws ``{(c, a): (P(c, a), Q(c, a))}``: ``C ~ Bin(n-1, 1/x0)`` and
    ``P(c, a) = Bin(n-1, 1/x0)(c) P_c(a)`` with ``P_c(a) = w b_c(a) + (1-w) b_c(a-1)``,
    ``Q_c(a) = (1-w) b_c(a) + w b_c(a-1)``, ``b_c`` the Bin(c, 1/2) pmf (catalogue FMT21-NUM;
    the pair as in the authors' ``onestep``), binomial coefficients from :func:`math.comb`
    (``num`` turns the exact rationals into the number type)."""
    w = x0 / (x0 + 1)
    p = 1 / x0
    out = {}
    for c in range(n):
        weight = math.comb(n - 1, c) * p**c * (1 - p) ** (n - 1 - c)
        b = [num(Fraction(math.comb(c, a), 2**c)) for a in range(c + 1)]

        def bc(a: int, b: list[Any] = b) -> Any:
            return b[a] if 0 <= a < len(b) else 0 * b[0]

        for a in range(c + 2):
            out[(c, a)] = (weight * (w * bc(a) + (1 - w) * bc(a - 1)),
                           weight * ((1 - w) * bc(a) + w * bc(a - 1)))
    return out


def clone_double_sum(x0: Any, n: int, x: Any, pos: Pos,
                     num: Callable[[Fraction], Any] = lambda q: q,
                     pmfs: dict[tuple[int, int], tuple[Any, Any]] | None = None) -> Any:
    """The direct double sum ``sum_{c, a} pos(P(c, a) - x Q(c, a))`` over the laws of
    :func:`clone_pmfs` (``pmfs``: those laws, already computed for these x0 and n): an
    independent route to :func:`clone_walk`, O(n^2)."""
    total = 0
    for pc, qc in (clone_pmfs(x0, n, num) if pmfs is None else pmfs).values():
        total = total + pos(pc - x * qc)
    return total


# ------------------------------------------------------------------------------------------
# shuffled binary randomized response


def _powers(lin: list[Any], count: int, mul: Callable[[Any, Any], Any], one: Any) -> list[Any]:
    """``[lin^0, lin^1, ..., lin^count]`` for a polynomial ``lin``."""
    out = [one]
    for _ in range(count):
        out.append(mul(out[-1], lin))
    return out


def _list_mul(a: list[Any], b: list[Any]) -> list[Any]:
    out = [0 * a[0]] * (len(a) + len(b) - 1)
    for i, ai in enumerate(a):
        for j, bj in enumerate(b):
            out[i + j] = out[i + j] + ai * bj
    return out


def rr_binary_coefficients(x0: Any, x: Any, one: Any) -> tuple[Any, Any, Any, Any]:
    """``(w, v, alpha, gamma)`` of shuffled binary RR(eps0): ``w = x0/(x0 + 1)``, ``v = 1 - w``
    and the coefficients of ``P_m(j) - x Q_m(j) = alpha X_m(j) + gamma X_m(j-1)``: ``alpha = w -
    x v``, ``gamma = v - x w``."""
    w = x0 / (x0 + 1)
    v = one - w
    return w, v, w - x * v, v - x * w


def rr_binary_laws(x0: Any, n: int, one: Any, poly: str = "list") -> list[list[Any]]:
    """``[X_m(0..n-1) for m in 0..n-1]``: the law of the number of 1-reports among the other
    n - 1 users of whom m hold 1, ``X_m(z) = (w z + 1 - w)^m ((1 - w) z + w)^(n-1-m)``. Each X_m
    is one product of two precomputed powers (no division: a division by ``(1 - w) z + w``
    amplifies errors by ``(x0 + 1)/(x0 - 1)`` per step). ``poly``: ``"arb"`` (python-flint
    ``arb_poly``), ``"fmpq"`` (exact ``fmpq_poly``) or ``"list"`` (plain lists, any number
    type)."""
    w = x0 / (x0 + 1)
    v = one - w
    if poly == "list":
        a_pows = _powers([v, w], n - 1, _list_mul, [one])
        b_pows = _powers([w, v], n - 1, _list_mul, [one])
        return [_list_mul(a_pows[m], b_pows[n - 1 - m]) for m in range(n)]
    if poly == "arb":
        make, lift = flint.arb_poly, (lambda t: t)
    else:
        make, lift = flint.fmpq_poly, (lambda t: flint.fmpq(t.numerator, t.denominator))
    lin_a, lin_b = make([lift(v), lift(w)]), make([lift(w), lift(v)])
    a_pows = _powers(lin_a, n - 1, lambda s, t: s * t, make([1]))
    b_pows = _powers(lin_b, n - 1, lambda s, t: s * t, make([1]))
    coeffs = []
    for m in range(n):
        prod = a_pows[m] * b_pows[n - 1 - m]
        row = [prod[j] for j in range(n)]
        coeffs.append(row if poly == "arb" else [Fraction(int(c.p), int(c.q)) for c in row])
    return coeffs


def hockey_terms(alpha: Any, gamma: Any, xm: list[Any]) -> list[Any]:
    """The arguments of the positive parts of ``H_x(P_m || Q_m) = sum_j pos(alpha X_m(j) +
    gamma X_m(j-1))``, ``j = 0..n`` (``X_m(-1) = X_m(n) = 0``)."""
    n = len(xm)
    return [alpha * xm[0], *(alpha * xm[j] + gamma * xm[j - 1] for j in range(1, n)),
            gamma * xm[n - 1]]


def rr_binary_profile(x0: Any, n: int, x: Any, pos: Pos, one: Any, poly: str = "list",
                      laws: list[list[Any]] | None = None) -> list[Any]:
    """``[H_x(P_m || Q_m) for m in 0..n-1]`` for shuffled binary RR(eps0), ``x0 = e^eps0``.

    With m of the other n - 1 users holding 1, the number of 1-reports among them has law
    :func:`rr_binary_laws` X_m; user 1 holding 0 or 1 gives ``P_m = X_m (w + (1 - w) z)`` and
    ``Q_m = X_m ((1 - w) + w z)``, so ``P_m(j) - x Q_m(j) = (w - x(1-w)) X_m(j) + ((1-w) - x w)
    X_m(j-1)`` (catalogue SHUFFLE-RR-EXACT; :func:`rr_binary_coefficients`,
    :func:`hockey_terms`). The reversal ``K -> n - K`` maps ``(P_m, Q_m)`` to ``(Q_{n-1-m},
    P_{n-1-m})``, so the maximum of this one-order list is the two-order maximum over m.
    ``laws``: :func:`rr_binary_laws` of these x0 and n, if already computed (they do not
    depend on x).
    """
    _, _, alpha, gamma = rr_binary_coefficients(x0, x, one)
    out = []
    for xm in rr_binary_laws(x0, n, one, poly) if laws is None else laws:
        terms = hockey_terms(alpha, gamma, xm)
        total = pos(terms[0])
        for t in terms[1:]:
            total = total + pos(t)
        out.append(total)
    return out


# ------------------------------------------------------------------------------------------
# shuffled k-ary randomized response


def add_report(law: dict[tuple[int, ...], Any], row: list[Any]) -> dict[tuple[int, ...], Any]:
    """The histogram law after one more user whose report has law ``row``."""
    out: dict[tuple[int, ...], Any] = {}
    for h, mass in law.items():
        for j, r in enumerate(row):
            key = (*h[:j], h[j] + 1, *h[j + 1:])
            term = mass * r
            out[key] = out[key] + term if key in out else term
    return out


def _hockey(p: dict[tuple[int, ...], Any], q: dict[tuple[int, ...], Any], x: Any, pos: Pos,
            zero: Any) -> Any:
    total = zero
    for h, mass in p.items():
        total = total + pos(mass - x * q.get(h, zero))
    return total


def count_vectors(k: int, total: int) -> Iterator[tuple[int, ...]]:
    """The count vectors ``c`` of ``total`` users over k values (canonical up to the
    symmetries: ``c_0 >= c_1`` and ``c_2 >= c_3 >= ...``)."""

    def rest(v: int, left: int, cap: int) -> Iterator[tuple[int, ...]]:
        if v == k - 1:
            if left <= cap:
                yield (left,)
            return
        for cv in range(min(left, cap), -1, -1):
            for tail in rest(v + 1, left - cv, cv if v >= 2 else left):
                yield (cv, *tail)

    for c0 in range(total, -1, -1):
        for c1 in range(min(c0, total - c0), -1, -1):
            if k == 2:
                if c0 + c1 == total:
                    yield (c0, c1)
                continue
            for tail in rest(2, total - c0 - c1, total - c0 - c1):
                yield (c0, c1, *tail)


def rr_kary_values(x0: Any, n: int, x: Any, k: int, pos: Pos, mx: Callable[..., Any], one: Any
                   ) -> list[tuple[tuple[int, ...], Any]]:
    """``[(c, max(H_x(Hist(c + e_0) || Hist(c + e_1)), H_x(Hist(c + e_1) || Hist(c + e_0))))]``
    over the canonical count vectors c of the other n - 1 users (:func:`count_vectors`); k-ary
    RR reports the true value with probability ``x0/(x0 + k - 1)``. Permuting the values
    2..k-1 relabels the outputs and swapping values 0 and 1 swaps the two orders, so the other
    count vectors repeat these values."""
    zero = 0 * one
    out = []
    for c in count_vectors(k, n - 1):
        p, q = rr_kary_pair(x0, k, c, one)
        out.append((c, mx(_hockey(p, q, x, pos, zero), _hockey(q, p, x, pos, zero))))
    return out


def rr_kary_pair(x0: Any, k: int, c: tuple[int, ...], one: Any
                 ) -> tuple[dict[tuple[int, ...], Any], dict[tuple[int, ...], Any]]:
    """The laws of the report histogram ``(Hist(c + e_0), Hist(c + e_1))`` of k-ary RR(eps0)
    (true value w.p. ``x0/(x0 + k - 1)``), the other users' values counted by c."""
    rows = rr_kary_rows(x0, k, one)
    law = rr_kary_law(x0, k, c, one)
    return add_report(law, rows[0]), add_report(law, rows[1])


def rr_kary_rows(x0: Any, k: int, one: Any) -> list[list[Any]]:
    """``rows[v][j]``: the probability that k-ary RR(eps0) reports j for the value v."""
    s = x0 + (k - 1)
    return [[x0 / s if j == v else one / s for j in range(k)] for v in range(k)]


def rr_kary_law(x0: Any, k: int, c: tuple[int, ...], one: Any) -> dict[tuple[int, ...], Any]:
    """The law of the report histogram of the other users, their values counted by c."""
    rows = rr_kary_rows(x0, k, one)
    law: dict[tuple[int, ...], Any] = {(0,) * k: one}
    for v, cv in enumerate(c):
        for _ in range(cv):
            law = add_report(law, rows[v])
    return law


def rr_kary_max(x0: Any, n: int, x: Any, k: int, pos: Pos, mx: Callable[..., Any], one: Any
                ) -> tuple[Any, tuple[int, ...]]:
    """The maximum of :func:`rr_kary_values` (``mx``: the maximum of the number type, rigorous
    for balls) and a maximizing c (chosen by approximate value)."""
    values = rr_kary_values(x0, n, x, k, pos, mx, one)
    top = values[0][1]
    for _, value in values[1:]:
        top = mx(top, value)
    return top, max(values, key=lambda cv: approx_float(cv[1]))[0]
