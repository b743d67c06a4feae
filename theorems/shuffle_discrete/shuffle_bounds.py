"""Closed-form amplification-by-shuffling bounds: EFMRTT19, BBGN19-BLANKET (privacy blanket,
Hoeffding form) and FMT21-CLONES (hiding among the clones, Thm 3.1 and the authors'-code
variant).

Formulas: :mod:`dpverify.theorems.formulas.shuffle_bounds`. Universal claims are searched by
hypothesis over stated boxes and attempted over the same boxes by interval branch and bound or
by z3 on the polynomial form of the same formula bodies (evaluated in :class:`SymCtx`).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from dpverify.theorems.claims import Box, Claim, Compare, Points, Predicate, Smt, Tol
from dpverify.theorems.core import Evaluator, Real, Theorem
from dpverify.theorems.formulas import shuffle_bounds as sb
from dpverify.theorems.params import DELTA, EPS, EPS0_LOCAL, K_ALPHABET, N_USERS
from dpverify.theorems.refs import BBGN19, EFMRTT19, FMT21, cite
from dpverify.theorems.shuffle_discrete.blanket_monotone import (
    corrected_monotone_checks,
    generic_at,
)
from dpverify.theorems.shuffle_discrete.bounds_checks import (
    CONSTANTS,
    RR,
    blanket_rr,
    clones_over_num,
    const,
    dominance_model_check,
    dominance_problem,
    efm_round_trip_problem,
    fmt_code_problem,
    log_delta,
    monotone,
    num_delta_at_clones_over,
    num_eps,
    q_negative_model_check,
    q_negative_problem,
    refused,
    round_trip,
    rr_exact_delta,
    table,
)

FAMILY = "shuffle_discrete"

# Configuration A of the catalogue's headline comparison
CONFIG_A = {"eps0": "0.5", "n": 10**4, "delta": "1e-6"}


# ------------------------------------------------------------------------------------------
# EFMRTT19

EPS0_EFM = replace(EPS0_LOCAL, hi=Fraction(1, 2), doc="local epsilon, at most 1/2 (EFMRTT19)")
N_EFM = replace(N_USERS, lo=1000, doc="number of users, at least 1000 (EFMRTT19)")
DELTA_EFM = Real("delta", lo=0, hi=Fraction(1, 100), lo_open=True,
                 doc="central delta, at most 1/100 (EFMRTT19)")
EPS_CENTRAL = replace(EPS, doc="central epsilon at which a delta is evaluated")


def _fmt_of(ctx: Any, eps0: Any, n: Any, delta: Any, **_: Any) -> Any:
    return sb.fmt21_eps_value(ctx, eps0, n, delta)


_EFM_BOX = Box(reals={"eps0": ("0.05", "0.5"), "n": ("1000", "1e6"), "delta": ("1e-20", "0.01")},
               log_scale=frozenset({"n", "delta"}))
_EFM_ROUND_BOX = Box(reals={"eps0": ("0.001", "0.5"), "delta": ("1e-60", "0.01")},
                     ints={"n": (1000, 10**9)}, log_scale=frozenset({"delta"}))


def _efm_eps_of(ctx: Any, eps0: Any, n: Any, delta: Any, **_: Any) -> Any:
    return sb.efmrtt19_eps_value(ctx, eps0, n, delta)


EFMRTT19_THM = Theorem(
    id="EFMRTT19",
    title="Amplification by shuffling (Erlingsson et al., SODA 2019)",
    family=FAMILY,
    source=cite(EFMRTT19, "theorem/corollary number not recovered [UNCERTAIN]; formula and "
                "range read in BorjaBalle/amplification-by-shuffling (commit 1778a0d) "
                "shuffleddp/amplification_bounds.py, class Erlingsson"),
    types=("BOUND",),
    confidence=("CONFIRMED", "UNCERTAIN"),
    statement="For eps0-DP local randomizers (adaptive sequence allowed) with eps0 <= 1/2, n >= "
              "1000 and delta <= 1/100, the shuffled output of n users is (eps, delta)-DP with "
              "eps = 12 eps0 sqrt(log(1/delta)/n); equivalently delta(eps) = exp(-n (eps/(12 "
              "eps0))^2). Replace-one neighbours.",
    domain="eps0 in (0, 1/2], n >= 1000 integer, delta in (0, 1/100]; results above eps0 (no "
           "amplification) are refused",
    evaluators=(
        Evaluator("eps", (EPS0_EFM, N_EFM, DELTA_EFM), sb.efmrtt19_eps,
                  "12 eps0 sqrt(log(1/delta)/n) (refused when above eps0)"),
        Evaluator("delta", (EPS0_EFM, N_EFM, EPS_CENTRAL), sb.efmrtt19_delta,
                  "exp(-n (eps/(12 eps0))^2) (eps <= eps0, result <= 0.01)"),
    ),
    claims=(
        Claim(1, "Configuration A: eps(0.5, 10^4, 1e-6) = 0.2230153313309903; delta(0.5, 10^4, "
                 "0.2) = 1.494533852478e-5.",
              (Compare(lambda ctx, **p: sb.efmrtt19_eps(ctx, p["eps0"], p["n"], p["delta"]),
                       "eq", const("0.2230153313309903"), Points((CONFIG_A,)), "numeric",
                       Tol.abs("1e-16"), "EFMRTT19.eps", "0.2230153313309903"),
               Compare(lambda ctx, **p: sb.efmrtt19_delta(ctx, p["eps0"], p["n"], p["eps"]),
                       "eq", const("1.494533852478e-5"),
                       Points(({"eps0": "0.5", "n": 10**4, "eps": "0.2"},)), "numeric",
                       Tol.rel("1e-12"), "EFMRTT19.delta", "1.494533852478e-5")),
              scope="instance"),
        Claim(2, "delta(eps0, n, eps(eps0, n, delta)) = delta for every eps0 > 0, n > 0, delta "
                 "in (0, 1) (identity after squaring; z3 on the formula bodies with delta = "
                 "e^{-L}, sqrt(L/n) auxiliary) [smt]; searched over eps0 in [0.001, 0.5], n in "
                 "1000..10^9, delta in [1e-60, 0.01] (relative 1e-30) [property].",
              (Smt(efm_round_trip_problem, "-n (eps(delta)/(12 eps0))^2 = log(delta)"),
               Compare(lambda ctx, eps0, n, delta, **_: sb.efmrtt19_delta_value(
                           ctx, eps0, n, sb.efmrtt19_eps_value(ctx, eps0, n, delta)),
                       "eq", lambda ctx, delta, **_: delta, _EFM_ROUND_BOX, "property",
                       Tol.rel("1e-30"), "delta(eps(delta))", "delta"))),
        Claim(3, "Outside the useful range: 12 eps0 sqrt(log(1/delta)/n) at (0.5, 1000, 1e-6) is "
                 "0.7052364 > eps0, and the eps evaluator refuses that point with a domain error.",
              (Compare(_efm_eps_of, "eq", const("0.7052364"),
                       Points(({"eps0": "0.5", "n": 1000, "delta": "1e-6"},)), "numeric",
                       Tol.abs("1e-7"), "12 eps0 sqrt(log(1/delta)/n)", "0.7052364"),
               Compare(_efm_eps_of, "gt", lambda ctx, eps0, **_: eps0,
                       Points(({"eps0": "0.5", "n": 1000, "delta": "1e-6"},)), "numeric",
                       lhs_name="12 eps0 sqrt(log(1/delta)/n)", rhs_name="eps0"),
               Predicate(refused(lambda ctx, **p: sb.efmrtt19_eps(ctx, p["eps0"], p["n"],
                                                                    p["delta"])),
                         Points(({"eps0": "0.5", "n": 1000, "delta": "1e-6"},)), "numeric",
                         "EFMRTT19.eps refuses (0.5, 1000, 1e-6) with InvalidParameter",
                         ctx="mp")),
              scope="instance"),
        Claim(4, "Ordering at configuration A: EFMRTT19 (0.2230) > FMT21-CLONES (0.09387) > "
                 "BBGN19-BLANKET generic (0.05400) > FMT21-NUM (0.02040) [numeric].",
              (Compare(lambda ctx, **p: sb.efmrtt19_eps(ctx, p["eps0"], p["n"], p["delta"]),
                       "gt", lambda ctx, **p: sb.fmt21_eps(ctx, p["eps0"], p["n"], p["delta"]),
                       Points((CONFIG_A,)), "numeric", lhs_name="EFMRTT19.eps",
                       rhs_name="FMT21-CLONES.eps"),
               Compare(lambda ctx, **p: sb.fmt21_eps(ctx, p["eps0"], p["n"], p["delta"]),
                       "gt", lambda ctx, **p: sb.bbgn19_eps(ctx, p["eps0"], p["n"], p["delta"]),
                       Points((CONFIG_A,)), "numeric", lhs_name="FMT21-CLONES.eps",
                       rhs_name="BBGN19-BLANKET.eps"),
               Compare(lambda ctx, **p: sb.bbgn19_eps(ctx, p["eps0"], p["n"], p["delta"]),
                       "gt", num_eps, Points((CONFIG_A,)), "numeric",
                       lhs_name="BBGN19-BLANKET.eps", rhs_name="FMT21-NUM.eps")),
              scope="instance"),
        Claim(5, "EFMRTT19 is never tighter than FMT21-CLONES (derived): 12 eps0 sqrt(log(1/"
                 "delta)/n) >= the FMT21 Thm 3.1 expression over the region eps0 in [0.05, 1/2], "
                 "n in [1000, 10^6] (real), delta in [1e-20, 1/100] [interval, property].",
              (Compare(_efm_eps_of, "ge", _fmt_of, _EFM_BOX, "interval",
                       lhs_name="EFMRTT19 eps", rhs_name="FMT21-CLONES eps"),
               Compare(_efm_eps_of, "ge", lambda ctx, **p: sb.fmt21_eps_value(
                           ctx, p["eps0"], p["n"], p["delta"]), _EFM_BOX, "property",
                       lhs_name="EFMRTT19 eps", rhs_name="FMT21-CLONES eps"))),
    ),
    notes="The constants hold only in the stated range; the paper's statements for larger eps0 "
          "were not recovered and are not encoded. The paper text was not read: the formula is "
          "the BBGN19 authors' implementation.",
)

# ------------------------------------------------------------------------------------------
# BBGN19-BLANKET

EPS_BLANKET = replace(EPS, lo=0, lo_open=True, doc="central epsilon, in (0, eps0)")


_MONO_BOX = Box(reals={"eps0": ("0.1", "2"), "s": ("0.01", "0.99"), "t": ("0.001", "1")},
                ints={"n": (100, 10**4), "k": (2, 10), "variant": (0, 2)})

# eps_lo = s eps0 = 1.98, eps_hi = eps_lo + t (eps0 - eps_lo) = 1.99; variant 0 = generic
_MONO_COUNTEREXAMPLE = {"eps0": "2", "n": 365, "s": "0.99", "t": "0.5", "k": 2, "variant": 0}
_DOMINANCE_BOX = Box(reals={"eps0": ("0.05", "5"), "s": ("0.05", "0.95"), "n": ("1", "1e6"),
                            "k": ("2", "1000")}, log_scale=frozenset({"n", "eps0", "k"}))
_ROUND_BOX = Box(reals={"eps0": ("0.2", "2"), "delta": ("1e-10", "1e-3")},
                 ints={"n": (10**4, 10**6), "k": (2, 10), "variant": (0, 2)},
                 log_scale=frozenset({"delta"}))
def _dominance_checks() -> tuple[Compare | Smt, ...]:
    out: list[Compare | Smt] = []
    for other in ("delta_rr", "delta_laplace"):
        for part in ("P", "Q"):
            out.append(Smt(dominance_problem(other, part),
                           f"{part} (generic) >= {part} ({other})",
                           check_model=dominance_model_check(other, part),
                           part=f"{part} >= {part} ({other})"))
        out.append(Compare(log_delta("delta"), "ge", log_delta(other), _DOMINANCE_BOX,
                           "property", lhs_name="log delta (generic)", rhs_name=f"log {other}",
                           part=f"Q >= Q ({other})"))
    return tuple(out)


_N200 = Points(({"eps0": "1", "n": 200, "eps": "0.5"}, {"eps0": "0.5", "n": 200, "eps": "0.2"}))
_K3_POINTS = Points(({"eps0": "1", "n": 10, "eps": "0.3", "k": 3},
                     {"eps0": "2", "n": 10, "eps": "0.5", "k": 3}))


def _bbgn_at(delta_of: Any, eps0: str, k: int, n: int) -> Any:
    return lambda ctx, eps, **_: delta_of(ctx, ctx.num(eps0), n, eps, k)


BBGN19_BLANKET = Theorem(
    id="BBGN19-BLANKET",
    title="Privacy blanket bound for pure local randomizers (Hoeffding form)",
    family=FAMILY,
    source=cite(BBGN19, "Sec. 5, Hoeffding form (theorem number not recovered [UNCERTAIN]); "
                "formula and constants read in BorjaBalle/amplification-by-shuffling (commit "
                "1778a0d) Hoeffding.get_delta and shuffleddp/mechanisms.py (LDPMechanism, "
                "RRMechanism, LaplaceMechanism: get_gamma, get_range_l)"),
    types=("BOUND",),
    confidence=("CONFIRMED", "UNCERTAIN"),
    statement="With the blanket decomposition R(x) = gamma omega + (1 - gamma) nu_x, b(eps) "
              "bounding the range of the privacy amplification variable and a = e^eps - 1, for "
              "0 < eps < eps0: delta(eps) <= (1/(gamma_lb n)) b^2/(4a) (1 - gamma_lb (1 - "
              "exp(-2a^2/b^2)))^n. Generic eps0-DP randomizer: gamma_lb = e^{-eps0}, b = (e^eps "
              "+ 1)(e^eps0 - e^{-eps0}); k-ary RR: gamma = k/(e^eps0 + k - 1), b = (1 - gamma) k "
              "(e^eps + 1); Laplace on [0, 1] with scale 1/eps0: gamma = e^{-eps0/2}, b = (e^eps "
              "+ 1)(e^{eps0/2} - e^{-eps0/2}).",
    domain="eps0 > 0, n >= 1, 0 < eps < eps0; k >= 2. The eps evaluators bisect on min(1, "
           "delta) and refuse a delta the bound does not reach below eps0",
    evaluators=(
        Evaluator("delta", (EPS0_LOCAL, N_USERS, EPS_BLANKET), sb.bbgn19_delta,
                  "generic eps0-DP randomizer (unclipped)"),
        Evaluator("eps", (EPS0_LOCAL, N_USERS, DELTA), sb.bbgn19_eps,
                  "least eps in (0, eps0) with min(1, delta(eps)) <= delta (bisection)"),
        Evaluator("delta_rr", (EPS0_LOCAL, K_ALPHABET, N_USERS, EPS_BLANKET), sb.bbgn19_delta_rr,
                  "k-ary RR constants (unclipped)"),
        Evaluator("eps_rr", (EPS0_LOCAL, K_ALPHABET, N_USERS, DELTA), sb.bbgn19_eps_rr,
                  "inverse of delta_rr (bisection)"),
        Evaluator("delta_laplace", (EPS0_LOCAL, N_USERS, EPS_BLANKET), sb.bbgn19_delta_laplace,
                  "Laplace constants (unclipped)"),
        Evaluator("eps_laplace", (EPS0_LOCAL, N_USERS, DELTA), sb.bbgn19_eps_laplace,
                  "inverse of delta_laplace (bisection)"),
    ),
    claims=(
        Claim(1, "Configuration A: eps = 0.05399556724800750 (generic), eps_rr(0.5, 2, 10^4, "
                 "1e-6) = 0.02155160150099849, eps_laplace = 0.02190928732696550 (to 1e-16).",
              (Compare(lambda ctx, **p: sb.bbgn19_eps(ctx, p["eps0"], p["n"], p["delta"]), "eq",
                       const("0.05399556724800750"), Points((CONFIG_A,)), "numeric",
                       Tol.abs("1e-16"), "BBGN19-BLANKET.eps", "0.05399556724800750"),
               Compare(lambda ctx, **p: sb.bbgn19_eps_rr(ctx, p["eps0"], 2, p["n"], p["delta"]),
                       "eq", const("0.02155160150099849"), Points((CONFIG_A,)), "numeric",
                       Tol.abs("1e-16"), "BBGN19-BLANKET.eps_rr", "0.02155160150099849"),
               Compare(lambda ctx, **p: sb.bbgn19_eps_laplace(ctx, p["eps0"], p["n"],
                                                               p["delta"]),
                       "eq", const("0.02190928732696550"), Points((CONFIG_A,)), "numeric",
                       Tol.abs("1e-16"), "BBGN19-BLANKET.eps_laplace", "0.02190928732696550")),
              scope="instance"),
        Claim(2, "Soundness against the exact oracle (SHUFFLE-RR-EXACT, binary, n = 200): at "
                 "(eps0, eps) = (1, 0.5) the exact delta is 4.001890618558e-11 <= delta_rr "
                 "9.631379743e-9; at (0.5, 0.2) it is 4.092087019034e-10 <= 3.735547141e-8.",
              (Compare(rr_exact_delta, "le", blanket_rr, _N200, "oracle",
                       lhs_name="SHUFFLE-RR-EXACT.delta (k = 2)",
                       rhs_name="BBGN19-BLANKET.delta_rr"),
               Compare(rr_exact_delta, "eq",
                       table("eps", {Fraction(1, 2): "4.001890618558e-11",
                                      Fraction(1, 5): "4.092087019034e-10"}),
                       _N200, "oracle", Tol.rel("1e-12"), "SHUFFLE-RR-EXACT.delta",
                       "catalogue value"),
               Compare(blanket_rr, "eq",
                       table("eps", {Fraction(1, 2): "9.631379743e-9",
                                      Fraction(1, 5): "3.735547141e-8"}),
                       _N200, "numeric", Tol.rel("1e-9"), "BBGN19-BLANKET.delta_rr",
                       "catalogue value")),
              scope="instance"),
        Claim(3, "The bound can be vacuous for small n: delta_rr(1, 3, 10, 0.3) = 0.5858548 and "
                 "delta_rr(2, 3, 10, 0.5) = 3.219363 > 1, while the exact shuffled 3-RR deltas "
                 "(SHUFFLE-RR-EXACT) are 0.04544678 and 0.2264240.",
              (Compare(_bbgn_at(RR, "1", 3, 10), "eq", const("0.5858548"),
                       Points(({"eps": "0.3"},)), "numeric", Tol.abs("1e-7"),
                       "delta_rr(1, 3, 10, 0.3)", "0.5858548"),
               Compare(_bbgn_at(RR, "2", 3, 10), "eq", const("3.219363"),
                       Points(({"eps": "0.5"},)), "numeric", Tol.abs("1e-6"),
                       "delta_rr(2, 3, 10, 0.5)", "3.219363"),
               Compare(_bbgn_at(RR, "2", 3, 10), "gt", lambda ctx, **_: ctx.one,
                       Points(({"eps": "0.5"},)), "numeric", lhs_name="delta_rr(2, 3, 10, 0.5)",
                       rhs_name="1"),
               Compare(rr_exact_delta, "eq",
                       table("eps0", {Fraction(1): "0.04544678", Fraction(2): "0.2264240"}),
                       _K3_POINTS, "oracle", Tol.abs("1e-7"), "SHUFFLE-RR-EXACT.delta (k = 3)",
                       "catalogue value"),
               Compare(rr_exact_delta, "lt", blanket_rr, _K3_POINTS, "oracle",
                       lhs_name="SHUFFLE-RR-EXACT.delta (k = 3)",
                       rhs_name="BBGN19-BLANKET.delta_rr")),
              scope="instance"),
        Claim(4, "min(1, delta) is nonincreasing in eps on (0, eps0) and in n, for the generic, "
                 "k-ary RR (k in 2..10) and Laplace constants, over eps0 in [0.1, 2], n in "
                 "100..10^4, pairs eps_lo = s eps0 < eps_hi in (0, eps0) [property]. Refuted "
                 "(the catalogue states it as true): the generic constants fail at eps0 = 2, "
                 "n = 365, eps 1.98 -> 1.99 (claim 9), a region too narrow for the search; "
                 "claim 10 proves the statement where it holds.",
              (Predicate(monotone, _MONO_BOX, "property",
                         "min(1, delta)(eps_hi, n + 1) <= min(1, delta)(eps_hi, n) <= "
                         "min(1, delta)(eps_lo, n)"),
               Predicate(monotone, Points((_MONO_COUNTEREXAMPLE,)), "numeric",
                         "the chain at the counterexample eps0 = 2, n = 365, eps_lo = 1.98, "
                         "eps_hi = 1.99 (generic constants)")),
              expected="refuted"),
        Claim(5, "The unclipped expression is not monotone in eps where it exceeds 1: at n = "
                 "100, eps0 = 2 the generic bound rises from 6.716386 at eps = 1.30 to 6.744858 "
                 "at eps = 1.40; so the eps evaluators bisect on the clipped value.",
              (Compare(lambda ctx, **_: sb.generic_blanket_delta(ctx, ctx.num(2), 100,
                                                                 ctx.num("1.3")),
                       "lt", lambda ctx, **_: sb.generic_blanket_delta(ctx, ctx.num(2), 100,
                                                                       ctx.num("1.4")),
                       Points(({},)), "numeric", lhs_name="delta(2, 100, 1.30)",
                       rhs_name="delta(2, 100, 1.40)"),
               Compare(lambda ctx, **_: sb.generic_blanket_delta(ctx, ctx.num(2), 100,
                                                                 ctx.num("1.3")),
                       "eq", const("6.716386"), Points(({},)), "numeric", Tol.abs("1e-6"))),
              scope="instance"),
        Claim(6, "The generic bound dominates the mechanism-specific ones for every n > 0: "
                 "writing log delta = P - log n + n Q (P = log(b^2/(4a gamma)), Q = log(1 - gamma "
                 "(1 - e^{-2a^2/b^2})), both free of n), P and Q of the generic constants are >= "
                 "those of the k-ary RR (every real k >= 2) and of the Laplace constants, for "
                 "every eps0 > 0, eps > 0 (z3 on the formula bodies, z = e^{eps0/2}, y = e^eps; "
                 "exp increasing is the one lemma) [smt]; the whole log deltas searched over "
                 "eps0 in [0.05, 5], eps = s eps0 with s in [0.05, 0.95], k in [2, 1000], n in "
                 "[1, 10^6] [property].",
              _dominance_checks()),
        Claim(7, "The unclipped bound decreases in n for every n > 0: in log delta = P - log n + "
                 "n Q, -1 < e^Q - 1 < 0 for the generic, k-ary RR (k >= 2) and Laplace "
                 "constants, for every eps0 > 0, eps > 0 [smt]; log delta(n + 1) < log delta(n) "
                 "searched over eps0 in [0.05, 5], s in [0.05, 0.95], k in [2, 1000], n in [1, "
                 "10^6] [property].",
              tuple(Smt(q_negative_problem(name), f"Q ({name}) < 0",
                        check_model=q_negative_model_check(name), part=name)
                    for name in CONSTANTS)
              + tuple(Compare(log_delta(name, 1), "lt", log_delta(name), _DOMINANCE_BOX,
                              "property", lhs_name=f"log {name}(n + 1)",
                              rhs_name=f"log {name}(n)", part=name) for name in CONSTANTS)),
        Claim(8, "The eps evaluators invert the delta evaluators: delta(eps(delta)) = delta "
                 "(relative 1e-20) for eps, eps_rr (k in 2..10) and eps_laplace over eps0 in "
                 "[0.2, 2], n in 10^4..10^6, delta in [1e-10, 1e-3] [property].",
              (Compare(round_trip, "eq", lambda ctx, delta, **_: delta, _ROUND_BOX,
                       "property", Tol.rel("1e-20"), "delta_variant(eps_variant(delta))",
                       "delta", ctx="mp"),)),
        Claim(9, "Finding (derived): claim 4 fails for the generic constants. At eps0 = 2, n = "
                 "365 the generic bound is 0.9971767 at eps = 1.98 and 0.9972324 at eps = 1.99: "
                 "below 1 and rising, so min(1, delta) is not nonincreasing in eps there (the "
                 "k-ary RR and Laplace constants satisfy claim 4: claim 10).",
              (Compare(generic_at("lo"), "lt", generic_at("hi"), Points(({},)), "numeric",
                       lhs_name="delta(2, 365, 1.98)", rhs_name="delta(2, 365, 1.99)"),
               Compare(generic_at("hi"), "lt", lambda ctx, **_: ctx.one, Points(({},)),
                       "numeric", lhs_name="delta(2, 365, 1.99)", rhs_name="1"),
               Compare(generic_at("lo"), "eq", const("0.9971767"), Points(({},)), "numeric",
                       Tol.abs("1e-7"), "delta(2, 365, 1.98)", "0.9971767"),
               Compare(generic_at("hi"), "eq", const("0.9972324"), Points(({},)), "numeric",
                       Tol.abs("1e-7"), "delta(2, 365, 1.99)", "0.9972324")),
              scope="instance"),
        Claim(10, "Claim 4 where it holds (derived): min(1, delta) is nonincreasing in n for the "
                  "generic, k-ary RR (real k >= 2) and Laplace constants for every eps0 > 0, eps "
                  "> 0, n > 0 (Q < 0) [smt]; and nonincreasing in eps on (0, eps0) for every n "
                  "in [100, 10^4] (real), for eps0 in (0, 2] with the k-ary RR (k in 2..10) and "
                  "Laplace constants and eps0 in (0, 1.95] with the generic ones (not up to 2: "
                  "claim 9). Route for eps: at every point delta > 1 or d delta/d eps < 0 (then "
                  "{delta < 1} is one interval ending at eps0 on which delta decreases); for "
                  "e^eps <= 3 d log delta/d eps = P' + n Q' with P' <= 0, Q' < 0 for every eps0, "
                  "k, n [smt]; for eps in [1.098, eps0] n is eliminated (P' + n Q' decreases in "
                  "n) and the condition is certified over eps0 in [1.098, 2] (generic: [1.098, "
                  "1.95]) by branch and bound [interval].",
              corrected_monotone_checks()),
    ),
    notes="The generic bound holds for every pure eps0-LDP randomizer; the RR and Laplace "
          "versions use those randomizers' own blanket constants and apply only to them. The "
          "authors' code clips delta to [10 tol, 1] and returns its floor for eps >= eps0; the "
          "evaluators return the unclipped value and refuse eps outside (0, eps0). Claim 4 "
          "(the catalogue's) is false for the generic constants: claim 9 certifies a "
          "counterexample (its property search does not reach that narrow region), so claim 4 "
          "is encoded as the catalogue states it and expected refuted; claim 10 proves the "
          "statement where it holds.",
)

# ------------------------------------------------------------------------------------------
# FMT21-CLONES


_FMT_BOX = Box(reals={"eps0": ("0.01", "10"), "n": ("10", "1e9"), "delta": ("1e-30", "0.5")},
               log_scale=frozenset({"eps0", "n", "delta"}))
# n = t * 16 e^{eps0} log(2/delta): t >= 1 is the regime of Thm 3.1, t = 1 its edge
_EDGE_BOX = Box(reals={"eps0": ("0.2", "10"), "t": ("1", "1e12"), "delta": ("1e-40", "1e-4")},
                log_scale=frozenset({"t", "delta"}))


def _fmt_at_t(ctx: Any, eps0: Any, t: Any, delta: Any, **_: Any) -> Any:
    n = t * 16 * ctx.exp(eps0) * ctx.log(2 / delta)
    return sb.fmt21_eps_value(ctx, eps0, n, delta)


def _fmt_edge(ctx: Any, n: int, delta: Any, **_: Any) -> Any:
    return sb.fmt21_eps(ctx, sb.fmt21_eps0_max(ctx, n, delta), n, delta)


_EDGE_POINTS = Points(({"n": 1000, "delta": "1e-6"}, {"n": 10**4, "delta": "1e-6"},
                       {"n": 10**5, "delta": "1e-8"}))


_FMT_NUM_POINTS = Points(tuple(
    {"n": n, "eps0": e, "delta": d} for n in (1000, 10**4) for e in ("0.1", "0.5", "1", "2")
    for d in ("1e-6", "1e-8") if (n, e) != (1000, "2")))


def _fmt_value(f: Any) -> Any:
    return lambda ctx, eps0, n, delta, **_: f(ctx, eps0, n, delta)


FMT21_CLONES = Theorem(
    id="FMT21-CLONES",
    title="Hiding among the clones: closed-form amplification bound",
    family=FAMILY,
    source=cite(FMT21, "Thm 3.1 (number and formula as cited in the SmartNoise/OpenDP Rust "
                "compose_epsilon_theoretical, \"theorem 3.1\"; the paper's wording not read "
                "[UNCERTAIN]); the variant read in apple/ml-shuffling-amplification (commit "
                "993d285) computeamplification.closedformanalysis"),
    types=("BOUND",),
    confidence=("CONFIRMED", "UNCERTAIN"),
    statement="For eps0-DP local randomizers (adaptive sequence allowed) and delta in (0, 1) "
              "with eps0 <= log(n/(16 log(2/delta))), the shuffled output of n users is (eps, "
              "delta)-DP with eps = log(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 "
              "log(4/delta))/sqrt(n) + 8 e^eps0/n)). Authors'-code variant: a = 8 sqrt(e^eps0 "
              "log(4/delta)/n), c = 8 e^eps0/n, e1 = log(1 + a + c), eps_code = log(1 + (1 - "
              "e^{-eps0})/(1 + e^{-eps0 - e1}) (a + c)), regime eps0 <= log(n/(16 log(4/delta))).",
    domain="eps0 > 0, n >= 1 integer, delta in (0, 1) with eps0 <= log(n/(16 log(2/delta))) "
           "(log(4/delta) for eps_code); a point outside the regime is refused",
    evaluators=(
        Evaluator("eps", (EPS0_LOCAL, N_USERS, DELTA), sb.fmt21_eps, "the Thm 3.1 form"),
        Evaluator("eps_code", (EPS0_LOCAL, N_USERS, DELTA), sb.fmt21_eps_code,
                  "the authors'-code variant (closedformanalysis)"),
        Evaluator("eps0_max", (N_USERS, DELTA), sb.fmt21_eps0_max,
                  "log(n/(16 log(2/delta))), the regime edge of Thm 3.1"),
    ),
    claims=(
        Claim(1, "Public worked value (apple/ml-shuffling-amplification README and example.py): "
                 "eps_code(4, 10^5, 1e-6) = 0.5378040242374513 (the README prints "
                 "0.5378040242374512); the Thm 3.1 form gives 0.5346339916517076 (to 1e-16).",
              (Compare(_fmt_value(sb.fmt21_eps_code), "eq", const("0.5378040242374513"),
                       Points(({"eps0": "4", "n": 10**5, "delta": "1e-6"},)), "numeric",
                       Tol.abs("1e-16"), "FMT21-CLONES.eps_code", "0.5378040242374513"),
               Compare(_fmt_value(sb.fmt21_eps), "eq", const("0.5346339916517076"),
                       Points(({"eps0": "4", "n": 10**5, "delta": "1e-6"},)), "numeric",
                       Tol.abs("1e-16"), "FMT21-CLONES.eps", "0.5346339916517076")),
              scope="instance"),
        Claim(2, "eps <= eps_code for every eps0 > 0, n > 0, delta in (0, 1) (z3 on the formula "
                 "bodies; the difference of the log1p arguments factors as 64 z^2 (z^2 - 1)(n r + "
                 "z)^2/(n (z^2 + 1)(8 n r z^3 + n z^2 + n + 8 z^4)), z = e^{eps0/2}, r = "
                 "sqrt(z^2 log(4/delta)/n)) [smt]; searched over eps0 in [0.01, 10], n in [10, "
                 "10^9] (real), delta in [1e-30, 1/2] [property].",
              (Smt(fmt_code_problem, "A(eps) <= A(eps_code) for the arguments of log1p"),
               Compare(_fmt_value(sb.fmt21_eps_value), "le", _fmt_value(sb.fmt21_eps_code_value),
                       _FMT_BOX, "property", lhs_name="Thm 3.1 eps", rhs_name="eps_code"))),
        Claim(3, "eps >= FMT21-NUM.eps (closed form above the numerical method) on the 14 "
                 "in-regime configurations of n in {10^3, 10^4}, eps0 in {0.1, 0.5, 1, 2}, delta "
                 "in {1e-6, 1e-8}: the ratio closed/numerical lies in [2.709, 5.676], with 2.710 "
                 "at (n, eps0, delta) = (10^3, 1, 1e-8) and 5.675 at (10^4, 0.1, 1e-6) (to "
                 "1e-3). The bounds on the ratio are checked as FMT21-NUM.delta at CLONES/2.709 <= "
                 "delta and at CLONES/5.676 > delta (delta is nonincreasing in eps).",
              (Compare(num_delta_at_clones_over("2.709"), "le", lambda ctx, delta, **_: delta,
                       _FMT_NUM_POINTS, "numeric",
                       lhs_name="FMT21-NUM.delta(FMT21-CLONES.eps / 2.709)", rhs_name="delta"),
               Compare(num_delta_at_clones_over("5.676"), "gt", lambda ctx, delta, **_: delta,
                       _FMT_NUM_POINTS, "numeric",
                       lhs_name="FMT21-NUM.delta(FMT21-CLONES.eps / 5.676)", rhs_name="delta"),
               Compare(clones_over_num, "eq",
                       lambda ctx, n, **_: ctx.num({1000: "2.710", 10**4: "5.675"}[n]),
                       Points(({"n": 1000, "eps0": "1", "delta": "1e-8"},
                               {"n": 10**4, "eps0": "0.1", "delta": "1e-6"})), "numeric",
                       Tol.abs("1e-3"), "closed/numerical", "catalogue extremes")),
              scope="instance"),
        Claim(4, "At the regime edge eps0 = eps0_max(n, delta) the bound stays below eps0: "
                 "(10^3, 1e-6): eps0_max = 1.460421000084936, eps = 0.8317303578477; (10^4, "
                 "1e-6): 3.763006093078982 vs 1.094344728970; (10^5, 1e-8): 5.789924694516064 "
                 "vs 1.114986193569.",
              (Compare(lambda ctx, n, delta, **_: sb.fmt21_eps0_max(ctx, n, delta), "eq",
                       lambda ctx, n, **_: ctx.num({1000: "1.460421000084936",
                                                    10**4: "3.763006093078982",
                                                    10**5: "5.789924694516064"}[n]),
                       _EDGE_POINTS, "numeric", Tol.abs("1e-15"), "eps0_max", "catalogue"),
               Compare(_fmt_edge, "eq",
                       lambda ctx, n, **_: ctx.num({1000: "0.8317303578477",
                                                    10**4: "1.094344728970",
                                                    10**5: "1.114986193569"}[n]),
                       _EDGE_POINTS, "numeric", Tol.abs("1e-12"), "eps at the edge",
                       "catalogue"),
               Compare(_fmt_edge, "lt", lambda ctx, n, delta, **_: sb.fmt21_eps0_max(
                           ctx, n, delta), _EDGE_POINTS, "numeric", lhs_name="eps at the edge",
                       rhs_name="eps0_max")),
              scope="instance"),
        Claim(5, "Non-vacuous in the whole regime for eps0 >= 0.2 (derived): with n = t 16 "
                 "e^eps0 log(2/delta), eps < eps0 over eps0 in [0.2, 10], t in [1, 10^12], delta "
                 "in [1e-40, 1e-4] [interval, property].",
              (Compare(_fmt_at_t, "lt", lambda ctx, eps0, **_: eps0, _EDGE_BOX, "interval",
                       lhs_name="FMT21-CLONES eps", rhs_name="eps0"),
               Compare(_fmt_at_t, "lt", lambda ctx, eps0, **_: eps0, _EDGE_BOX, "property",
                       lhs_name="FMT21-CLONES eps", rhs_name="eps0"))),
        Claim(6, "Vacuous at the edge for small eps0 (derived): at eps0 = 0.05, n = 16 e^{0.05} "
                 "log(2/delta) (the regime edge), delta = 1e-6, the bound is 1.01445 eps0 > "
                 "eps0, and at delta = 1e-4, eps0 = 0.1 it is 1.00638 eps0.",
              (Compare(_fmt_at_t, "gt", lambda ctx, eps0, **_: eps0,
                       Points(({"eps0": "0.05", "t": 1, "delta": "1e-6"},
                               {"eps0": "0.1", "t": 1, "delta": "1e-4"})), "numeric",
                       lhs_name="FMT21-CLONES eps at the edge", rhs_name="eps0"),),
              scope="instance"),
    ),
    notes="The authors' code prints a warning and returns eps0 outside its regime; the "
          "evaluators refuse. OpenDP's approximate-DP extension (\"theorem 3.8\") is not encoded. "
          "Two third-party restatements found by exact-string search in public repositories "
          "(paths not shown) give the same Thm 3.1 expression, one with the regime eps0 <= "
          "log(n/(16 log(2/delta))); the paper's text (arXiv 2012.12803) was not read. "
          "Claim 6 is a finding: "
          "the catalogue's claim 4 (non-vacuous at the edge) holds at its three points and for "
          "eps0 >= 0.2 (claim 5), not for small eps0.",
)
