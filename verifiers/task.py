"""A run's task as a pure function, and a run's tasks on any executor.

A task is rebuilt wherever it runs from its id alone (``THEOREM/claim/check``, looked up in the
registry), its seed and the profile: nothing is inherited from the process that planned it, so
a Dask worker on another machine computes the verdict a local worker computes.

Main results
------------
- :func:`run_task`: the verdict (a dict) of one task id.
- :func:`execute_on`: every task of a run on an executor, verdicts streamed to ``on_result``
  as they complete; a task past its budget is ``inconclusive``, a task whose worker was lost
  twice is ``error`` with the reason. :func:`pool_size`: the executors the runner serves itself
  (serial, and the local pool of forked workers: today's behaviour).
"""

from __future__ import annotations

import concurrent.futures as cf
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from dpverify.verifiers.dispatch import Profile, run_check
from dpverify.verifiers.executors import LocalExecutor, SerialExecutor, stream
from dpverify.verifiers.sandbox import Limited
from dpverify.verifiers.verdict import Status, Verdict


class Task(Protocol):
    """What this module needs of a planned task (``verifiers.runner.Task``)."""

    theorem: str
    claim: int
    check: int
    route: str

    @property
    def id(self) -> str: ...


def parse_task_id(tid: str) -> tuple[str, int, int]:
    """``"KOV-EPS/1/0"`` -> ``("KOV-EPS", 1, 0)``."""
    theorem, claim, check = tid.rsplit("/", 2)
    return theorem, int(claim), int(check)


def run_task(tid: str, profile: Profile, seed: int | None, seconds: float) -> dict[str, Any]:
    """The verdict of task ``tid`` as a dict: a pure function of its arguments (``seed=None``:
    the seed derived from the task id)."""
    theorem, claim, check = parse_task_id(tid)
    return run_check(theorem, claim, check, profile, seed, seconds).to_dict()


def sandbox_warm() -> None:
    """Called once by each sandbox process: import the registry before any task's clock runs."""
    from dpverify.theorems import all_theorems

    all_theorems()


def pool_size(executor: cf.Executor) -> int:
    """The runner's ``jobs`` for an executor whose tasks it runs on its own paths (serial: 1,
    in-process; local: its forked workers); 0 for any other executor (Dask's)."""
    if isinstance(executor, (SerialExecutor, LocalExecutor)):
        return executor.workers
    return 0


def execute_on(executor: cf.Executor, tasks: Sequence[Task], profile: Profile,
               seed: int | None, seconds: float,
               on_result: Callable[[Verdict], None] | None = None, *,
               grace: float) -> list[Verdict]:
    """Every task through :func:`~dpverify.verifiers.executors.stream`, in plan order: each
    task's :func:`run_task` in a sandbox process killed ``grace`` seconds after the budget
    (in-process, without a limit, on a ``SerialExecutor``)."""
    limit = seconds + grace
    results: dict[str, Verdict] = {}
    calls = [(t.id, profile, seed, seconds) for t in tasks]
    for i, out in stream(executor, run_task, calls, limit, names=[t.id for t in tasks]):
        v = verdict_of(tasks[i], out, seconds)
        results[tasks[i].id] = v
        if on_result:
            on_result(v)
    return [results[t.id] for t in tasks]


def verdict_of(task: Task, out: Limited, seconds: float) -> Verdict:
    """The verdict a task's outcome stands for: never a pass unless the check returned one."""
    if out.kind == "ok":
        return Verdict.from_dict(out.value)
    if out.kind == "timeout":
        return Verdict(task.theorem, task.claim, task.check, task.route, Status.INCONCLUSIVE,
                       f"killed at the time budget of {seconds:.0f} s",
                       {"timeout_seconds": seconds}, out.seconds)
    summary = {"raised": f"task crashed: {out.reason}",
               "crashed": f"worker died: {out.reason}",
               "lost": f"worker lost: {out.reason}"}.get(out.kind, f"{out.kind}: {out.reason}")
    evidence = {"traceback": out.traceback} if out.traceback else {}
    return Verdict(task.theorem, task.claim, task.check, task.route, Status.ERROR, summary,
                   evidence, out.seconds)
