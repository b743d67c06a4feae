"""Verdicts, evidence and budgets.

Main results
------------
- :class:`Status`: ``proved`` (holds at every point of a stated region: SMT unsat over the whole
  domain, branch and bound certifying every sub-box of a box, or exhaustive enumeration of a
  finite domain that is the claim's entire domain; the evidence carries ``region``),
  ``certified`` (rigorous at the listed points or generated instances only; the evidence names
  them), ``passed`` (searched, no counterexample), ``failed`` (with a certified
  counterexample), ``inconclusive`` (time or precision ran out), ``not_applicable``, ``error``
  (a verifier crashed).
- :func:`headline`: a claim's verdict over its checks — any ``failed`` wins, then ``error``,
  otherwise the strongest.
- :func:`outcome`: whether a claim's headline is what its ``expected`` outcome says.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dpverify.theorems.errors import BudgetExpired as BudgetExpired


class Status(StrEnum):
    PROVED = "proved"
    CERTIFIED = "certified"
    PASSED = "passed"
    FAILED = "failed"
    INCONCLUSIVE = "inconclusive"
    NOT_APPLICABLE = "not_applicable"
    ERROR = "error"


# Strength of a verdict that supports a claim; failed and error are handled first.
STRENGTH = {
    Status.PROVED: 5,
    Status.CERTIFIED: 4,
    Status.PASSED: 3,
    Status.INCONCLUSIVE: 2,
    Status.NOT_APPLICABLE: 1,
    Status.ERROR: 0,
    Status.FAILED: -1,
}


@dataclass
class Verdict:
    """The result of one check of one claim by one route."""

    theorem: str
    claim: int
    check: int
    route: str
    status: Status
    summary: str
    evidence: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    seed: int | None = None
    cpu_seconds: float | None = None  # CPU of the checking process: stable on a loaded machine

    def to_dict(self) -> dict[str, Any]:
        out = {
            "theorem": self.theorem,
            "claim": self.claim,
            "check": self.check,
            "route": self.route,
            "status": str(self.status),
            "summary": self.summary,
            "evidence": self.evidence,
            "seconds": round(self.seconds, 4),
            "seed": self.seed,
        }
        if self.cpu_seconds is not None:
            out["cpu_seconds"] = round(self.cpu_seconds, 4)
        return out

    @staticmethod
    def from_dict(d: dict[str, Any]) -> Verdict:
        return Verdict(
            theorem=d["theorem"],
            claim=d["claim"],
            check=d["check"],
            route=d["route"],
            status=Status(d["status"]),
            summary=d["summary"],
            evidence=d.get("evidence", {}),
            seconds=d.get("seconds", 0.0),
            seed=d.get("seed"),
            cpu_seconds=d.get("cpu_seconds"),
        )


def headline(statuses: list[Status], parts: list[str] | None = None) -> Status:
    """A claim's verdict: any failed wins, then error; otherwise the strongest verdict of
    each part (checks of one part verify the same statement by several routes) and the
    weakest over the parts (the conjuncts of the claim). ``parts[i]`` names the part of
    ``statuses[i]``; without ``parts`` every check verifies the whole claim."""
    if not statuses:
        return Status.NOT_APPLICABLE
    if Status.FAILED in statuses:
        return Status.FAILED
    if Status.ERROR in statuses:
        return Status.ERROR
    by_part: dict[str, list[Status]] = {}
    for status, part in zip(statuses, parts or [""] * len(statuses), strict=True):
        by_part.setdefault(part, []).append(status)
    return min((max(ss, key=lambda s: STRENGTH[s]) for ss in by_part.values()),
               key=lambda s: STRENGTH[s])


def weakened(old: str, new: str) -> bool:
    """Whether a headline moved down the strength order (proved > certified > passed >
    inconclusive > not_applicable > error > failed); ``failed`` -> anything is not a weakening
    of the verdict (the claim's outcome says whether that is expected)."""
    if old == Status.FAILED.value:
        return False
    return STRENGTH[Status(new)] < STRENGTH[Status(old)]


class Outcome(StrEnum):
    AS_EXPECTED = "as_expected"  # holds and proved/passed, or refuted and failed
    UNEXPECTED = "unexpected"  # holds but failed, or refuted but proved/passed
    INCONCLUSIVE = "inconclusive"  # nothing decided either way
    ERROR = "error"


def outcome(expected: str, status: Status) -> Outcome:
    if status is Status.ERROR:
        return Outcome.ERROR
    if status in (Status.INCONCLUSIVE, Status.NOT_APPLICABLE):
        return Outcome.INCONCLUSIVE
    refuted = status is Status.FAILED
    return Outcome.AS_EXPECTED if refuted == (expected == "refuted") else Outcome.UNEXPECTED


# A task whose budget counts CPU seconds is also stopped after this many times its seconds of
# wall-clock time: a task that waits (for a lock, a child, the disk) cannot hang the run.
WALL_BACKSTOP_FACTOR = 4.0


def task_cpu_seconds() -> float:
    """CPU seconds of this process and of its children that ended (a solver process killed at
    its hard limit; the smt route reports the solver's CPU of each problem in its evidence,
    ``solver_cpu_seconds``: verifiers/smt/server.py)."""
    t = os.times()
    return time.process_time() + t.children_user + t.children_system


@dataclass(frozen=True)
class Budget:
    """Limits of one task: time, examples for sampling routes, precision ceiling.

    ``clock="wall"``: ``seconds`` of wall-clock time. ``clock="cpu"``: ``seconds`` of this
    process's CPU time (:func:`task_cpu_seconds`), so that a loaded machine does not turn a
    check inconclusive, with a wall-clock backstop of ``WALL_BACKSTOP_FACTOR * seconds``; what
    :meth:`remaining` returns is wall-clock seconds that cannot exceed either limit. Sent to
    another process (pickled), a CPU budget becomes a wall-clock budget of what remains: the
    receiving process's CPU clock is not this one's."""

    seconds: float = 60.0
    examples: int = 100
    max_bits: int = 4096
    boxes: int = 20000
    started: float = field(default_factory=time.monotonic)
    clock: str = "wall"
    cpu_started: float = field(default_factory=task_cpu_seconds)

    def expired(self) -> bool:
        wall = time.monotonic() - self.started
        if self.clock == "cpu":
            return (task_cpu_seconds() - self.cpu_started > self.seconds
                    or wall > self.seconds * WALL_BACKSTOP_FACTOR)
        return wall > self.seconds

    def remaining(self) -> float:
        wall = time.monotonic() - self.started
        if self.clock == "cpu":
            cpu = task_cpu_seconds() - self.cpu_started
            return max(0.0, min(self.seconds - cpu, self.seconds * WALL_BACKSTOP_FACTOR - wall))
        return max(0.0, self.seconds - wall)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.clock == "cpu":
            return (Budget, (self.remaining(), self.examples, self.max_bits, self.boxes))
        return (Budget, (self.seconds, self.examples, self.max_bits, self.boxes, self.started))


