"""The HDP calculator (GCE-HDPCALC as a user feature; ``dpverify hdp``) and the hospital example.

- :func:`hdp_query`, :func:`hdp_rows`: per-round ``(eps_i, delta_i)`` and a membership
  constraint (at most m of n, exactly one, disjoint groups, uniform prior over non-zero vectors)
  give the HDP guarantee (MV-OPT on the differing rounds of the worst allowed pair; Thm 3 with
  MV-OPT for the uniform prior) next to classic (basic and optimal over all n) and parallel
  composition. The formulas are those of :mod:`dpverify.theorems.formulas.hdp_bounds`, the
  evaluators of GCE-V1, GCE-V2, GCE-V3 and GCE-T3.
- :func:`hospital_series`: the hospital example (GCE-PARCMP) as series for a plot.

References
----------
- [GCE] V. Hartmann, V. Bindschaedler, R. West, *On the Choice of Databases in Differential
  Privacy Composition*, arXiv 2209.13697 (version not recorded): Sec. V-A, Sec. V-B (Thm 3).
- [MV] J. Murtagh, S. Vadhan, arXiv 1507.03113 (version not verified), Thm 1.5 (MV-OPT).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dpverify.theorems.core import (
    InvalidParameter,
    fmt_fraction,
    parse_number,
)
from dpverify.theorems.ctx import MpCtx
from dpverify.theorems.formulas.hdp_bounds import (
    MAX_T3_TERMS,
    c6_delta_primes,
    c6_eps,
    candidate_sets,
    comp_delta,
    comp_delta_sets,
    comp_eps,
    comp_eps_sets,
    group_sets,
    s_at_most,
    t3_delta,
    t3_eps,
    t3_work,
    weights,
)
from dpverify.theorems.formulas.kov_mv import kov_eps
from dpverify.theorems.params import (
    DELTA,
    DELTA_LIST,
    EPS,
    EPS0_POS,
    EPS_LIST,
    NEIGHBORING,
    M,
    N,
)

# ==========================================================================================
# The HDP calculator (GCE-HDPCALC as a user feature; `dpverify hdp`)

CONSTRAINTS = ("at-most", "exactly-one", "groups", "uniform-nonzero")


@dataclass(frozen=True)
class HdpQuery:
    """A validated calculator query. Indices are 0-based here (1-based on the command line).

    Exactly one of ``delta`` (then eps is computed) and ``eps`` (then delta is computed).
    """

    eps_list: tuple[Fraction, ...]
    delta_list: tuple[Fraction, ...]
    constraint: str
    m: int | None = None
    common: tuple[int, ...] = ()
    groups: tuple[tuple[int, ...], ...] = ()
    neighboring: str = "add_remove"
    delta: Fraction | None = None
    eps: Fraction | None = None

    @property
    def n(self) -> int:
        return len(self.eps_list)


def _parse_indices(text: str, n: int, what: str) -> tuple[int, ...]:
    parts = [p.strip() for p in text.split(",")]
    out = []
    for p in parts:
        if not p.isdigit() or not 1 <= int(p) <= n:
            raise InvalidParameter(f"{what} must be comma-separated round numbers in 1..{n}; "
                                   f"got {text!r}")
        out.append(int(p) - 1)
    if len(set(out)) != len(out):
        raise InvalidParameter(f"{what} lists a round twice; got {text!r}")
    return tuple(out)


def hdp_query(eps_list: str, constraint: str, *, delta_list: str | None = None,
              m: int | None = None, common: str | None = None,
              groups: Sequence[str] = (), neighboring: str = "add_remove",
              delta: str | None = None, eps: str | None = None) -> HdpQuery:
    """Parse and validate a calculator query (strings as on the command line)."""
    eps_values = EPS_LIST.parse(eps_list)
    n = len(eps_values)
    deltas = (DELTA_LIST.parse(delta_list) if delta_list not in (None, "")
              else (Fraction(0),) * n)
    if len(deltas) != n:
        raise InvalidParameter(f"delta_list must have the length of eps_list ({n}); got "
                               f"{len(deltas)} entries")
    if constraint not in CONSTRAINTS:
        raise InvalidParameter(f"constraint must be one of {', '.join(CONSTRAINTS)}; "
                               f"got {constraint!r}")
    NEIGHBORING.check(neighboring)
    if (delta is None) == (eps is None):
        raise InvalidParameter("give exactly one of delta (then eps is computed) and eps "
                               "(then delta is computed)")
    d = DELTA.parse(delta) if delta is not None else None
    e = EPS.parse(eps) if eps is not None else None
    mm = None
    com: tuple[int, ...] = ()
    grp: tuple[tuple[int, ...], ...] = ()
    if constraint == "at-most":
        if m is None:
            raise InvalidParameter("the at-most constraint needs m (at most m of the n "
                                   "databases)")
        mm = M.check(m)
        if mm > n:
            raise InvalidParameter(f"m must be at most n = len(eps_list) = {n}; got {mm}")
    elif m is not None:
        raise InvalidParameter(f"m is only used by the at-most constraint; got m = {m}")
    if constraint == "groups":
        com = _parse_indices(common, n, "common") if common else ()
        grp = tuple(_parse_indices(g, n, "group") for g in groups)
        if len(grp) < 1:
            raise InvalidParameter("the groups constraint needs at least one group")
        used = list(com) + [i for g in grp for i in g]
        if len(set(used)) != len(used):
            raise InvalidParameter("common and the groups must be disjoint")
    elif common or groups:
        raise InvalidParameter("common and group are only used by the groups constraint")
    if constraint == "uniform-nonzero" and neighboring != "add_remove":
        raise InvalidParameter("the uniform prior over non-zero vectors is stated for "
                               "neighboring=add_remove ([GCE] Thm 3)")
    if constraint == "exactly-one" and n < 1:
        raise InvalidParameter("exactly-one needs at least one round")
    return HdpQuery(eps_values, deltas, constraint, mm, com, grp, neighboring, d, e)


def hdp_sets(q: HdpQuery) -> tuple[list[tuple[int, ...]] | None, int, str]:
    """(index sets whose worst Comp is the guarantee, or None for the uniform prior; the
    number of databases a neighbouring merged database can differ in, for parallel
    composition; a description of the hypothesis set)."""
    n = q.n
    rel = "add/remove" if q.neighboring == "add_remove" else "replace-one"
    if q.constraint in ("at-most", "exactly-one"):
        m = q.m if q.constraint == "at-most" else 1
        assert m is not None
        s = s_at_most(n, m, q.neighboring)
        sets = candidate_sets(q.eps_list, q.delta_list, s)
        what = (f"each individual in at most {m} of {n} databases" if q.constraint == "at-most"
                else f"each individual in exactly one of {n} databases")
        rounds = "round" if s == 1 else "rounds"
        return sets, s, (f"{what} ({rel}): Comp (MV-OPT, KOV if homogeneous) on the worst "
                         f"{s} {rounds} (GCE-V1/V2)")
    if q.constraint == "groups":
        sets = group_sets(q.common, q.groups, q.neighboring)
        s = max(len(i) for i in sets)
        return sets, s, (f"common rounds plus one of {len(q.groups)} disjoint groups ({rel}): "
                         f"the worst of {len(sets)} differing sets (GCE-V3)")
    return None, n, ("uniform prior over the non-zero vectors of {0,1}^" f"{n} vs none "
                     "(add/remove): Thm 3 with MV-OPT at a common eps (GCE-T3)")


@dataclass(frozen=True)
class HdpRow:
    """One line of the calculator table: ``formula(ctx)`` is the computed eps (delta mode) or
    delta (eps mode); ``None`` when the route gives no guarantee (then ``note`` says why)."""

    key: str
    label: str
    formula: Callable[[Any], Any] | None
    note: str


def _c6_row(q: HdpQuery, what: str) -> HdpRow:
    """The uniform prior with simple composition inside Thm 3 (GCE-C6), for inputs too large
    for the MV-OPT variant: the single pair (C6.eps, C6.delta)."""
    label = "HDP (this hypothesis set)"
    what = what.replace("Thm 3 with MV-OPT at a common eps (GCE-T3)",
                        "Thm 3 with simple composition (GCE-C6; the MV-OPT variant is too "
                        "large here)")
    d6 = sum((w * d for w, d in zip(weights(q.n), c6_delta_primes(q.delta_list), strict=True)),
             Fraction(0))
    if q.delta is not None:
        if q.delta < d6:
            return HdpRow("hdp", label, None, f"{what}; no guarantee: delta < {fmt_fraction(d6)}")
        return HdpRow("hdp", label, lambda ctx: c6_eps(ctx, [ctx.num(e) for e in q.eps_list]),
                      what)
    ctx = MpCtx(256)
    gap = ctx.num(q.eps) - c6_eps(ctx, [ctx.num(e) for e in q.eps_list])
    if gap < ctx.num(Fraction(1, 10**40)):  # conservative: a near tie is not a guarantee
        return HdpRow("hdp", label, None, f"{what}; no guarantee below eps = GCE-C6.eps")
    return HdpRow("hdp", label, lambda ctx: ctx.num(d6), what)


def hdp_rows(q: HdpQuery) -> list[HdpRow]:
    """The HDP guarantee next to classic (basic and optimal over all n) and parallel
    composition, as formulas to evaluate (``verifiers.evaluation.evaluate``)."""
    sets, s_par, what = hdp_sets(q)
    eps_list, deltas = q.eps_list, q.delta_list
    n = q.n
    mode_delta = q.delta is not None  # compute eps at the given delta
    rows: list[HdpRow] = []
    if sets is None and t3_work(eps_list) > MAX_T3_TERMS:
        rows.append(_c6_row(q, what))
    elif sets is None:
        if mode_delta:
            def f_hdp(ctx: Any) -> Any:
                return t3_eps(ctx, eps_list, q.delta, deltas)
        else:
            def f_hdp(ctx: Any) -> Any:
                return t3_delta(ctx, eps_list, ctx.num(q.eps), deltas)
    elif mode_delta:
        def f_hdp(ctx: Any) -> Any:
            return comp_eps_sets(ctx, eps_list, deltas, sets, q.delta)
    else:
        def f_hdp(ctx: Any) -> Any:
            return comp_delta_sets(ctx, eps_list, deltas, sets, ctx.num(q.eps))
    if not rows:
        rows.append(HdpRow("hdp", "HDP (this hypothesis set)", f_hdp, what))
    sum_eps = sum(eps_list, Fraction(0))
    sum_delta = sum(deltas, Fraction(0))
    if mode_delta:
        assert q.delta is not None
        if q.delta >= sum_delta:
            rows.append(HdpRow("classic_basic", f"classic, basic composition over all {n}",
                               lambda ctx: ctx.num(sum_eps), "sum of eps_i (BASIC)"))
        else:
            rows.append(HdpRow("classic_basic", f"classic, basic composition over all {n}", None,
                               f"no guarantee: delta < sum of delta_i = "
                               f"{fmt_fraction(sum_delta)}"))
        rows.append(HdpRow("classic_optimal", f"classic, optimal composition over all {n}",
                           lambda ctx: comp_eps(ctx, eps_list, deltas, q.delta),
                           "KOV-EPS if homogeneous, else MV-OPT.eps"))
    else:
        assert q.eps is not None
        if q.eps >= sum_eps:
            rows.append(HdpRow("classic_basic", f"classic, basic composition over all {n}",
                               lambda ctx: ctx.num(sum_delta), "sum of delta_i (BASIC)"))
        else:
            rows.append(HdpRow("classic_basic", f"classic, basic composition over all {n}", None,
                               f"no guarantee: eps < sum of eps_i = {fmt_fraction(sum_eps)}"))
        rows.append(HdpRow("classic_optimal", f"classic, optimal composition over all {n}",
                           lambda ctx: comp_delta(ctx, eps_list, deltas, ctx.num(q.eps)),
                           "KOV-DELTA if homogeneous, else MV-OPT.delta"))
    par_label = "parallel composition (merged database)"
    par_eps = s_par * max(eps_list)
    if any(d > 0 for d in deltas):
        rows.append(HdpRow("parallel", par_label, None, "parallel composition is pure-DP only"))
    elif mode_delta:
        rows.append(HdpRow("parallel", par_label, lambda ctx: ctx.num(par_eps),
                           f"{s_par} x max eps_i (group privacy over {s_par} records)"))
    elif q.eps is not None and q.eps >= par_eps:
        rows.append(HdpRow("parallel", par_label, lambda ctx: ctx.zero,
                           f"pure: eps >= {s_par} x max eps_i"))
    else:
        rows.append(HdpRow("parallel", par_label, None,
                           f"no guarantee below eps = {s_par} x max eps_i = "
                           f"{fmt_fraction(par_eps)}"))
    return rows


def hospital_series(eps0: Any, n: int, delta: Any, m_values: Sequence[int],
                    neighboring: str = "add_remove") -> dict[str, list[float]]:
    """The hospital example of [GCE] Sec. V-A1 as series for a plot: for each m, the GCE
    guarantee ``KOV-EPS.eps(eps0, 0, s, delta)`` (s = m, or min(2m, n) for replace-one)
    beside classic composition over all n (optimal ``KOV-EPS.eps(eps0, 0, n, delta)`` and
    basic ``n eps0``) and parallel composition (``s eps0``). Values are floats (mpmath at
    113 bits, then rounded)."""
    e0 = EPS0_POS.check(parse_number(str(eps0), "eps0"))
    d = DELTA.check(parse_number(str(delta), "delta"))
    n = N.check(n)
    NEIGHBORING.check(neighboring)
    ms = [M.check(m) for m in m_values]
    for m in ms:
        if m > n:
            raise InvalidParameter(f"m must be at most n = {n}; got {m}")
    ctx = MpCtx(113)
    classic = float(kov_eps(ctx, ctx.num(e0), Fraction(0), n, d))
    out: dict[str, list[float]] = {"m": [float(m) for m in ms], "hdp": [], "classic_optimal": [],
                                   "classic_basic": [], "parallel": []}
    for m in ms:
        s = s_at_most(n, m, neighboring)
        out["hdp"].append(float(kov_eps(ctx, ctx.num(e0), Fraction(0), s, d)))
        out["classic_optimal"].append(classic)
        out["classic_basic"].append(float(n * e0))
        out["parallel"].append(float(s * e0))
    return out
