"""Cost limits of evaluators whose cost grows with a parameter beyond what the shared domains
of :mod:`theorems.params` bound, and what an evaluator's value can be (non-negative, +inf).

Tables keyed by ``"ID.evaluator"`` until the entries move into the :class:`Evaluator`
declarations of the family modules. Each limit names the parameter, its largest accepted value
and the reason (the measured cost that sets it); :func:`check` is applied by
:func:`theorems.core.bind`, so ``dpverify eval``, the public ``evaluate`` and every caller of
``bind`` refuse the work up front (exit 2 naming the parameter and the limit).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from dpverify.theorems.display import short_fraction
from dpverify.theorems.errors import InvalidParameter


@dataclass(frozen=True)
class Limit:
    """``param`` (a number, or the length of a list) may be at most ``most``."""

    param: str
    most: int | Fraction
    reason: str

    def check(self, key: str, bound: Mapping[str, Any]) -> None:
        if self.param not in bound:
            return
        v = bound[self.param]
        is_list = isinstance(v, tuple | list)
        size = len(v) if is_list else v
        if size > self.most:
            what = (f"{self.param} must have at most {self.most} entries" if is_list
                    else f"{self.param} must be at most {self.most}")
            shown = size if isinstance(size, int) else short_fraction(size)
            raise InvalidParameter(f"{what} for {key} ({self.reason}); got {shown}")


@dataclass(frozen=True)
class RatioLimit:
    """``num / den`` may be at most ``most`` (e.g. the number of steps a search for the largest
    k with a budget ``eps`` of steps ``eps0`` walks grows with ``eps / eps0``)."""

    num: str
    den: str
    most: int
    reason: str

    def check(self, key: str, bound: Mapping[str, Any]) -> None:
        if self.num not in bound or self.den not in bound or not bound[self.den]:
            return
        ratio = Fraction(bound[self.num]) / Fraction(bound[self.den])
        if ratio > self.most:
            raise InvalidParameter(
                f"{self.num}/{self.den} must be at most {self.most} for {key} ({self.reason}); "
                f"got {short_fraction(ratio)}")


# Measured on one core with `dpverify eval ... --timeout 40` at sane values of the other
# parameters (the default values of tests/cli_corpus.py): each limit keeps one evaluation well
# inside the 50 s default time limit of `dpverify eval`. Entries move into the Evaluator
# declarations of the family modules (theorems/<family>/) later.
_T3 = "cost about k^2: k = 100 takes 4 s, k = 1000 over 40 s"
_T3_DELTA = "cost about k^2: k = 1000 takes 3 s, k = 10^4 over 20 s"
_RDP_SUM = "a sum over alpha binomial terms: alpha = 1000 takes 2 s, alpha = 10^4 over 20 s"
_GCE_V3 = "cost about the cube of the list lengths: 100 entries take 1 s, 300 entries 30 s"
_BR_SEARCH = ("the search walks k up to about (eps/eps0)^2 evaluations of DDR-T3.delta: "
              "eps/eps0 = 100 takes 7 s")
_DP_SEARCH = ("the search walks k up to about (eps/eps0)^2 evaluations of KOV-DELTA: "
              "eps/eps0 = 100 takes 0.5 s")
_K_SEARCH = "the largest k grows as (eps/eps0)^2 and the search with it: eps/eps0 = "
LIMITS: dict[str, tuple[Limit | RatioLimit, ...]] = {
    "DDR-T3.eps": (Limit("k", 200, _T3),),
    "DDR-T3.delta": (Limit("k", 2000, _T3_DELTA),),
    "DDR-T3.t_opt": (Limit("k", 2000, _T3_DELTA),),
    "STK-ANALYTIC-RDP.tau": (Limit("alpha", 2000, _RDP_SUM),),
    "STK-ANALYTIC-RDP.tau_laplace": (Limit("alpha", 2000, _RDP_SUM),),
    "STK-ANALYTIC-RDP.tau_rr": (Limit("alpha", 2000, _RDP_SUM),),
    "GCE-V3.eps": tuple(Limit(n, 150, _GCE_V3) for n in ("eps_c", "eps_a", "eps_p")),
    "DDR-FIG1.k_br_optcomp": (RatioLimit("eps", "eps0", 100, _BR_SEARCH),),
    "DDR-FIG1.k_dp_optcomp": (RatioLimit("eps", "eps0", 1000, _DP_SEARCH),),
    "DDR-FIG1.k_dp_optcomp_half": (RatioLimit("eps", "eps0", 500, _DP_SEARCH),),
    "STK-LAPLACE.delta": (RatioLimit("sensitivity", "b", 1000, "the mechanism's eps is "
                                     "sensitivity/b; 1000 takes 1 s, 10^30 over 12 s"),),
    "DDR-FIG1.k_mgf": (RatioLimit("eps", "eps0", 10**4, _K_SEARCH + "10^4 takes 1 s, 10^6 "
                                  "over 25 s"),),
    "DDR-FIG1.k_optkl": (RatioLimit("eps", "eps0", 10**6, _K_SEARCH + "10^6 takes 1 s, 10^9 "
                                    "over 25 s"),),
    "DDR-FIG1.k_dr19": (RatioLimit("eps", "eps0", 10**9, _K_SEARCH + "10^9 takes 1 s, 10^30 "
                                   "over 12 s"),),
    "DDR-FIG1.k_dr19_kovkl": (RatioLimit("eps", "eps0", 10**9, _K_SEARCH + "10^9 takes 1 s, "
                                         "10^30 over 12 s"),),
}

# Evaluator names whose values are non-negative by definition (privacy parameters,
# divergences, masses): a negative result means the bound is vacuous at the point, and
# `verifiers.evaluation.evaluate` refuses it.
NONNEGATIVE = ("eps", "delta", "delta_pure", "delta_upper", "delta_lower", "kl", "tau", "rho",
               "mu", "mass")

# Evaluators whose value may legitimately be +inf (e.g. no finite eps reaches the delta): for
# every other evaluator, +inf from `dpverify eval` is an overflow and is refused.
MAY_BE_INFINITE = frozenset({
    "KOV-EPS.eps",
})


def check(key: str, bound: Mapping[str, Any]) -> None:
    """Refuse ``bound`` for evaluator ``key`` ("ID.evaluator") past a cost limit."""
    for limit in LIMITS.get(key, ()):
        limit.check(key, bound)
