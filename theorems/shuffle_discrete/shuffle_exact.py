"""FMT21-NUM (the exact hockey-stick of the FMT21 clone pair) and SHUFFLE-RR-EXACT (the exact
privacy of shuffled binary and k-ary randomized response).

Formulas: :mod:`dpverify.theorems.formulas.shuffle_exact` (engine
:mod:`dpverify.theorems.numerics.shuffle`); the closed forms compared against are in
:mod:`dpverify.theorems.formulas.shuffle_bounds`.

Terms, exhaustive predicates, SMT problems and the finite domains (exact rationals ``x0 =
e^eps0``, ``x = e^eps``) are in :mod:`.exact_checks`.
"""

from __future__ import annotations

from typing import Any

from dpverify.theorems.claims import (
    Box,
    Claim,
    Compare,
    Points,
    Predicate,
    Smt,
    Tol,
)
from dpverify.theorems.core import Evaluator, Theorem
from dpverify.theorems.formulas.shuffle_bounds import bbgn19_delta_rr, fmt21_eps
from dpverify.theorems.formulas.shuffle_exact import (
    fmt21_num_delta,
    fmt21_num_eps,
    shuffle_rr_delta,
    shuffle_rr_eps,
)
from dpverify.theorems.params import DELTA, EPS, EPS0_LOCAL
from dpverify.theorems.refs import FMT21, cite
from dpverify.theorems.shuffle_discrete.clone_region import (
    CLONE_MONO_DOMAIN,
    CLONE_N_DOMAIN,
    CLONE_RR_DOMAIN,
    clone_dominates_rr,
    clone_monotone_everywhere,
    kernel_problem,
    recurrence_is_double_sum_everywhere,
)
from dpverify.theorems.shuffle_discrete.exact_checks import (
    FAMILY,
    FMT21_DELTA,
    FMT21_EPS,
    K_RR,
    N_CLONES,
    N_CLONES_EPS,
    N_RR,
    N_RR_EPS,
    PAIR_POINTS,
    RR_DELTA,
    RR_SMT_MAX_N,
    SMALL_RANDOM,
    X_DOMAIN,
    binary_is_enumeration,
    clone_above_rr,
    clone_above_rr_random,
    clone_monotone,
    column,
    const,
    double_sum,
    eps_value_checks,
    half_eps,
    kary_below_local,
    pts,
    recurrence_is_double_sum,
    round_trip,
    rr_below_local_problem,
    rr_kary_k2,
    rr_monotone,
    s_eps,
    shift_n,
    threshold_problem,
    worst_c_is,
    worst_m_is,
    zero_beyond_problem,
)
from dpverify.theorems.shuffle_discrete.mutation_guards import (
    BINOMIAL_TAIL_BOX,
    COUNT_VECTORS_DOMAIN,
    WINDOW_BOX,
    binomial_tail_sandwich,
    binomial_window_leftover,
    count_vectors_are_canonical,
)
from dpverify.theorems.shuffle_discrete.rr_region import (
    KARY_DOMAIN,
    N_DOMAIN,
    RR_MONO_DOMAIN,
    kary_below_local_everywhere,
    laws_problem,
    rr_monotone_everywhere,
    step_problem,
    terms_identity,
)

# ------------------------------------------------------------------------------------------
# FMT21-NUM

_RR_POINTS_BINARY = (("1", 10, "0.3"), ("1", 20, "0.5"), ("2", 50, "1"), ("1", 50, "0.5"),
                     ("1", 100, "0.3"), ("3", 100, "1"), ("1", 200, "0.5"), ("0.5", 200, "0.2"))
_RR_POINTS_KARY = (("1", 10, 3, "0.3"), ("2", 10, 3, "0.5"), ("1", 8, 4, "0.3"))
SOUNDNESS_POINTS = Points(
    tuple({"eps0": e0, "n": n, "eps": e, "k": 2} for e0, n, e in _RR_POINTS_BINARY)
    + tuple({"eps0": e0, "n": n, "eps": e, "k": k} for e0, n, k, e in _RR_POINTS_KARY))
GRID_NOTE = (" (a grid of the real parameters eps0, eps, not their whole domain: certified "
             "there, not proved)")

CLONES_CONFIGS = Points(tuple(
    {"eps0": e0, "n": n, "delta": d}
    for n in (1000, 10000) for e0 in ("0.1", "0.5", "1", "2") for d in ("1e-6", "1e-8")
    if not (n == 1000 and e0 == "2")))


def _fmt21_at_clones_eps(ctx: Any, eps0: Any, n: int, delta: Any, **_: Any) -> Any:
    """FMT21-NUM.delta at eps = FMT21-CLONES.eps: <= delta iff FMT21-NUM.eps <= CLONES.eps
    (delta is nonincreasing in eps, and the least eps is where it first reaches delta)."""
    return fmt21_num_delta(ctx, eps0, n, fmt21_eps(ctx, eps0, n, delta))


_MONO_BOX = Box(reals={"eps0": ("0.05", "3"), "eps": ("0", "3")}, ints={"n": (1, 300)},
                constraint=lambda p: p["eps"] <= p["eps0"])


_RT_BOX_FMT21 = Box(reals={"eps0": ("0.2", "2"), "s": ("0.02", "0.5")}, ints={"n": (1, 150)})
_RT_BOX_RR = Box(reals={"eps0": ("0.2", "2"), "s": ("0.02", "0.5")}, ints={"n": (1, 12)})

FMT21_NUM = Theorem(
    id="FMT21-NUM",
    title="Hiding among the clones: numerical bound (exact hockey-stick of the clone pair)",
    family=FAMILY,
    source=cite(FMT21, "Thm 3.2 (reduction to the clone pair; number recalled by the "
                "catalogue) and App. E; pair and algorithm read in apple/ml-shuffling-"
                "amplification computeamplification.onestep/deltacomp/numericalanalysis "
                "(993d285); the O(n) recurrence derived"),
    types=("BOUND", "EXACT"),
    confidence=("CONFIRMED", "DERIVED"),
    statement="w = e^eps0/(e^eps0 + 1), C ~ Bin(n-1, e^-eps0), A ~ Bin(C, 1/2), Delta ~ "
              "Bern(w); P = (A + Delta, C - A + 1 - Delta), Q = (A + 1 - Delta, C - A + Delta). "
              "If P, Q are (eps, delta)-indistinguishable, shuffling n eps0-DP randomizers is "
              "(eps, delta)-DP. delta(eps) = sum_c Bin(n-1, e^-eps0)(c) H_c, H_c = sum_{a < "
              "beta(c+1)} P_c(a) - e^eps Q_c(a), beta = (x0 - x)/((x0 - 1)(1 + x)) with x0 = "
              "e^eps0, x = e^eps (the catalogue's R/(1 + R)); delta(eps) = 0 for eps >= eps0.",
    domain="eps0 > 0, n >= 1 integer, eps >= 0 (delta = 0 beyond eps0), delta in (0, 1)",
    evaluators=(
        Evaluator("delta", (EPS0_LOCAL, N_CLONES, EPS), fmt21_num_delta,
                  "the exact sum by the O(1)-per-c recurrence over a window of c whose "
                  "omitted binomial mass (< 2^-(prec+30)) is enclosed"),
        Evaluator("eps", (EPS0_LOCAL, N_CLONES_EPS, DELTA), fmt21_num_eps,
                  "least eps in [0, eps0] with delta <= target: a bracket certified on both "
                  "sides (regula falsi with bisection safeguard)"),
    ),
    claims=(
        Claim(1, "The O(n) recurrence equals the direct double sum over (c, a) to 1e-45: "
                 "delta(1, 50, 0.5) = 0.001115248542341369.",
              (Compare(FMT21_DELTA, "eq", double_sum,
                       Points(({"eps0": "1", "n": 50, "eps": "0.5"},)), "oracle",
                       Tol.abs("1e-45"), "recurrence", "double sum"),
               Compare(FMT21_DELTA, "eq", const("0.001115248542341369"),
                       Points(({"eps0": "1", "n": 50, "eps": "0.5"},)), "numeric",
                       Tol.abs("1e-18"))),
              scope="instance"),
        Claim(2, "Authors' README example (n = 10^5, eps0 = 4, delta = 1e-6): eps = "
                 "0.1697697472554856 (to 1e-15), inside the README interval "
                 "[0.1675385583317841, 0.172790550755978] and the code's step-1 interval "
                 "[0.1697697229248590, 0.1769730810561419].",
              eps_value_checks("4", 100000, "1e-6", "0.1697697472554856",
                                ("0.1675385583317841", "0.172790550755978"),
                                ("0.1697697229248590", "0.1769730810561419")),
              scope="instance"),
        Claim(3, "Configuration A (n = 10^4, eps0 = 0.5, delta = 1e-6): eps = "
                 "0.02040145509731913, inside the code's step-1 interval [0.02040143396327957, "
                 "0.02153355978840827]; (n, eps0, delta) = (1000, 1, 1e-6): eps = "
                 "0.1824123474805822, inside [0.1824076204699445, 0.1902451298080133] (to "
                 "1e-15). The code's upper ends are loose.",
              eps_value_checks("0.5", 10000, "1e-6", "0.02040145509731913",
                                ("0.02040143396327957", "0.02153355978840827"))
              + eps_value_checks("1", 1000, "1e-6", "0.1824123474805822",
                                  ("0.1824076204699445", "0.1902451298080133")),
              scope="instance"),
        Claim(4, "Soundness against the exact oracle: delta(eps0, n, eps) >= the exact shuffled "
                 "binary and k-ary RR delta (SHUFFLE-RR-EXACT) at every configuration of "
                 "SHUFFLE-RR-EXACT claims 1-3 (11 points, arb).",
              (Compare(FMT21_DELTA, "ge", RR_DELTA, SOUNDNESS_POINTS, "oracle",
                       lhs_name="FMT21-NUM.delta", rhs_name="SHUFFLE-RR-EXACT.delta"),),
              scope="instance"),
        Claim(5, "eps(eps0, n, delta) <= eps0 always: proved for every eps0 > 0, n, delta by "
                 "z3 (every term alpha b_c(a) + gamma b_c(a-1) of the sum is <= 0 once x = "
                 "e^eps >= x0 = e^eps0, so delta(eps0) = 0), and searched [property]; and <= "
                 "FMT21-CLONES.eps at the 14 in-regime configurations (n in {10^3, 10^4}, eps0 "
                 "in {0.1, 0.5, 1, 2}, delta in {1e-6, 1e-8}), certified there only, as "
                 "FMT21-NUM.delta(eps = CLONES.eps) <= delta (delta is nonincreasing in eps).",
              (Smt(zero_beyond_problem, "alpha b1 + gamma b0 <= 0 for x >= x0 > 1, b >= 0",
                   part="eps <= eps0"),
               Compare(FMT21_EPS, "le", lambda ctx, eps0, **_: eps0,
                       Box(reals={"eps0": ("0.05", "4"), "delta": ("1e-12", "0.5")},
                           ints={"n": (1, 200)}, log_scale=frozenset({"delta"})),
                       "property", lhs_name="FMT21-NUM.eps", rhs_name="eps0",
                       part="eps <= eps0"),
               Compare(_fmt21_at_clones_eps, "le", lambda ctx, delta, **_: delta,
                       CLONES_CONFIGS, "numeric",
                       lhs_name="FMT21-NUM.delta(eps0, n, FMT21-CLONES.eps)",
                       rhs_name="delta", part="eps <= FMT21-CLONES.eps"))),
        Claim(6, "The recurrence equals the direct double sum EXACTLY, as functions of every "
                 "real x0 = e^eps0 > 1 and 1 <= x = e^eps <= x0, at each n in 1..12: on each "
                 "cell of beta in [0, 1/2] between the fractions a/(c + 1), c + 1 <= n, every "
                 "branch is fixed (the thresholds; the signs of the terms, by claim 7) and both "
                 "sides are rational functions affine in x, compared exactly in Q(x0) at two "
                 "values of x (the product's code on exact rational functions, every n of the "
                 "finite domain; continuity covers the cell ends) [oracle]; and exact rationals "
                 "on the grid n in 1..12, " + X_DOMAIN + " (192 cases) [oracle].",
              (Predicate(recurrence_is_double_sum_everywhere, CLONE_N_DOMAIN, "oracle",
                         "recurrence == double sum for every x0 > 1, 1 <= x <= x0 (each cell "
                         "of beta, exact in Q(x0)), n = 1..12"),
               Predicate(recurrence_is_double_sum, PAIR_POINTS, "oracle",
                         "recurrence == double sum on the grid, n = 1..12"))),
        Claim(7, "Threshold form: P_c(a) - x Q_c(a) >= 0 iff a <= beta(c + 1), for every x0 > "
                 "1, 1 <= x <= x0 and real 0 <= a <= c + 1 (z3, on the coefficients the "
                 "product computes), so H_c is the positive-part sum: the likelihood ratio "
                 "crosses e^eps once.",
              (Smt(threshold_problem, "sign of alpha (c + 1 - a) + gamma a is that of "
                   "beta (c + 1) - a"),)),
        Claim(8, "Soundness: the clone-pair delta >= the exact shuffled binary RR delta for "
                 "n in 1..10 and >= the ternary (k = 3) one for n in 1..5, for every real x0 = "
                 "e^eps0 > 1 and x = e^eps >= 0: with w = x0/(x0 + 1), p = 1/x0 the RR rows are "
                 "R(0) = w Q0 + (1 - w) Q1, R(1) = (1 - w) Q0 + w Q1, R(v) = p (Q0 + Q1)/2 + (1 - "
                 "p) L_v with Q0, Q1, L_v >= 0, and both orders of every RR pair are the clone "
                 "pair moved by one kernel (exact identities and sign certificates in Q(x0) on "
                 "the product's code, every (k, n) of the finite domain) [oracle]; a kernel does "
                 "not increase sum pos(.) [smt]. Also exact rationals on the grid " + X_DOMAIN
                 + GRID_NOTE + ", and random exact instances (n <= 14) [oracle].",
              (Predicate(clone_dominates_rr, CLONE_RR_DOMAIN, "oracle",
                         "RR pair = kernel(clone pair) in Q(x0), k = 2 n <= 10, k = 3 n <= 5",
                         part="kernel identities"),
               Smt(kernel_problem, "pos(S + k t) <= pos(S) + k pos(t) for k >= 0",
                   part="kernel"),
               Predicate(clone_above_rr, PAIR_POINTS, "oracle",
                         "clone >= binary RR (n <= 10), >= ternary RR (n <= 5)",
                         part="kernel identities"),
               Predicate(clone_above_rr_random, SMALL_RANDOM, "oracle",
                         "clone >= RR on random exact instances", part="kernel identities"))),
        Claim(9, "Monotonicity: delta (the clone pair's hockey-stick sum, the double sum of "
                 "claim 6) is nonincreasing in n and in eps, for every real x0 = e^eps0 > 1 and "
                 "x = e^eps >= 1, at n in 1..30 (delta(n + 1) <= delta(n) for n <= 30): every "
                 "Q(c, a) >= 0, so each pos(P - x Q) is nonincreasing in x; the laws at n + 1 "
                 "are those at n moved by one more clone, (1 - p) L(c, a) + (p/2)(L(c-1, a) + "
                 "L(c-1, a-1)), the same kernel for P and Q (exact identities and sign "
                 "certificates in Q(x0), every n of the finite domain) [oracle], and a kernel "
                 "with weights >= 0 does not increase sum pos(.) [smt]. Also exact rationals on "
                 "the grid n in 1..30, " + X_DOMAIN + " (next x of the grid) [oracle]; searched "
                 "over eps0 in [0.05, 3], eps in [0, eps0], n in 1..300 [property] (delta(n) >= "
                 "delta(n + 1) and delta(eps) >= delta((eps + eps0)/2)).",
              (Predicate(clone_monotone_everywhere, CLONE_MONO_DOMAIN, "oracle",
                         "Q >= 0 and L_{n+1} = K L_n in Q(x0), n = 1..30", part="laws"),
               Smt(kernel_problem, "pos(sum k_i t_i) <= sum k_i pos(t_i) for k >= 0",
                   part="kernel"),
               Predicate(clone_monotone, PAIR_POINTS, "oracle",
                         "nonincreasing in n and in x", part="laws"),
               Compare(FMT21_DELTA, "ge", shift_n(FMT21_DELTA), _MONO_BOX, "property",
                       lhs_name="delta(n)", rhs_name="delta(n + 1)", part="laws"),
               Compare(FMT21_DELTA, "ge", half_eps(FMT21_DELTA), _MONO_BOX, "property",
                       lhs_name="delta(eps)", rhs_name="delta((eps + eps0)/2)", part="laws"))),
        Claim(10, "Round trip: eps(eps0, n, delta(eps0, n, s eps0)) = s eps0 (to 1e-12) over "
                  "eps0 in [0.2, 2], s in [0.02, 0.5], n in 1..150 [property].",
              (Compare(round_trip("fmt21_delta", "fmt21_eps"), "eq", s_eps, _RT_BOX_FMT21,
                       "property", Tol.abs("1e-12"), "eps(delta(eps))", "eps"),)),
        Claim(11, "The binomial mass left out below the window is enclosed soundly and tightly: "
                  "S <= B(c0) r/(1 - r) <= S/(1 - r) with S = sum_{c < c0} B(c) summed "
                  "directly, B = Bin(n - 1, e^-eps0), r = B(c0 - 1)/B(c0), for c0 below the "
                  "mode, eps0 in [0.2, 3], n in 20..400 [property].",
               (Compare(binomial_tail_sandwich, "ge", lambda ctx, **_: ctx.zero,
                        BINOMIAL_TAIL_BOX, "property",
                        lhs_name="min(bound - S, S/(1 - r) - bound)/S", rhs_name="0"),)),
        Claim(12, "The window of c leaves out a negligible mass: the pmf of Bin(n - 1, "
                  "e^-eps0) outside the window chosen for 200 bits, summed directly, is at most "
                  "2^-230, for eps0 in [0.2, 3], n in 2..400 [property].",
               (Compare(binomial_window_leftover, "le", lambda ctx, **_: ctx.one, WINDOW_BOX,
                        "property", lhs_name="2^230 x mass outside the window",
                        rhs_name="1"),)),
    ),
    notes="Checked in the authors' code (computeamplification.py, 993d285/3fde493): onestep's "
          "cut-off beta = 1/(e^effeps + 1) with effeps = log(((e^eps + 1) w - 1)/((1 + e^eps) w "
          "- e^eps)) equals (x0 - x)/((x0 - 1)(1 + x)) exactly, and its P_c(a) = w b_c(a) + "
          "(1 - w) b_c(a - 1) is the encoded pair (the catalogue's 'A + Delta, Delta ~ "
          "Bern(w)' labels the other point of the symmetric pair; same delta). deltacomp's "
          "upper-bound branch reads max(deltaq_upperc, deltaq_upperc) (lowerc never used for "
          "the Q side); harmless for its output because the pair is symmetric and the P side is "
          "computed correctly. The code sums blocks of `step` values of c with endpoint bounds "
          "and exits early; its upper end overstates eps (claims 2, 3): an accountant reporting "
          "the code's lower end is not certified, the upper end is conservative.",
)

# ------------------------------------------------------------------------------------------
# SHUFFLE-RR-EXACT

_BINARY = {("1", 10, "0.3", 2): ("0.05180966779980323", "0.09170812217459043", 0),
           ("1", 20, "0.5", 2): ("0.004234543726168949", "0.01530802816612439", 1),
           ("2", 50, "1", 2): ("0.003928639676674391", "0.02718998580359078", None),
           ("1", 50, "0.5", 2): ("0.0001033518875903887", "0.001115248542341369", 48),
           ("1", 100, "0.3", 2): ("0.0001803214882746366", "0.001718313464117902", None),
           ("3", 100, "1", 2): ("0.01907505664754814", "0.09616736264567439", None)}
_KARY = {("1", 10, "0.3", 3): ("0.04544678201629437", "0.09170812217459043", (0, 0, 9)),
         ("2", 10, "0.5", 3): ("0.2264240069300101", "0.3762111369673575", None),
         ("1", 8, "0.3", 4): ("0.04586549905112924", "0.1137070632023083", (0, 0, 0, 7))}
_N200 = {("1", 200, "0.5", 2): ("4.001890618558e-11", "7.532641684070e-8", "9.631379743e-9", 199),
         ("0.5", 200, "0.2", 2): ("4.092087019034e-10", "3.280051386720e-8", "3.735547141e-8", 0)}


_RR_MONO_BOX = Box(reals={"eps0": ("0.2", "3"), "eps": ("0", "3")}, ints={"n": (2, 60)},
                   constraint=lambda p: p["eps"] <= p["eps0"])

SHUFFLE_RR_EXACT = Theorem(
    id="SHUFFLE-RR-EXACT",
    title="Exact privacy of shuffled binary and k-ary randomized response (oracle)",
    family=FAMILY,
    source=cite(FMT21, "derived (direct enumeration; catalogue SHUFFLE-RR-EXACT): the shuffled "
                "output of n reports is their histogram; cited for the shuffle model only"),
    types=("EXACT",),
    confidence=("DERIVED",),
    statement="k-ary RR(eps0) reports the true value w.p. e^eps0/(e^eps0 + k - 1). Replace-one "
              "neighbours (user 1 holds 0 or 1), the others summarized by counts c (sum c = n - "
              "1): delta_n(eps) = max_c max{H_{e^eps}(Hist(c + e_0) || Hist(c + e_1)), "
              "H_{e^eps}(Hist(c + e_1) || Hist(c + e_0))}. Binary: X_m = Bin(m, w) + Bin(n - 1 "
              "- m, 1 - w), P(K = j) = w X_m(j) + (1 - w) X_m(j - 1), Q(K = j) = (1 - w) X_m(j) "
              "+ w X_m(j - 1), maximum over m in 0..n-1.",
    domain="eps0 > 0; k >= 2; eps >= 0; enumeration limits: n <= 500 for k = 2, C(n+k-2, "
           "k-1) C(n+k-1, k-1) <= 10^5 for k >= 3 (refused up front)",
    evaluators=(
        Evaluator("delta", (EPS0_LOCAL, N_RR, EPS, K_RR), shuffle_rr_delta,
                  "exact: binary m-formula (k = 2), enumeration over count vectors (k >= 3)"),
        Evaluator("eps", (EPS0_LOCAL, N_RR_EPS, DELTA, K_RR), shuffle_rr_eps,
                  "least eps >= 0 with delta_n(eps) <= target: a bracket certified on both "
                  "sides"),
    ),
    claims=(
        Claim(1, "Binary, exact vs FMT21-NUM.delta at the same (n, eps0, eps), each value to "
                 "1e-15 relative: (10, 1, 0.3): 0.05180966779980323 (m* = 0) <= "
                 "0.09170812217459043; (20, 1, 0.5): 0.004234543726168949 (m* = 1) <= "
                 "0.01530802816612439; (50, 2, 1): 0.003928639676674391 <= 0.02718998580359078; "
                 "(50, 1, 0.5): 0.0001033518875903887 (m* = 48) <= 0.001115248542341369; (100, "
                 "1, 0.3): 0.0001803214882746366 <= 0.001718313464117902; (100, 3, 1): "
                 "0.01907505664754814 <= 0.09616736264567439. m* is determined only up to m <-> "
                 "n - 1 - m (the pair at n - 1 - m is the pair at m reversed): m* = 48 at n = 50 "
                 "is the mirror of m = 1.",
              (Compare(RR_DELTA, "eq", column(_BINARY, 0), pts(_BINARY), "oracle",
                       Tol.rel("1e-15"), "SHUFFLE-RR-EXACT.delta", "catalogue value"),
               Compare(FMT21_DELTA, "eq", column(_BINARY, 1), pts(_BINARY), "oracle",
                       Tol.rel("1e-15"), "FMT21-NUM.delta", "catalogue value"),
               Compare(RR_DELTA, "le", FMT21_DELTA, pts(_BINARY), "oracle",
                       lhs_name="SHUFFLE-RR-EXACT.delta", rhs_name="FMT21-NUM.delta"),
               Predicate(worst_m_is, Points(tuple(
                   {"eps0": e0, "n": n, "eps": e, "m": row[2]}
                   for (e0, n, e, _), row in _BINARY.items() if row[2] is not None)),
                   "oracle", "the maximum over m is at m* (or its mirror), all others below")),
              scope="instance"),
        Claim(2, "k-ary: (n, eps0, k, eps) = (10, 1, 3, 0.3): 0.04544678201629437 (worst c = "
                 "(0, 0, 9)) <= 0.09170812217459043; (10, 2, 3, 0.5): 0.2264240069300101 <= "
                 "0.3762111369673575; (8, 1, 4, 0.3): 0.04586549905112924 (worst c = (0, 0, 0, "
                 "7)) <= 0.1137070632023083 (values to 1e-15 relative; worst c up to the "
                 "symmetries of the values 2..k-1).",
              (Compare(RR_DELTA, "eq", column(_KARY, 0), pts(_KARY), "oracle",
                       Tol.rel("1e-15"), "SHUFFLE-RR-EXACT.delta", "catalogue value"),
               Compare(FMT21_DELTA, "eq", column(_KARY, 1), pts(_KARY), "oracle",
                       Tol.rel("1e-15"), "FMT21-NUM.delta", "catalogue value"),
               Compare(RR_DELTA, "le", FMT21_DELTA, pts(_KARY), "oracle",
                       lhs_name="SHUFFLE-RR-EXACT.delta", rhs_name="FMT21-NUM.delta"),
               Predicate(worst_c_is, Points(tuple(
                   {"eps0": e0, "n": n, "eps": e, "k": k, "c": row[2]}
                   for (e0, n, e, k), row in _KARY.items() if row[2] is not None)),
                   "oracle", "the maximizing count vector")),
              scope="instance"),
        Claim(3, "n = 200, binary: (eps0, eps) = (1, 0.5): 4.001890618558e-11 (m* = 199) <= "
                 "FMT21-NUM 7.532641684070e-8 and <= BBGN19-BLANKET.delta_rr 9.631379743e-9; "
                 "(0.5, 0.2): 4.092087019034e-10 (m* = 0) <= 3.280051386720e-8 and <= "
                 "3.735547141e-8 (values to the digits given).",
              (Compare(RR_DELTA, "eq", column(_N200, 0), pts(_N200), "oracle",
                       Tol.rel("1e-12"), "SHUFFLE-RR-EXACT.delta", "catalogue value"),
               Compare(FMT21_DELTA, "eq", column(_N200, 1), pts(_N200), "oracle",
                       Tol.rel("1e-12"), "FMT21-NUM.delta", "catalogue value"),
               Compare(lambda ctx, eps0, n, eps, **_: bbgn19_delta_rr(ctx, eps0, 2, n, eps), "eq",
                       column(_N200, 2), pts(_N200), "oracle", Tol.rel("1e-9"),
                       "BBGN19-BLANKET.delta_rr", "catalogue value"),
               Compare(RR_DELTA, "le", FMT21_DELTA, pts(_N200), "oracle",
                       lhs_name="SHUFFLE-RR-EXACT.delta", rhs_name="FMT21-NUM.delta"),
               Compare(RR_DELTA, "le",
                       lambda ctx, eps0, n, eps, **_: bbgn19_delta_rr(ctx, eps0, 2, n, eps),
                       pts(_N200), "oracle", lhs_name="SHUFFLE-RR-EXACT.delta",
                       rhs_name="BBGN19-BLANKET.delta_rr"),
               Predicate(worst_m_is, Points(tuple(
                   {"eps0": e0, "n": n, "eps": e, "m": row[3]}
                   for (e0, n, e, _), row in _N200.items())),
                   "oracle", "the maximum over m is at m* (or its mirror)")),
              scope="instance"),
        Claim(4, "Internal consistency: the k-ary enumeration with k = 2 (both orders, every "
                 "count vector) equals the binary m-formula (one order, reversal symmetry) to "
                 "1e-45 at (n, eps0, eps) = (12, 1, 0.3): 0.03909283685117749.",
              (Compare(RR_DELTA, "eq", rr_kary_k2,
                       Points(({"eps0": "1", "n": 12, "eps": "0.3"},)), "oracle",
                       Tol.abs("1e-45"), "m-formula", "k = 2 enumeration"),
               Compare(RR_DELTA, "eq", const("0.03909283685117749"),
                       Points(({"eps0": "1", "n": 12, "eps": "0.3"},)), "numeric",
                       Tol.rel("1e-15"))),
              scope="instance"),
        Claim(5, "Monotonicity: delta_n(eps) is nonincreasing in eps and, for fixed (eps0, "
                 "eps), in n on n = 2..60: proved for every real x0 = e^eps0 > 1 and x = e^eps "
                 ">= 1 at n in 2..30 (delta_{n+1} <= delta_n for n in 2..29): w, v and every law "
                 "X_m are >= 0, so each term alpha X(j) + gamma X(j-1) is nonincreasing in x; "
                 "the terms at n + 1 are those at n moved by one more user (kernel (w, v) or (v, "
                 "w)), exact identities and sign certificates in Q(x0) on the product's code, "
                 "every n of the finite domain [oracle], and a kernel with weights >= 0 does not "
                 "increase sum pos(.) [smt]; certified on the grid n in 2..30, " + X_DOMAIN
                 + " (next x of the grid), exact rationals; for n in 31..60 only searched, over "
                 "eps0 in [0.2, 3], eps in [0, eps0], n in 2..60 [property].",
              (Predicate(rr_monotone_everywhere, RR_MONO_DOMAIN, "oracle",
                         "X >= 0 and terms(n + 1) = kernel terms(n) in Q(x0), n = 2..30",
                         part="laws"),
               Smt(kernel_problem, "pos(sum k_i t_i) <= sum k_i pos(t_i) for k >= 0",
                   part="kernel"),
               Predicate(rr_monotone, PAIR_POINTS, "oracle", "nonincreasing in n and in x",
                         part="laws"),
               Compare(RR_DELTA, "ge", shift_n(RR_DELTA), _RR_MONO_BOX, "property",
                       lhs_name="delta_n", rhs_name="delta_{n+1}", part="laws"),
               Compare(RR_DELTA, "ge", half_eps(RR_DELTA), _RR_MONO_BOX, "property",
                       lhs_name="delta(eps)", rhs_name="delta((eps + eps0)/2)", part="laws"))),
        Claim(6, "The binary m-formula equals the two-order k = 2 enumeration EXACTLY, and "
                 "both are <= the one-user (local RR) delta (x0 - x)/(x0 + 1), for every real x0 "
                 "= e^eps0 > 1 and 1 <= x = e^eps <= x0, at each n in 1..10. Routes: the "
                 "positive-part arguments of the two are the same elements of Q(x0, x) (exact "
                 "field arithmetic on the product's code, each n in 1..10, the whole finite "
                 "domain of n) [oracle]; each pos(alpha X(j) + gamma X(j-1)) <= alpha X(j) for X "
                 ">= 0, the step of the running sums, for every n [smt]; every law X_m of the "
                 "m-formula is >= 0 with mass 1 for every x0 > 1, n in 1..10 [smt]; so H <= "
                 "alpha = (x0 - x)/(x0 + 1). Also z3 on the whole m-formula at n in 1..4 [smt], "
                 "and exact rationals on the grid n in 1..10, " + X_DOMAIN + " [oracle].",
              (Predicate(terms_identity, N_DOMAIN, "oracle",
                         "m-formula terms == k = 2 enumeration terms in Q(x0, x), n = 1..10",
                         part="m-formula == enumeration"),
               Predicate(binary_is_enumeration, PAIR_POINTS, "oracle",
                         "m-formula == enumeration <= local on the grid, n = 1..10",
                         part="m-formula == enumeration"),
               Smt(step_problem, "pos(alpha X(j) + gamma X(j-1)) <= alpha X(j): the running "
                   "sums, every n", part="termwise bound"),
               Smt(laws_problem, "X_m >= 0, sum_j X_m(j) = 1 for x0 > 1, n in 1..10",
                   part="laws of the m-formula"),
               *(Smt(lambda n=n: rr_below_local_problem(n),
                     f"m-formula <= (x0 - x)/(x0 + 1) for every x0 > 1, 1 <= x <= x0, n = {n}",
                     part=f"every real x0, x at n = {n}")
                 for n in range(1, RR_SMT_MAX_N + 1)))),
        Claim(7, "Shuffling is post-processing of the n reports: the k-ary delta_n <= delta_1 "
                 "= (x0 - x)/(x0 + k - 1), with equality at n = 1, for every real x0 = e^eps0 > 1 "
                 "and 1 <= x = e^eps <= x0, at k = 3 with n in 1..5 and k = 4 with n in 1..3: "
                 "with x0 = 1 + e, x = 1 + d, every law of the others is >= 0 with mass 1 and "
                 "every term p(h) - x q(h) is <= (x0 - x)/(x0 + k - 1) law(h - e_i), each "
                 "difference >= 0 by the signs of its coefficients in Q(e, d) (exact field "
                 "arithmetic on the product's code, every (k, n) of the finite domain) [oracle]; "
                 "also exact rationals on the grid " + X_DOMAIN + " [oracle].",
              (Predicate(kary_below_local_everywhere, KARY_DOMAIN, "oracle",
                         "delta_n <= delta_1 for every x0 > 1, 1 <= x <= x0 (coefficient signs "
                         "in Q(e, d)), (k, n) in {3} x 1..5 and {4} x 1..3"),
               Predicate(kary_below_local, PAIR_POINTS, "oracle", "delta_n <= delta_1 on the "
                         "grid"))),
        Claim(8, "Round trip: eps(eps0, n, delta(eps0, n, s eps0)) = s eps0 (to 1e-12) over "
                 "eps0 in [0.2, 2], s in [0.02, 0.5], n in 1..12, k = 2 [property].",
              (Compare(round_trip("rr_delta", "rr_eps"), "eq", s_eps, _RT_BOX_RR,
                       "property", Tol.abs("1e-12"), "eps(delta(eps))", "eps"),)),
        Claim(9, "The enumeration runs over the canonical count vectors: the generator yields "
                 "every c with sum c = n - 1, c_0 >= c_1 and c_2 >= ... >= c_{k-1} exactly once "
                 "and nothing else (the values 2..k-1 and the values 0, 1 are symmetric, so "
                 "these represent every c), against a brute-force filter of all compositions "
                 "(stars and bars), for every k in 2..6 and n - 1 in 0..10 (the whole finite "
                 "domain) [oracle].",
              (Predicate(count_vectors_are_canonical, COUNT_VECTORS_DOMAIN, "oracle",
                         "count vectors == canonical compositions, k in 2..6, total in "
                         "0..10"),)),
    ),
    notes="This oracle gives true lower bounds on what any universal shuffle bound (EFMRTT19, "
          "BBGN19-BLANKET, FMT21-*) must allow, because binary and k-ary RR are eps0-DP "
          "randomizers: a universal bound below it is unsound. The catalogue's m* and worst c "
          "are determined only up to the symmetries (m <-> n - 1 - m; the values 2..k-1).",
)
