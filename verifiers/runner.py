"""Plan, execute and record a run: the claims of a set of theorems checked under a profile.

A run is a plan of independent tasks — one per check of a claim — with seeds derived from task
ids, executed serially (``jobs=1``, for debugging) or on a local pool of forked workers. Each
task has a hard time budget: a task still running at its limit is killed and recorded as
``inconclusive``, never ``passed``. The budget counts what the route's own budget counts
(:func:`~dpverify.verifiers.dispatch.budget_clock`): CPU seconds of the worker (read from
``/proc``), with a wall-clock backstop of ``WALL_BACKSTOP_FACTOR`` times the budget, so that a
loaded machine does not weaken a verdict; wall-clock seconds for the smt route (z3's timeouts)
and where ``/proc`` is missing. The run is one versioned JSON document (schema
``reports/schema/run-v1.schema.json``) from which every report is rendered.

Main results
------------
- :func:`plan`: the tasks for a list of theorem ids (or the whole catalogue).
- :func:`execute`: run the tasks, with progress on stderr.
- :func:`assemble`: the run document; :func:`exit_code` its 0/1/3 status.
"""

from __future__ import annotations

import datetime as dt
import json
import multiprocessing as mp
import os
import platform
import signal
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import metadata
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from dpverify.theorems import all_theorems, get
from dpverify.verifiers.dispatch import Profile, budget_clock, run_check, task_id
from dpverify.verifiers.limited import die_with_parent
from dpverify.verifiers.verdict import (
    WALL_BACKSTOP_FACTOR,
    Outcome,
    Status,
    Verdict,
    headline,
    outcome,
)
from dpverify.verifiers.warmup import warm_up

SCHEMA = "dpverify-run/2"
KILL_GRACE_SECONDS = 5.0
# The committed catalogue snapshot (package data): its per-task seconds order a pool run.
SNAPSHOT = Path(__file__).resolve().parent.parent / "reports" / "catalogue" / "latest.json"
UNKNOWN_TASK_SECONDS = 1.0  # a task new since the snapshot: about the catalogue's mean (0.4 s)


@dataclass(frozen=True)
class Task:
    theorem: str
    claim: int
    check: int
    route: str

    @property
    def id(self) -> str:
        return task_id(self.theorem, self.claim, self.check)


def plan(ids: Iterable[str] | None = None, claim: int | None = None,
         routes: Iterable[str] | None = None) -> list[Task]:
    theorems = [get(i) for i in ids] if ids else all_theorems()
    wanted = set(routes) if routes else None
    tasks: list[Task] = []
    for th in theorems:
        for c in th.claims:
            if claim is not None and c.number != claim:
                continue
            for i, check in enumerate(c.checks):
                if wanted is None or check.route in wanted:
                    tasks.append(Task(th.id, c.number, i, check.route))
    return tasks


# ------------------------------------------------------------------------------------------
# execution


class Progress:
    """Progress on stderr: a live line on a terminal, plain periodic lines otherwise."""

    def __init__(self, total: int, stream: Any = None, period: float = 10.0) -> None:
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.period = period
        self.last = time.monotonic()
        self.failed = 0

    def update(self, verdict: Verdict) -> None:
        self.done += 1
        if verdict.status is Status.FAILED:
            self.failed += 1
        line = (f"[{self.done}/{self.total}] {verdict.theorem} claim {verdict.claim} "
                f"({verdict.route}): {verdict.status}")
        if self.tty:
            self.stream.write("\r\033[K" + line)
            if self.done == self.total:
                self.stream.write("\n")
            self.stream.flush()
        elif time.monotonic() - self.last >= self.period or self.done == self.total:
            self.stream.write(f"dpverify: {self.done}/{self.total} checks done, "
                              f"{self.failed} failed\n")
            self.stream.flush()
            self.last = time.monotonic()


def execute(tasks: list[Task], profile: Profile, jobs: int = 0, seed: int | None = None,
            on_result: Callable[[Verdict], None] | None = None,
            task_seconds: float | None = None, executor: Any = None) -> list[Verdict]:
    """Run every task; ``jobs=1`` runs in-process, otherwise on forked workers; ``executor``
    (a ``concurrent.futures.Executor``, e.g. Dask's) runs them there instead
    (:mod:`~dpverify.verifiers.task`)."""
    seconds = task_seconds or profile.seconds
    if executor is not None:
        from dpverify.verifiers.task import execute_on, pool_size

        jobs = pool_size(executor)  # serial and local run below; 0: elsewhere (Dask)
        if not jobs:
            return execute_on(executor, tasks, profile, seed, seconds, on_result,
                              grace=KILL_GRACE_SECONDS)
    jobs = jobs or os.cpu_count() or 1
    results: dict[str, Verdict] = {}
    if jobs == 1:
        for t in tasks:
            v = run_check(t.theorem, t.claim, t.check, profile, seed, seconds)
            results[t.id] = v
            if on_result:
                on_result(v)
    else:  # longest first: a long task started last would run alone at the end
        order = theorems_longest_first(tasks, expected_seconds())
        warm_up()  # every forked worker inherits what the routes load on first use
        for v in _execute_pool(order, profile, jobs, seed, seconds):
            results[task_id(v.theorem, v.claim, v.check)] = v
            if on_result:
                on_result(v)
    return [results[t.id] for t in tasks]


def expected_seconds(path: Path = SNAPSHOT) -> dict[str, float]:
    """Seconds per task id in an earlier run document (CPU seconds where recorded: wall
    seconds on a loaded machine misorder the tasks); empty when it is absent or unreadable."""
    try:
        doc = json.loads(path.read_text())
        return {task_id(v["theorem"], v["claim"], v["check"]):
                float(v.get("cpu_seconds") or v.get("seconds") or 0.0)
                for t in doc["theorems"] for c in t["claims"] for v in c["verdicts"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def longest_first(tasks: list[Task], seconds: Mapping[str, float]) -> list[Task]:
    """The tasks by decreasing expected seconds (plan order among equals); unknown ones count
    ``UNKNOWN_TASK_SECONDS``."""
    return sorted(tasks, key=lambda t: -seconds.get(t.id, UNKNOWN_TASK_SECONDS))


def theorems_longest_first(tasks: list[Task], seconds: Mapping[str, float]) -> list[Task]:
    """The tasks theorem by theorem (plan order within a theorem), the theorems by decreasing
    sum of expected seconds (:func:`longest_first`'s rule): a pool worker runs the tasks of one
    theorem in turn (:func:`_execute_pool`), so what its checks build once — SMT problems and
    reference values cached by the theorem's module, sympy's cache — serves its other checks.
    The largest theorem of the catalogue is ~10 s of CPU in a ~150 s run: started first, it
    does not hold up the end of the schedule."""
    theorems: dict[str, list[Task]] = {}
    for t in tasks:
        theorems.setdefault(t.theorem, []).append(t)
    total = {k: sum(seconds.get(t.id, UNKNOWN_TASK_SECONDS) for t in ts)
             for k, ts in theorems.items()}
    order = sorted(theorems, key=lambda k: -total[k])
    return [t for k in order for t in theorems[k]]


def _theorem_runs(tasks: list[Task]) -> list[list[Task]]:
    """Consecutive tasks of one theorem, in order: one pool worker runs each in turn."""
    runs: list[list[Task]] = []
    for t in tasks:
        if runs and runs[-1][0].theorem == t.theorem:
            runs[-1].append(t)
        else:
            runs.append([t])
    return runs


def _kill_group(proc: Any) -> None:
    """Kill a worker and every process it started (its process group)."""
    if proc.pid is None:
        return
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.kill()
    except (OSError, ValueError):
        pass
    proc.join(1)


def _worker(conn: Connection, profile: Profile, seed: int | None, seconds: float) -> None:
    """A pool worker: runs of tasks received through ``conn``, one after another, until
    ``None`` or the end of the pipe; one verdict sent per task as it ends (the budget is per
    task)."""
    die_with_parent()
    try:
        while (run := conn.recv()) is not None:
            for task in run:
                v = run_check(task.theorem, task.claim, task.check, profile, seed, seconds)
                conn.send(v.to_dict())
    except EOFError:
        pass
    finally:
        conn.close()


# per worker: its tasks (the first one running), process, pipe, and the wall-clock time and
# the worker's CPU seconds when that task started
_Running = dict[Any, tuple[list[Task], Any, Connection, float, float]]


def _execute_pool(tasks: list[Task], profile: Profile, jobs: int, seed: int | None,
                  seconds: float) -> Iterable[Verdict]:
    """Run the tasks on ``jobs`` forked workers, each taking one run of consecutive tasks of
    one theorem (:func:`theorems_longest_first`) after another, the longest runs first. A task
    over its budget is killed (with its worker) and ``inconclusive``, a worker that dies is an
    ``error`` for its current task; the tasks of its run that it had not started go to the next
    free worker, a fresh one forked for the free slot.

    A worker lives for many theorems, not one: a fork per theorem paid, on each, the fork, the
    copy of every page of the parent that the worker writes (reference counts of the modules it
    touches) and the exit, and the smt route's solver process was forked again by every worker
    (``bench/bench_run_overhead.py``). What a worker keeps from one theorem to the next is what
    the parent's checks in a ``jobs=1`` run keep: memos of pure functions (values, SMT problems,
    enclosures; the same value whether found or recomputed), sympy's cache, loaded modules, the
    solver process (a fresh z3 context per problem). No check's result depends on it: seeds
    derive from task ids, and hypothesis draws no constants from the loaded modules
    (:func:`~dpverify.verifiers.draws.seed_only_draws`)."""
    ctx = mp.get_context("fork")
    pending = list(reversed(_theorem_runs(tasks)))
    running: _Running = {}
    try:
        yield from _pool_loop(ctx, pending, running, profile, jobs, seed, seconds)
    finally:  # normal end, an exception, Ctrl-C, a closed generator: no worker survives
        for _tasks, proc, conn, _started, _cpu in running.values():
            _kill_group(proc)
            conn.close()


def _start(running: _Running, run: list[Task], proc: Any, conn: Connection) -> None:
    """Give a worker a run of tasks: its first task starts now."""
    conn.send(run)
    running[conn] = (run, proc, conn, time.monotonic(), _process_cpu(proc.pid) or 0.0)


def _end_worker(proc: Any, conn: Connection) -> None:
    """Stop a worker with nothing left to do, and whatever it started."""
    try:
        conn.send(None)
    except OSError:
        pass
    conn.close()
    _kill_group(proc)


def _pool_loop(ctx: Any, pending: list[list[Task]], running: _Running, profile: Profile,
               jobs: int, seed: int | None, seconds: float) -> Iterable[Verdict]:
    while pending or running:
        while pending and len(running) < jobs:  # a free slot: a fresh worker
            conn, child = ctx.Pipe(duplex=True)
            proc = ctx.Process(target=_worker, args=(child, profile, seed, seconds),
                               daemon=True)
            proc.start()
            child.close()
            _start(running, pending.pop(), proc, conn)
        for conn in wait(list(running), timeout=0.5):
            run, proc, _, _, _ = running.pop(conn)
            try:
                data = conn.recv()
            except EOFError:
                data = None
            if data is not None:
                if len(run) > 1:  # the worker's next task starts now
                    running[conn] = (run[1:], proc, conn, time.monotonic(),
                                     _process_cpu(proc.pid) or 0.0)
                elif pending:  # its run is done: the next run
                    _start(running, pending.pop(), proc, conn)
                else:
                    _end_worker(proc, conn)
                yield Verdict.from_dict(data)
                continue
            conn.close()
            _kill_group(proc)  # anything the check started dies with it
            if len(run) > 1:
                pending.append(run[1:])
            yield _crashed(run[0], proc.exitcode)
        now = time.monotonic()
        for conn, (run, proc, _conn, started, cpu) in list(running.items()):
            task = run[0]
            why = _over_budget(task.route, proc.pid, now - started, cpu, seconds)
            if why is None:
                continue
            _kill_group(proc)
            running.pop(conn)
            conn.close()
            if len(run) > 1:
                pending.append(run[1:])
            yield Verdict(task.theorem, task.claim, task.check, task.route,
                          Status.INCONCLUSIVE, f"killed at {why}",
                          {"timeout_seconds": seconds, "clock": budget_clock(task.route)},
                          now - started)


def _over_budget(route: str, pid: int | None, wall: float, cpu_started: float,
                 seconds: float) -> str | None:
    """Why a running task is to be killed (None: it is not): its budget counts what the
    route's :class:`~dpverify.verifiers.verdict.Budget` counts (``budget_clock``), plus
    ``KILL_GRACE_SECONDS`` for the route to stop by itself; a CPU budget also has the
    wall-clock backstop; without ``/proc`` every budget is wall-clock time."""
    cpu = _process_cpu(pid) if budget_clock(route) == "cpu" else None
    if cpu is None:
        return (f"the time budget of {seconds:.0f} s" if wall > seconds + KILL_GRACE_SECONDS
                else None)
    if cpu - cpu_started > seconds + KILL_GRACE_SECONDS:
        return f"the time budget of {seconds:.0f} s (CPU seconds)"
    if wall > seconds * WALL_BACKSTOP_FACTOR + KILL_GRACE_SECONDS:
        return f"the wall-clock backstop of {seconds * WALL_BACKSTOP_FACTOR:.0f} s"
    return None


def _process_cpu(pid: int | None) -> float | None:
    """CPU seconds of a process and of its children that ended (Linux ``/proc``), None when
    unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _crashed(task: Task, exitcode: int | None) -> Verdict:
    return Verdict(task.theorem, task.claim, task.check, task.route, Status.ERROR,
                   f"worker died with exit code {exitcode}", {})


# ------------------------------------------------------------------------------------------
# the run document


def _version(pkg: str) -> str | None:
    try:
        return metadata.version(pkg)
    except metadata.PackageNotFoundError:
        return None


def environment() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "packages": {p: _version(p) for p in
                     ("dpverify", "mpmath", "python-flint", "sympy", "z3-solver", "hypothesis")},
    }


def assemble(tasks: list[Task], verdicts: list[Verdict], profile: Profile, command: str,
             seconds: float, ids: Iterable[str] | None = None,
             executor: dict[str, Any] | None = None) -> dict[str, Any]:
    by_claim: dict[tuple[str, int], list[Verdict]] = {}
    for v in verdicts:
        by_claim.setdefault((v.theorem, v.claim), []).append(v)
    theorems = [get(i) for i in ids] if ids else all_theorems()
    counts = {o.value: 0 for o in Outcome}
    status_counts = {s.value: 0 for s in Status}
    out_theorems = []
    for th in theorems:
        claims = []
        for c in th.claims:
            vs = by_claim.get((th.id, c.number))
            if vs is None:
                continue
            entry = claim_entry(c, vs)
            counts[entry["outcome"]] += 1
            status_counts[entry["headline"]] += 1
            claims.append(entry)
        out_theorems.append({
            "id": th.id,
            "title": th.title,
            "family": th.family,
            "source": th.source.cite(),
            "types": list(th.types),
            "confidence": list(th.confidence),
            "encoded": th.encoded,
            "aliases": list(th.aliases),
            "claims": claims,
        })
    doc = {
        "schema": SCHEMA,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": command,
        "profile": profile.name,
        "duration_seconds": round(seconds, 2),
        "environment": environment(),
        "summary": {
            "claims": sum(counts.values()),
            "outcomes": counts,
            "headlines": status_counts,
            "tasks": len(tasks),
            "theorems_encoded": sum(1 for t in theorems if t.encoded),
            "theorems_total": len(theorems),
        },
        "theorems": out_theorems,
    }
    if executor is not None:  # {"name", "workers", "scheduler"}: where the tasks ran
        doc["executor"] = executor
    doc["exit_code"] = exit_code(doc)
    return doc


def claim_entry(claim: Any, verdicts: list[Verdict]) -> dict[str, Any]:
    """A claim of the run document: its verdicts, headline (the weakest part) and outcome."""
    head = headline([v.status for v in verdicts],
                    [claim.checks[v.check].part for v in verdicts])
    return {
        "number": claim.number,
        "text": claim.text,
        "expected": claim.expected,
        "scope": claim.scope,
        "routes": list(claim.routes()),
        "headline": head.value,
        "outcome": outcome(claim.expected, head).value,
        "verdicts": [v.to_dict() for v in verdicts],
    }


def exit_code(doc: dict[str, Any]) -> int:
    """0: every decided claim as expected; 1: a claim came out unexpectedly; 3: a crash."""
    outcomes = doc["summary"]["outcomes"]
    if outcomes.get(Outcome.ERROR.value):
        return 3
    if outcomes.get(Outcome.UNEXPECTED.value):
        return 1
    return 0
