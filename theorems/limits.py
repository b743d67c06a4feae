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
            shown = size if isinstance(size, int) else f"{float(size):g}"
            raise InvalidParameter(f"{what} for {key} ({self.reason}); got {shown}")


# Measured on one core (bench/fuzz_cli_corpus.py-style timing of `dpverify eval` at sane values
# of the other parameters): each limit keeps one evaluation well inside the 50 s default time
# limit of `dpverify eval`.
LIMITS: dict[str, tuple[Limit, ...]] = {}

# Evaluator names whose values are non-negative by definition (privacy parameters,
# divergences, masses): a negative result means the bound is vacuous at the point, and
# `verifiers.numeric.evaluate` refuses it.
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
