"""The ``oracle`` route: exact ground truth by finite enumeration on random finite instances.

The terms of an oracle check do the enumeration themselves (all events of a finite output space,
all transcripts of k-fold randomized response, all views of a GCE); this module draws the
instances from a seeded generator and certifies each comparison in arb ball arithmetic (exact
rationals stay exact in arb). A counterexample records the seed and the instance index, which
reproduce it exactly.

Main results
------------
- :func:`verify_generated`: ``certified`` (at these instances only: they are listed, and the
  seed regenerates them) when every instance is certified in arb, ``passed`` when some were
  only decided in mpmath at two precisions, ``failed`` with the instance otherwise,
  ``inconclusive`` when an instance stays undecided or time runs out.
"""

from __future__ import annotations

import random
from typing import Any

from dpverify.theorems.claims import Compare, Generated, Predicate
from dpverify.verifiers.numeric import MAX_LISTED, decide, show_point
from dpverify.verifiers.verdict import Budget, Status


def verify_generated(
    check: Compare | Predicate, region: Generated, budget: Budget, seed: int, limit: int | None
) -> tuple[Status, str, dict[str, Any]]:
    count = region.count if limit is None else min(region.count, limit)
    rng = random.Random(seed)
    undecided = 0
    all_certified = True
    instances: list[dict[str, Any]] = []
    for i in range(count):
        if budget.expired():
            return (Status.INCONCLUSIVE, f"time budget ran out after {i} of {count} instances",
                    {"instances_checked": i, "instances_planned": count, "seed": seed})
        point = dict(region.draw(rng))
        d = decide(check, point, 30, budget.max_bits)
        if d.holds is False:
            return Status.FAILED, f"fails on instance {i} ({region.description})", {
                "counterexample": show_point(point),
                "instance_index": i,
                "seed": seed,
                "lhs": d.lhs,
                "rhs": d.rhs,
                "margin": d.margin,
                "certified": d.certified,
            }
        if d.holds is None:
            undecided += 1
            continue
        all_certified &= d.certified
        if len(instances) < MAX_LISTED:
            instances.append(show_point(point))
    evidence = {"instances_checked": count, "instances_undecided": undecided, "seed": seed,
                "generator": region.description, "instances": instances}
    if undecided:
        return (Status.INCONCLUSIVE,
                f"{undecided} of {count} instances undecided at the precision ceiling", evidence)
    if all_certified:
        return (Status.CERTIFIED,
                f"certified on the {count} generated instances only ({region.description}; "
                f"seed {seed}), each in arb ball arithmetic", evidence)
    return (Status.PASSED,
            f"holds on all {count} {region.description} (mpmath at two precisions)", evidence)
