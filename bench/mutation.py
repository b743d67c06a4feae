"""The tester's power: single-token mutations of the formulas a family uses, run against that
family's claims (issue "Verdicts that say exactly what was shown", item 5).

    python bench/mutation.py [--family F ...] [--mutants N] [--seed S] [--seconds T]
                             [--jsonl FILE]

1. **Baseline.** In a forked child, every check of the family runs once (quick profile) under a
   profiler that records which functions of ``theorems/formulas`` and ``theorems/numerics``
   each check executes, and the check's outcome.
2. **Mutants.** For a random sample (seeded) of mutation sites in the executed functions — an
   operator swap (``+``/``-``, ``*``/``/``, ``**``→``*``, ``<``/``<=``, ``>``/``>=``), a
   numeric constant changed (``n``→``n+1``, ``x``→``1.01 x``), ``exp``↔``expm1``,
   ``log``↔``log1p``, a dropped term (``a ± b``→``a``), a dropped unary minus, the first two
   arguments of a call swapped — the mutated function's code object replaces the original's
   in place (``func.__code__``), so every importer sees it, in a fresh forked child.
3. **Judgement.** Only the checks that executed the function run again, cheapest in the
   baseline first, until one kills the mutant. It is *killed* when a check that came out as
   expected in the baseline now does not (a claim expected to hold fails or errs — ``dpverify
   run`` exits 1 or 3 —, an erratum is no longer refuted); *detected by weakening* when none
   does but a check that was proved/certified/passed now ends ``inconclusive`` or runs past the
   runner's task limit (the profile's seconds plus the kill grace, where the runner records
   ``inconclusive``): ``dpverify run --baseline`` exits 1 on it; *timed out* when the child
   runs past ``--seconds`` (the harness's wall clock) before either.
4. **Equivalence.** The baseline also records a bounded sample of the argument tuples each
   executed function was really called with (``bench/mutation_inputs.py``). A mutant no check
   killed is evaluated against the original on those tuples and on random tuples in the same
   ranges, contexts raised by 64 bits: *equivalent* when every outcome agrees to the working
   precision ("indistinguishable on N recorded inputs" — evidence, not a proof), *survived*
   otherwise, with the input where it differs — a claim the catalogue is missing. The
   comparison's limits are CPU seconds (so the classification does not depend on the load).

5. **Owner.** A survivor of a function whose module is imported by theorems of another
   family (the formula's owner) is judged again against that family's checks (before the
   equivalence classification of 4, which only runs if the owner does not kill it):
   *killed by the owner family* when one of them kills it (judged like the family's own: the
   owner checks that execute the function, cheapest first).

``--replay RUN.jsonl`` judges the survived, timed-out and weakened rows of an earlier run again
against the current code (the site found by its text; *gone* when that text is no longer in
the function — counted as not killed) and carries the other rows over.

The kill rate is (killed + killed by the owner family) / (mutants - equivalent); the detection
rate adds the mutants detected by weakening. Rows go to
stdout and ``--jsonl``; the table per family to stdout and ``--markdown``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import random
import re
import resource
import signal
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutation_inputs import (  # a sibling of this script
    Recorder,
    all_inputs,
    compare,
    dumps,
    judge_outcomes,
    loads,
    mutant_outcomes,
    originals,
)
from mutation_sites import (  # a sibling of this script
    MUTABLE,
    Site,
    _in_child,
    _stream_child,
    apply,
    resolve,
    sites_of,
)

from dpverify.theorems import all_theorems
from dpverify.theorems.core import Theorem
from dpverify.theorems.ctx import arb_precision
from dpverify.verifiers.dispatch import PROFILES, run_check
from dpverify.verifiers.runner import KILL_GRACE_SECONDS, Task, plan
from dpverify.verifiers.verdict import Status


def _expected_ok(task: Task, status: Status) -> bool:
    claim = next(c for c in _theorem(task.theorem).claims if c.number == task.claim)
    if status in (Status.ERROR,):
        return False
    if claim.expected == "refuted":
        return status is Status.FAILED
    return status is not Status.FAILED


def _theorem(tid: str) -> Any:
    return next(t for t in all_theorems() if t.id == tid)


def _top_level_codes() -> dict[Any, tuple[str, str]]:
    """The code object of every module-level function of the mutable modules."""
    codes = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not (name.startswith("dpverify.theorems.") and path
                and Path(path).resolve().parent in MUTABLE):
            continue
        for attr, obj in list(vars(module).items()):
            fn = getattr(obj, "__wrapped__", obj)
            code = getattr(fn, "__code__", None)
            if code is not None and getattr(fn, "__module__", None) == name \
                    and code.co_name == attr:
                codes[code] = (name, attr)
    return codes


def baseline(tasks: list[Task], seed: str = "") -> dict[str, Any]:
    """Which mutable functions each task executes, its baseline outcome, and sampled calls."""
    used: dict[tuple[str, str], set[int]] = defaultdict(set)
    recorder = Recorder(seed)
    codes: dict[Any, tuple[str, str]] = {}
    current = -1

    callers: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)

    def profiler(frame: Any, event: str, _arg: Any) -> None:
        if event == "call":
            key = codes.get(frame.f_code)
            if key:
                used[key].add(current)
                recorder.offer(key, frame)
                caller = frame.f_back
                # the nearest mutable function up the stack (through non-mutable helpers)
                while caller is not None and caller.f_code not in codes:
                    caller = caller.f_back
                if caller is not None:
                    callers[key].add(codes[caller.f_code])

    ok, seconds, statuses = [], [], []
    quick = PROFILES["quick"]
    for i, task in enumerate(tasks):
        current = i
        codes = _top_level_codes()  # modules a check imports lazily are picked up
        sys.setprofile(profiler)
        started = time.monotonic()
        try:
            v = run_check(task.theorem, task.claim, task.check, quick)
        finally:
            sys.setprofile(None)
        seconds.append(time.monotonic() - started)
        statuses.append(v.status.value)
        ok.append(_expected_ok(task, v.status) and v.status is not Status.INCONCLUSIVE)
    return {"used": {key: sorted(idx) for key, idx in used.items()}, "ok": ok,
            "seconds": seconds, "statuses": statuses, "calls": recorder.calls,
            "callers": {key: sorted(c) for key, c in callers.items()}}


def _cpu_limit(seconds: float) -> None:
    """Limit this (child) process to ``seconds`` of CPU (SIGXCPU kills it past that): the
    comparisons' verdicts then do not depend on the load; the wall clock only backs it up."""
    resource.setrlimit(resource.RLIMIT_CPU, (math.ceil(seconds), math.ceil(seconds) + 1))


def _function_of(module: str, name: str) -> Callable[..., Any]:
    func = getattr(importlib.import_module(module), name)
    return getattr(func, "__wrapped__", func)


_TIMED_OUT = {"equivalent": False, "compared": 0, "differs_at": "comparison timed out"}


def _child_result(result: Any) -> dict[str, Any] | None:
    """None when a comparison child answered, else the row for its failure."""
    if result is None or result == ("crash", "died"):  # wall clock, or SIGXCPU at the CPU limit
        return _TIMED_OUT
    if result[0] != "ok":
        return {"equivalent": False, "compared": 0, "differs_at": result[1]}
    return None


def equivalence(site: Site, calls: list[Any], seconds: float,
                target: tuple[str, str] | None = None) -> dict[str, Any]:
    """Original vs mutant on the recorded calls (in a forked child) of the mutated function, or
    of ``target`` (module, name), a function that calls it: ``equivalent`` or not.

    For a caller the original and the mutant run in two fresh children: a cache between the
    caller and the mutated function (an lru cache, a module's table) filled by the original
    would otherwise answer for the mutant."""
    if not calls:
        return {"equivalent": False, "compared": 0, "differs_at": "no recorded call"}
    wall = COMPARE_WALL_FACTOR * seconds
    if target is None:
        def work() -> dict[str, Any]:
            _cpu_limit(seconds)  # at most about half of it is used
            return compare(_function_of(site.module, site.name), lambda: apply(site), calls,
                           f"{site}", budget=seconds / 3)

        result = _in_child(work, wall)
        return _child_result(result) or result[1]
    inputs = all_inputs(calls, f"{site}/{target}")

    def first() -> bytes:
        _cpu_limit(seconds)
        return dumps(originals(_function_of(*target), inputs, seconds / 3))[0]

    done = _in_child(first, wall)
    failed = _child_result(done)
    if failed:
        return failed
    before = _loads_exact(done[1])

    def second() -> bytes:
        _cpu_limit(seconds)
        apply(site)
        return dumps(mutant_outcomes(_function_of(*target), inputs, before, seconds / 3))[0]

    done = _in_child(second, wall)
    return _child_result(done) or judge_outcomes(inputs, before, _loads_exact(done[1]))


def _loads_exact(blob: bytes) -> Any:
    """Outcomes sent back by a child: their balls' exact midpoints and radii are rebuilt as
    ``man * 2^exp``, exact only at a precision above their mantissas' bits."""
    with arb_precision(1 << 16):
        return loads(blob)


# the equivalence comparison's wall-clock backstop, in multiples of its CPU limit: at load 10
# on 2 cores a process gets about a fifth of a core
COMPARE_WALL_FACTOR = 8


class _OverTaskLimit(BaseException):
    """A check ran past the runner's task limit (not an ``Exception``: ``run_check`` must not
    turn it into an ``error`` verdict)."""


def _over_task_limit(_signum: int, _frame: Any) -> None:
    raise _OverTaskLimit


OVER_TASK_LIMIT = "over_task_limit"
SOFT_SECONDS, SOFT_FACTOR = 5.0, 4.0  # first-pass allowance: 5 s + 4 x the baseline seconds


def judge(site: Site, tasks: list[Task], which: list[int], seconds: float,
          cost: list[float] | None = None) -> dict[str, Any]:
    """Run the checks ``which`` (cheapest in the baseline first; one that takes far longer than
    in the baseline is put off to a second pass) under the mutant until one kills it.
    ``killed``: a check that came out as expected now does not (``error`` included: ``dpverify
    run`` exits 3 on it); ``weakened``: none did, but one that was proved, certified or passed
    is now ``inconclusive`` or ran past the runner's task limit (the profile's seconds plus the
    kill grace; the runner records it ``inconclusive``) — ``dpverify run --baseline`` exits 1 on
    it; ``timed_out``: the harness killed the mutant at ``seconds`` before any of that;
    ``survived`` otherwise."""
    quick = PROFILES["quick"]
    task_limit = quick.seconds + KILL_GRACE_SECONDS
    order = sorted(which, key=lambda i: cost[i]) if cost else list(which)

    def limited(i: int, limit: float) -> str:
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            return run_check(tasks[i].theorem, tasks[i].claim, tasks[i].check,
                             quick).status.value
        except _OverTaskLimit:
            return OVER_TASK_LIMIT
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def work() -> Iterator[tuple[int, str]]:
        apply(site)
        signal.signal(signal.SIGALRM, _over_task_limit)
        # first pass: a check far slower than in the baseline is put off (a mutant can make a
        # cheap check slow, and a later check may kill it at once); second pass: the put-off
        # checks with the runner's task limit
        deferred = []
        for i in order:
            soft = min(task_limit, SOFT_SECONDS + SOFT_FACTOR * max(cost[i], 0.0)) \
                if cost else task_limit
            status = limited(i, soft)
            if status == OVER_TASK_LIMIT and soft < task_limit:
                deferred.append(i)
                continue
            yield i, status
            if status != OVER_TASK_LIMIT and not _expected_ok(tasks[i], Status(status)):
                return
        for i in deferred:
            status = limited(i, task_limit)
            yield i, status
            if status != OVER_TASK_LIMIT and not _expected_ok(tasks[i], Status(status)):
                return

    started = time.monotonic()
    value, end = _stream_child(work, seconds)
    row: dict[str, Any] = {"seconds": round(time.monotonic() - started, 1),
                           "judged": f"{len(value)} of {len(order)} checks"}
    if end.startswith("crash") or end == "died":  # `dpverify run` reports such a worker as
        return {**row, "result": "killed", "why": end}  # error (exit 3)
    killers = [tasks[i].id for i, status in value
               if status != OVER_TASK_LIMIT and not _expected_ok(tasks[i], Status(status))]
    if killers:
        return {**row, "result": "killed", "by": killers[:5]}
    weak = [tasks[i].id for i, status in value
            if status in (OVER_TASK_LIMIT, Status.INCONCLUSIVE.value)]
    if weak:
        return {**row, "result": "weakened", "by": weak[:5],
                **({"harness_limit_hit": True} if end == "timed_out" else {})}
    if end == "timed_out":
        return {**row, "result": "timed_out"}
    return {**row, "result": "survived"}


# ------------------------------------------------------------------------------------------


def family_ids(family: str) -> list[str]:
    return [t.id for t in all_theorems() if t.family == family]


def run_family(family: str, mutants: int, seed: int, seconds: float,
               replay: list[Site] | None = None) -> Iterator[dict[str, Any]]:
    """Rows for a seeded sample of ``mutants`` sites, or for the ``replay`` sites if given."""
    tasks = plan(family_ids(family))
    base = _in_child(lambda: baseline(tasks, f"{family}/{seed}"), 1800)
    if base is None or base[0] != "ok":
        raise RuntimeError(f"baseline of {family} failed: {base}")
    info = base[1]
    off = [f"{tasks[i].id} {info['statuses'][i]}" for i, ok in enumerate(info["ok"]) if not ok]
    print(f"# baseline of {family}: {len(tasks)} checks, {sum(info['seconds']):.0f} s; not as "
          f"expected or inconclusive (left out of the judging): {off or 'none'}",
          file=sys.stderr, flush=True)
    sites = [s for (mod, name) in sorted(info["used"]) for s in sites_of(mod, name)]
    rng = random.Random(f"{family}/{seed}")
    chosen = replay if replay is not None else rng.sample(sites, min(mutants, len(sites)))
    for recorded in chosen:
        site = resolve(recorded) if replay is not None else recorded
        if site is None:
            yield {"family": family, **asdict(recorded), "result": "gone",
                   "note": "the mutated code is no longer in the function"}
            continue
        moved = {"index_at_run": recorded.index} if site.index != recorded.index else {}
        # every check of a theorem one of whose checks executed the function: a check served
        # from a cache an earlier check filled (e.g. a lattice) executes it only indirectly
        using = {tasks[i].theorem for i in info["used"].get((site.module, site.name), [])}
        which = [i for i, t in enumerate(tasks) if t.theorem in using and info["ok"][i]]
        if not which:
            continue
        row = {"family": family, **asdict(site), **moved, "checks": len(which),
               **judge(site, tasks, which, seconds, info["seconds"])}
        # the owner family first: a kill there is proof that the mutant is not equivalent,
        # whatever the recorded inputs of this family show
        if row["result"] == "survived":
            row.update(owner_judge(site, family, seconds))
        if row["result"] == "survived":
            key = (site.module, site.name)
            row.update(classify(site, info["calls"].get(key, []), seconds,
                                {c: info["calls"].get(c, []) for c in info["callers"].get(key, [])
                                 if c != key}))
        yield row


def owner_theorems(site: Site, family: str) -> list[str]:
    """Theorems of OTHER families defined in modules that import the mutated function's module
    (the family that owns the formula, where its claims belong)."""
    short = site.module.rsplit(".", 1)[1]
    imports = re.compile(rf"from dpverify\.theorems\.(formulas|numerics)\.{short} import")
    ids: list[str] = []
    all_theorems()  # imports every family module
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if not (name.startswith("dpverify.theorems.") and path) or \
                Path(path).resolve().parent in MUTABLE:
            continue
        found = [v.id for v in vars(module).values()
                 if isinstance(v, Theorem) and v.family != family]
        if found and imports.search(Path(path).read_text(encoding="utf-8")):
            ids += [i for i in found if i not in ids]
    return sorted(ids)


_OWNER_BASELINES: dict[tuple[str, ...], Any] = {}


def owner_judge(site: Site, family: str, seconds: float) -> dict[str, Any]:
    """A survivor judged again against the owner family's checks (those that came out as
    expected unmutated), as the family's own: only the checks of the owner theorems that execute
    the function, cheapest in their baseline first (the baseline is taken once per set of
    owner theorems): ``killed_by_owner`` when one of them now does not."""
    ids = owner_theorems(site, family)
    if not ids:
        return {}
    tasks = plan(ids)
    key = tuple(ids)
    if key not in _OWNER_BASELINES:
        _OWNER_BASELINES[key] = _in_child(lambda: baseline(tasks, "owner"), 1800)
    base = _OWNER_BASELINES[key]
    if base is None or base[0] != "ok":
        return {"owner": ids, "owner_result": "baseline timed out"}
    info = base[1]
    using = {tasks[i].theorem for i in info["used"].get((site.module, site.name), [])}
    which = [i for i, t in enumerate(tasks) if t.theorem in using and info["ok"][i]]
    if not which:
        return {"owner": ids, "owner_result": "no owner check executes it"}
    again = judge(site, tasks, which, seconds, info["seconds"])
    if again["result"] == "killed":
        return {"result": "killed_by_owner", "owner": ids, "by": again.get("by", [])}
    return {"owner": ids, "owner_result": again["result"]}


def classify(site: Site, calls: list[Any], seconds: float,
             callers: dict[tuple[str, str], list[Any]] | None = None) -> dict[str, Any]:
    """``result`` ``equivalent`` or ``survived`` for a mutant no check killed, with the why.

    A mutant whose own output differs (an index where a sum starts, a candidate range: a hint
    whose value only steers the work) is judged again by its effect: *equivalent* when every
    function that called it in the baseline (the nearest formula or engine function up the
    stack, ``callers``) has recorded calls and agrees with its original on all of them and on
    extra random ones; *survived* otherwise, with the function-level difference."""
    found = equivalence(site, calls, seconds)
    if found.pop("equivalent"):
        return {"result": "equivalent", **found,
                "note": f"indistinguishable on {found['compared']} recorded inputs (not a proof)"}
    if callers and found.get("compared") and all(callers.values()):
        effect = {f"{mod}.{name}": equivalence(site, c, seconds, (mod, name))
                  for (mod, name), c in callers.items()}
        if all(e["equivalent"] for e in effect.values()):
            total = sum(e["compared"] for e in effect.values())
            return {"result": "equivalent", **found, "callers": sorted(effect),
                    "note": f"its own output differs, but every caller ({', '.join(effect)}) "
                            f"agrees on its {total} recorded and random inputs: a hint that "
                            "steers the work, not the value (not a proof)"}
        found["callers_differ"] = sorted(k for k, e in effect.items() if not e["equivalent"])
    return {"result": "survived", **found}


COLUMNS = ("killed", "killed_by_owner", "weakened", "survived", "equivalent", "timed_out")


def table(totals: dict[str, dict[str, int]]) -> str:
    """The Markdown table per family. Both rates are over the non-equivalent mutants: the kill
    rate counts killed mutants (also by the owner family); the detection rate adds those
    detected by weakening (``dpverify run --baseline`` exits 1)."""
    lines = ["| family | mutants | killed | killed by the owner family | detected by weakening "
             "| survived | equivalent | timed out | kill rate | detection rate |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for family, c in totals.items():
        n = sum(c.values())
        live = n - c["equivalent"]
        killed = c["killed"] + c["killed_by_owner"]
        rate = f"{100 * killed / live:.0f} %" if live else "—"
        detected = f"{100 * (killed + c['weakened']) / live:.0f} %" if live else "—"
        lines.append(f"| {family} | {n} | {c['killed']} | {c['killed_by_owner']} "
                     f"| {c['weakened']} | {c['survived']} | {c['equivalent']} "
                     f"| {c['timed_out']} | {rate} | {detected} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", action="append")
    parser.add_argument("--mutants", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--jsonl", type=Path)
    parser.add_argument("--markdown", type=Path)
    parser.add_argument("--replay", type=Path, help="a JSONL of an earlier run: its survived, "
                        "timed-out and weakened rows are judged again (same sites, found by "
                        "their text), its other rows carried over")
    args = parser.parse_args(argv)
    families = args.family or sorted({t.family for t in all_theorems()})
    earlier = ([json.loads(line) for line in args.replay.read_text("utf-8").splitlines()
                if line.strip()] if args.replay else [])
    totals: dict[str, dict[str, int]] = {}
    out = args.jsonl.open("a", encoding="utf-8") if args.jsonl else None
    for family in families:
        mine = [r for r in earlier if r["family"] == family]
        again = ("survived", "timed_out", "weakened")
        carried = [r for r in mine if r["result"] not in again]
        replay = [Site(r["module"], r["name"], r["kind"], r["index"], r["line"])
                  for r in mine if r["result"] in again] if args.replay else None
        if args.replay and not mine:
            continue
        counts = totals.setdefault(family, dict.fromkeys(COLUMNS, 0))
        rows = run_family(family, args.mutants, args.seed, args.seconds, replay) \
            if replay is None or replay else iter(())
        for row in [*carried, *rows]:
            counts[row["result"]] = counts.get(row["result"], 0) + 1
            print(json.dumps(row), flush=True)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
    text = table(totals)
    print("\n" + text)
    if args.markdown:
        args.markdown.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
