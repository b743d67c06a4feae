"""The ``property`` route: counterexample search over a box with hypothesis.

Points are drawn as exact rationals (the exact values of the sampled floats), each comparison is
decided in arb ball arithmetic (mpmath at two precisions where a term needs it), and a failure
is shrunk by hypothesis, then confirmed again at higher precision before it is reported. The
seed and a command that reproduces the search are recorded.

Profiles: ``ci`` (fast, the default of ``--profile quick``) and ``thorough`` (deep); the number
of examples comes from the task's :class:`~verifiers.verdict.Budget`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from dpverify.theorems.claims import Box, Compare, Predicate
from dpverify.verifiers.draws import seed_only_draws
from dpverify.verifiers.numeric import decide, show_point
from dpverify.verifiers.verdict import Budget, Status

PROFILES = {"ci": 40, "thorough": 1000}


def _real_strategy(lo: Fraction, hi: Fraction, log: bool) -> st.SearchStrategy[Fraction]:
    if log:
        if lo <= 0:
            raise ValueError("a log-scale parameter needs a positive lower end")
        a, b = math.log(lo), math.log(hi)
        inner = st.floats(0, 1).map(lambda t: Fraction(min(max(math.exp(a + t * (b - a)),
                                                                float(lo)), float(hi))))
    else:
        inner = st.floats(float(lo), float(hi), allow_nan=False).map(Fraction)
    ends = st.sampled_from([lo, hi])
    return st.one_of(ends, inner).filter(lambda x: lo <= x <= hi)


def box_strategy(box: Box) -> st.SearchStrategy[dict[str, Any]]:
    fields: dict[str, st.SearchStrategy[Any]] = {}
    for name, (lo, hi) in box.reals.items():
        fields[name] = _real_strategy(Fraction(lo), Fraction(hi), name in box.log_scale)
    for name, (lo, hi) in box.ints.items():
        fields[name] = st.integers(lo, hi)
    for name, value in box.fixed.items():
        fields[name] = st.just(Fraction(value) if isinstance(value, str) else value)
    return st.fixed_dictionaries(fields)


class _Counterexample(Exception):
    """Ends the hypothesis search at a failing point (its own class: an ``AssertionError``
    raised by a claim's term must reach the caller as a crash, not pass for this signal)."""


def verify_box(
    check: Compare | Predicate, box: Box, budget: Budget, seed_value: int
) -> tuple[Status, str, dict[str, Any]]:
    failures: list[dict[str, Any]] = []
    stats = {"examples": 0, "undecided": 0, "expired": False}

    @settings(max_examples=budget.examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck),
              phases=(Phase.generate, Phase.shrink), derandomize=False)
    @seed(seed_value)
    @given(box_strategy(box))
    def search(point: dict[str, Any]) -> None:
        if budget.expired():
            stats["expired"] = True
            return
        if box.constraint is not None and not box.constraint(point):
            return
        stats["examples"] += 1
        d = decide(check, point, 20, min(budget.max_bits, 2048))
        if d.holds is None:
            stats["undecided"] += 1
        elif d.holds is False:
            failures.append({"point": point, "lhs": d.lhs, "rhs": d.rhs, "margin": d.margin,
                             "certified": d.certified})
            raise _Counterexample

    # No example database (``database=None``), so no database key: without this attribute
    # hypothesis derives one per task from the test's source (inspect.getsource + tokenize,
    # ~1.5 ms CPU a task) and never uses it
    search._hypothesis_internal_database_key = None  # type: ignore[attr-defined]
    try:
        with seed_only_draws():  # the points drawn depend on the seed, not on what is loaded
            search()
    except _Counterexample:
        pass
    except Unsatisfiable:
        return Status.INCONCLUSIVE, "no admissible example could be drawn", {"seed": seed_value}
    evidence: dict[str, Any] = {"examples": stats["examples"], "seed": seed_value,
                                "box": box.describe(), "undecided": stats["undecided"]}
    if failures:
        shrunk = failures[-1]  # hypothesis replays the minimal example last
        confirm = decide(check, shrunk["point"], 40, max(budget.max_bits, 4096))
        if confirm.holds is False:
            evidence.update(counterexample=show_point(shrunk["point"]), lhs=confirm.lhs,
                            rhs=confirm.rhs, margin=confirm.margin,
                            certified=confirm.certified)
            return Status.FAILED, f"counterexample {show_point(shrunk['point'])}", evidence
        evidence["unconfirmed_counterexample"] = show_point(shrunk["point"])
        return (Status.INCONCLUSIVE,
                "a counterexample found at low precision was not confirmed at high precision",
                evidence)
    if stats["expired"]:
        return (Status.INCONCLUSIVE,
                f"time budget ran out after {stats['examples']} examples", evidence)
    if stats["undecided"]:
        return (Status.INCONCLUSIVE,
                f"{stats['undecided']} of {stats['examples']} examples undecided", evidence)
    return (Status.PASSED,
            f"no counterexample in {stats['examples']} examples on {box.describe()}", evidence)
