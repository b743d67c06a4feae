"""Route one check of one claim to the verifier that can check it, and time it.

Main results
------------
- :func:`run_check`: the :class:`~verifiers.verdict.Verdict` of check ``i`` of a claim under a
  profile, with a seed derived from the task id. A verifier crash is an ``error`` verdict with
  its traceback in the evidence, never hidden.
- :func:`run_claim_check`: the same for a :class:`~theorems.core.Theorem` value that need not
  be registered (the quality tests plant wrong theorems this way).
- :func:`task_seed`: a stable 32-bit seed from a task id (theorem, claim, check).
"""

from __future__ import annotations

import hashlib
import importlib
import time
import traceback
from dataclasses import dataclass

from dpverify.theorems import get
from dpverify.theorems.claims import Box, Claim, Compare, Generated, Points, Predicate, Smt
from dpverify.theorems.core import Theorem
from dpverify.theorems.ctx import Unsupported
from dpverify.verifiers import smt
from dpverify.verifiers.interval import verify_box
from dpverify.verifiers.numeric import verify_points
from dpverify.verifiers.oracle import verify_generated
from dpverify.verifiers.property import verify_box as search_box
from dpverify.verifiers.verdict import Budget, Status, Verdict, task_cpu_seconds

# The runner forks one worker per task: the verifiers and their heavy libraries are imported
# here, once, in the parent, rather than again in every worker (sympy alone is ~0.25 s CPU a
# task, times every smt and interval task of a run).
for _library in ("sympy", "z3"):
    importlib.import_module(_library)


@dataclass(frozen=True)
class Profile:
    """How hard each route works."""

    name: str
    property_examples: int
    oracle_instances: int | None  # None: every instance the claim asks for
    boxes: int
    seconds: float


PROFILES = {
    "quick": Profile("quick", property_examples=25, oracle_instances=40, boxes=3000,
                     seconds=60.0),
    "thorough": Profile("thorough", property_examples=1000, oracle_instances=None,
                        boxes=200000, seconds=900.0),
}


def task_id(theorem: str, claim: int, check: int) -> str:
    return f"{theorem}/{claim}/{check}"


def task_seed(tid: str) -> int:
    return int.from_bytes(hashlib.sha256(tid.encode()).digest()[:4], "big")


def reproduce_command(theorem: str, claim: int, profile: str, seed: int | None) -> str:
    # a reproduction writes to a fresh temporary folder, never over the catalogue snapshot
    cmd = (f"dpverify run {theorem} --claim {claim} --profile {profile} --jobs 1 "
           '--out "$(mktemp -d)"')
    if seed is not None:
        cmd += f" --seed {seed}"
    return cmd


def run_check(theorem_id: str, claim_number: int, check_index: int, profile: Profile,
              seed: int | None = None, budget_seconds: float | None = None) -> Verdict:
    """The verdict of check ``check_index`` of claim ``claim_number`` of a registered theorem."""
    return run_claim_check(get(theorem_id), claim_number, check_index, profile, seed,
                           budget_seconds)


def run_claim_check(theorem: Theorem, claim: Claim | int, check_index: int, profile: Profile,
                    seed: int | None = None, budget_seconds: float | None = None) -> Verdict:
    """:func:`run_check` for a :class:`Theorem` value, registered or not (e.g. a theorem
    planted by a test to measure the verifiers' power). ``claim`` is a claim or its number."""
    th = theorem
    if isinstance(claim, int):
        found = next((c for c in th.claims if c.number == claim), None)
        if found is None:
            raise ValueError(f"{th.id} has no claim {claim}")
        claim = found
    claim_number = claim.number
    check = claim.checks[check_index]
    tid = task_id(th.id, claim_number, check_index)
    seed = task_seed(tid) if seed is None else seed
    # the smt route's limits are z3's wall-clock timeouts in its solver process: wall clock
    budget = Budget(seconds=budget_seconds or profile.seconds,
                    examples=profile.property_examples, boxes=profile.boxes,
                    clock=budget_clock(check.route))
    started, cpu_started = time.monotonic(), task_cpu_seconds()
    try:
        status, summary, evidence = _dispatch(check, budget, seed, profile)
    except Unsupported as exc:  # no context can evaluate a term (e.g. an entry not encoded yet)
        status, summary, evidence = Status.NOT_APPLICABLE, f"not applicable: {exc}", {}
    except Exception as exc:  # a verifier crash is reported, never hidden
        status, summary = Status.ERROR, f"verifier crashed: {type(exc).__name__}: {exc}"
        evidence = {"traceback": traceback.format_exc(limit=8)}
    evidence.setdefault("check", check.describe())
    if status is Status.FAILED:
        evidence["reproduce"] = reproduce_command(th.id, claim_number, profile.name, seed)
    return Verdict(th.id, claim_number, check_index, check.route, status, summary, evidence,
                   time.monotonic() - started, seed,
                   task_cpu_seconds() - cpu_started + evidence.get("solver_cpu_seconds", 0.0))


def budget_clock(route: str) -> str:
    """What a task's time budget counts: CPU seconds of the checking process, except on the smt
    route, whose z3 runs in a solver process under wall-clock timeouts (:class:`Budget`)."""
    return "wall" if route == "smt" else "cpu"


def _dispatch(check: Compare | Predicate | Smt, budget: Budget, seed: int,
              profile: Profile) -> tuple[Status, str, dict]:
    if isinstance(check, Smt):
        return smt.verify(check, budget)
    region = check.region
    if isinstance(region, Points):
        return verify_points(check, region, budget)
    if isinstance(region, Generated):
        return verify_generated(check, region, budget, seed, profile.oracle_instances)
    if isinstance(region, Box):
        if check.route == "interval":
            return verify_box(check, region, budget)
        return search_box(check, region, budget, seed)
    raise TypeError(f"unknown region {type(region).__name__}")
