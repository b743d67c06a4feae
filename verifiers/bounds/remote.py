"""check-bound's reference evaluations on an executor's workers (``--executor dask``).

The certified reference at a point is the expensive part of a search. Before a batch of points
whose order does not depend on earlier results — the corners and edge midpoints, the
quasi-random spread, the tightness grid — :func:`prefetch` computes their reference enclosures
on the executor through :func:`~dpverify.verifiers.executors.stream`, as
:func:`remote_enclosures` (a pure function of the reference's name and kind, the point and the
precisions), and keeps them in :attr:`Remote.outcomes`. The search then decides its points in
the same order as ever and reads each enclosure from there, so the verdict, the points
evaluated and the counterexample are those of a local run. A call that times out or loses its
worker is simply not kept: that point is computed here when (and if) the search reaches it.
On ``serial`` and ``local`` nothing is sent anywhere.
"""

from __future__ import annotations

import concurrent.futures as cf
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dpverify.theorems.ctx import PrecisionExhausted
from dpverify.theorems.errors import DpVerifyError
from dpverify.verifiers.bounds.references import Reference, make_reference
from dpverify.verifiers.bounds.region import Point
from dpverify.verifiers.executors import LocalExecutor, SerialExecutor, stream

Outcome = tuple[str, Any]  # ("ok", (lo, hi)) | ("exhausted" | "error", "Type: message")
MIN_LIMIT = 5.0  # seconds a batch call is given even when the search's deadline is near


def enclosure(ref: Reference, point: Point, prec: int) -> Outcome:
    """The reference's enclosure at ``point`` and ``prec``, or why there is none."""
    try:
        return "ok", ref.enclose(point, prec)
    except PrecisionExhausted as e:
        return "exhausted", f"{type(e).__name__}: {e}"
    except (DpVerifyError, ArithmeticError, ValueError) as e:
        return "error", f"{type(e).__name__}: {e}"


def remote_enclosures(against: str, kind: str, point: Point, precisions: Sequence[int]
                      ) -> list[tuple[int, Outcome]]:
    """:func:`enclosure` at rising precision while it is exhausted (the first precision only
    otherwise), with the reference rebuilt from its name: what the checker computes, anywhere."""
    ref = make_reference(against, kind)
    out: list[tuple[int, Outcome]] = []
    for prec in precisions:
        outcome = enclosure(ref, point, prec)
        out.append((prec, outcome))
        if outcome[0] != "exhausted":
            break
    return out


@dataclass
class Remote:
    """Where a checker's batches of reference evaluations go, and what came back."""

    against: str
    kind: str
    executor: cf.Executor
    outcomes: dict[tuple[Hashable, int], Outcome] = field(default_factory=dict)

    @property
    def active(self) -> bool:
        return not isinstance(self.executor, (SerialExecutor, LocalExecutor))


def prefetch(remote: Remote | None, points: Sequence[tuple[Hashable, Point]],
             precisions: Sequence[int], deadline: float) -> int:
    """Compute the enclosures of ``points`` (``(key, point)``; those already known skipped) on
    the remote executor, each call limited to what is left until ``deadline``; returns how
    many points were sent."""
    if remote is None or not remote.active:
        return 0
    todo: dict[Hashable, Point] = {}
    for key, point in points:
        if (key, precisions[0]) not in remote.outcomes:
            todo.setdefault(key, point)
    if not todo:
        return 0
    keys = list(todo)
    calls = [(remote.against, remote.kind, todo[k], tuple(precisions)) for k in keys]
    limit = max(deadline - time.monotonic(), MIN_LIMIT)
    for i, out in stream(remote.executor, remote_enclosures, calls, limit,
                         names=[f"reference at {todo[k]}" for k in keys]):
        if out.kind == "ok":
            for prec, outcome in out.value:
                remote.outcomes[(keys[i], prec)] = outcome
    return len(keys)


__all__ = ["Outcome", "Remote", "enclosure", "prefetch", "remote_enclosures"]
