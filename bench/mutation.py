"""The tester's power: single-token mutations of the formulas a family uses, run against that
family's claims (issue "Verdicts that say exactly what was shown", item 5).

    python bench/mutation.py [--family F ...] [--mutants N] [--seed S ...] [--seconds T]
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
   does but a check that was proved/certified/passed now ends ``inconclusive`` (or anything
   weaker than its baseline status, e.g. ``not_applicable``) or runs past the runner's task
   limit (the profile's seconds plus the kill grace, where the runner records
   ``inconclusive``): ``dpverify run --baseline`` exits 1 on it; *timed out* when the child
   runs past ``--seconds`` (the harness's wall clock; at least 10 s + twice the baseline
   seconds of the checks to judge) before either.
4. **Equivalence.** The baseline also records a bounded sample of the argument tuples each
   executed function was really called with (``bench/mutation_inputs.py``). A mutant no check
   killed is evaluated against the original on those tuples and on random tuples in the same
   ranges, contexts raised by 64 bits: *equivalent* when every outcome agrees to the working
   precision ("indistinguishable on N recorded inputs" — evidence, not a proof), *survived*
   otherwise, with the input where it differs — a claim the catalogue is missing — unless
   its callers show no difference: a mutant whose own outputs differ is compared at the
   nearest mutable functions that called it in the baseline (each side in a fresh child, so
   no cache the original filled serves the mutant), and where a caller differs too, at that
   caller's callers, up to 3 levels of at most 6 callers each; *equivalent* (in effect) when
   every path up agrees. Each comparison child is limited in CPU seconds (RLIMIT_CPU; the
   wall clock, 8 times that, is only a backstop), so the classification does not depend on
   the load; a comparison past its limit is *not* equivalent.

5. **Owner.** Before 4: a survivor of a function whose module is imported by theorems of
   another family (the formula's owner) is judged again against that family's checks, as the
   family's own (3: only the owner checks that execute the function and came out as expected,
   cheapest first, weaker than their baseline = weakened; one owner baseline per set of owner
   theorems): *killed by the owner family* when one of them kills it.

The kill rate is (killed + killed by the owner family) / (mutants - equivalent); the detection
rate adds the mutants detected by weakening. Rows go to
stdout and ``--jsonl`` (each with its seed); the table per family to stdout and
``--markdown``. ``--replay`` (repeatable) judges the survived, timed-out and weakened rows of
earlier runs again (one baseline per family for all of them) and carries the others over;
with rows of several seeds the table has a row per family and seed, and a pooled one.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
import random
import re
import signal
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutation_children import _in_child, _stream_child, cpu_limit
from mutation_inputs import EXTRA, Recorder, agree, compare, extra_inputs, loads, outcomes
from mutation_sites import Site, apply, resolve, sites_of
from mutation_table import COLUMNS, per_seed, table  # siblings of this script

from dpverify.theorems import all_theorems
from dpverify.theorems.core import Theorem
from dpverify.verifiers.dispatch import PROFILES, run_check
from dpverify.verifiers.runner import KILL_GRACE_SECONDS, Task, plan
from dpverify.verifiers.verdict import Status, weakened

ROOT = Path(__file__).resolve().parents[1]
MUTABLE = (ROOT / "theorems" / "formulas", ROOT / "theorems" / "numerics")


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
                up, depth = frame.f_back, 0  # the nearest mutable function that called it
                while up is not None and depth < CALLER_DEPTH:
                    outer = codes.get(up.f_code)
                    if outer and outer != key:
                        callers[key].add(outer)
                        break
                    up, depth = up.f_back, depth + 1

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


def equivalence(site: Site, calls: list[Any], seconds: float) -> dict[str, Any]:
    """Original vs mutant on the recorded calls (in a forked child): ``equivalent`` or not."""
    if not calls:
        return {"equivalent": False, "compared": 0, "differs_at": "no recorded call"}

    def work() -> dict[str, Any]:
        cpu_limit(seconds)  # compare() itself keeps within about half of it
        return compare(_unwrapped((site.module, site.name)), lambda: apply(site), calls,
                       f"{site}", budget=seconds / 3)

    result = _in_child(work, COMPARE_WALL_FACTOR * seconds)
    return _child_failed(result) or result[1]


# the equivalence comparisons' wall-clock backstop, in multiples of their CPU limit: at load 10
# on 2 cores a process gets about a fifth of a core
COMPARE_WALL_FACTOR = 8
_TIMED_OUT = {"equivalent": False, "compared": 0, "differs_at": "comparison timed out"}


def _child_failed(result: Any) -> dict[str, Any] | None:
    """None when a comparison child answered, else its row: *timed out* past the wall clock or
    at the CPU limit (SIGXCPU: the child dies without a word), or the crash."""
    if result is None or result == ("crash", "died"):
        return dict(_TIMED_OUT)
    if result[0] != "ok":
        return {"equivalent": False, "compared": 0, "differs_at": result[1]}
    return None


class _OverTaskLimit(BaseException):
    """A check ran past the runner's task limit (not an ``Exception``: ``run_check`` must not
    turn it into an ``error`` verdict)."""


def _over_task_limit(_signum: int, _frame: Any) -> None:
    raise _OverTaskLimit


OVER_TASK_LIMIT = "over_task_limit"
SOFT_SECONDS, SOFT_FACTOR = 5.0, 4.0  # first-pass allowance: 5 s + 4 x the baseline seconds


def judge(site: Site, tasks: list[Task], which: list[int], seconds: float,
          cost: list[float] | None = None, base: list[str] | None = None) -> dict[str, Any]:
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

    # the wall clock is never less than twice the checks' own baseline cost (plus 10 s): else
    # a mutant whose checks merely take their usual time, together near ``seconds``, times out
    # on a loaded machine without ever being judged
    wall = max(seconds, 10 + 2 * sum(cost[i] for i in order)) if cost else seconds
    started = time.monotonic()
    value, end = _stream_child(work, wall)
    row: dict[str, Any] = {"seconds": round(time.monotonic() - started, 1),
                           "judged": f"{len(value)} of {len(order)} checks",
                           **({"wall_clock": round(wall, 1)} if wall > seconds else {})}
    if end.startswith("crash") or end == "died":  # `dpverify run` reports such a worker as
        return {**row, "result": "killed", "why": end}  # error (exit 3)
    killers = [tasks[i].id for i, status in value
               if status != OVER_TASK_LIMIT and not _expected_ok(tasks[i], Status(status))]
    if killers:
        return {**row, "result": "killed", "by": killers[:5]}
    # weaker than in the baseline (``base``: its statuses), as ``dpverify run --baseline``
    # orders them: also a proved check now not_applicable (an SMT translation that fails)
    weak = [tasks[i].id for i, status in value
            if status in (OVER_TASK_LIMIT, Status.INCONCLUSIVE.value)
            or (base is not None and weakened(base[i], status))]
    if weak:
        return {**row, "result": "weakened", "by": weak[:5],
                **({"harness_limit_hit": True} if end == "timed_out" else {})}
    if end == "timed_out":
        return {**row, "result": "timed_out"}
    return {**row, "result": "survived"}


# ------------------------------------------------------------------------------------------


def family_ids(family: str) -> list[str]:
    return [t.id for t in all_theorems() if t.family == family]


def run_family(family: str, mutants: int, seeds: list[int], seconds: float,
               replay: list[Site] | None = None) -> Iterator[dict[str, Any]]:
    """Rows for a seeded sample of ``mutants`` sites per seed of ``seeds`` (one baseline for
    all), or for the ``replay`` sites if given (``seeds``: then the seed of the run each was
    drawn in, kept in its row). A site drawn under several seeds is judged once."""
    tasks = plan(family_ids(family))
    base = _in_child(lambda: baseline(tasks, f"{family}/{seeds[0]}"), 1800)
    if base is None or base[0] != "ok":
        raise RuntimeError(f"baseline of {family} failed: {base}")
    info = base[1]
    off = [f"{tasks[i].id} {info['statuses'][i]}" for i, ok in enumerate(info["ok"]) if not ok]
    print(f"# baseline of {family}: {len(tasks)} checks, {sum(info['seconds']):.0f} s; not as "
          f"expected or inconclusive (left out of the judging): {off or 'none'}",
          file=sys.stderr, flush=True)
    sites = [s for (mod, name) in sorted(info["used"]) for s in sites_of(mod, name)]
    if replay is None:
        drawn = [(site, seed) for seed in seeds for site in
                 random.Random(f"{family}/{seed}").sample(sites, min(mutants, len(sites)))]
    else:
        drawn = list(zip(replay, seeds, strict=True))
    judged: dict[Site, dict[str, Any]] = {}

    def up(key: tuple[str, str]) -> Callers:  # the callers of ``key``, with their calls
        return {c: info["calls"].get(c, []) for c in info["callers"].get(key, [])}

    for drawn_site, row_seed in drawn:
        site = resolve(drawn_site) if replay is not None else drawn_site
        if site is None:
            yield {"family": family, "seed": row_seed, **asdict(drawn_site),
                   "result": "gone", "why": "the mutated code no longer exists"}
            continue
        if site in judged:
            yield {**judged[site], "seed": row_seed}
            continue
        # every check of a theorem one of whose checks executed the function: a check served
        # from a cache an earlier check filled (e.g. a lattice) executes it only indirectly
        using = {tasks[i].theorem for i in info["used"].get((site.module, site.name), [])}
        which = [i for i, t in enumerate(tasks) if t.theorem in using and info["ok"][i]]
        if not which:
            continue
        moved = {"drawn_index": drawn_site.index} if site != drawn_site else {}
        row = {"family": family, "seed": row_seed, **asdict(site), **moved, "checks": len(which),
               **judge(site, tasks, which, seconds, info["seconds"], info["statuses"])}
        # the owner family first: a kill there proves the mutant is not equivalent, whatever
        # the recorded inputs show
        if row["result"] == "survived":
            row.update(owner_judge(site, family, seconds))
        if row["result"] == "survived":
            key = (site.module, site.name)
            row.update(classify(site, info["calls"].get(key, []), seconds, up(key), up))
        judged[site] = row
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
    """A survivor judged again against the owner family's checks as the family's own: only the
    checks of owner theorems one of whose checks executes the function and that came out as
    expected unmutated, cheapest in their baseline first, a check weaker than in its baseline
    counting as weakened (the baseline is taken once per set of owner theorems):
    ``killed_by_owner`` when one of them now does not come out as expected."""
    ids = owner_theorems(site, family)
    if not ids:
        return {}
    tasks = plan(ids)
    if tuple(ids) not in _OWNER_BASELINES:
        _OWNER_BASELINES[tuple(ids)] = _in_child(lambda: baseline(tasks, "owner"), 1800)
    base = _OWNER_BASELINES[tuple(ids)]
    if base is None or base[0] != "ok":
        return {"owner": ids, "owner_result": "baseline timed out"}
    info = base[1]
    using = {tasks[i].theorem for i in info["used"].get((site.module, site.name), [])}
    which = [i for i, t in enumerate(tasks) if t.theorem in using and info["ok"][i]]
    if not which:
        return {"owner": ids, "owner_result": "no owner check executes it"}
    again = judge(site, tasks, which, seconds, info["seconds"], info["statuses"])
    if again["result"] == "killed":
        return {"result": "killed_by_owner", "owner": ids, "by": again.get("by", [])}
    return {"owner": ids, "owner_result": again["result"]}


Callers = dict[tuple[str, str], list[Any]]  # functions that call one, with their recorded calls


def classify(site: Site, calls: list[Any], seconds: float, callers: Callers | None = None,
             up: Callable[[tuple[str, str]], Callers] | None = None) -> dict[str, Any]:
    """``result`` ``equivalent`` or ``survived`` for a mutant no check killed, with the why.
    A mutant whose own outputs differ is judged again at its ``callers`` (the nearest mutable
    functions that called it, with their recorded calls), and where a caller's outputs differ
    too, at that caller's callers (``up``), up to ``MAX_DEPTH`` levels: a changed cut-off,
    starting guess, route choice or unused component that no caller's output shows is
    equivalent in effect."""
    found = equivalence(site, calls, seconds)
    if found.pop("equivalent"):
        return {"result": "equivalent", **found,
                "note": f"indistinguishable on {found['compared']} recorded inputs (not a proof)"}
    if not (callers and found.get("compared")):  # only a real difference is judged in use
        return {"result": "survived", **found}
    seen = caller_equivalence(site, callers, seconds, up)
    if seen.pop("equivalent"):
        return {"result": "equivalent", "own_differs_at": found.get("differs_at"), **seen,
                "note": f"its own outputs differ, but its callers' agree on "
                        f"{seen['compared']} recorded inputs (not a proof)"}
    return {"result": "survived", **found, "at_callers": seen}


CALLER_DEPTH = 12  # frames searched up the stack for the nearest mutable caller
MAX_CALLERS, MAX_DEPTH = 6, 3  # callers per level (more: not tried), levels of callers


def _unwrapped(key: tuple[str, str]) -> Any:
    func = getattr(importlib.import_module(key[0]), key[1])
    return getattr(func, "__wrapped__", func)


def _name(key: tuple[str, str]) -> str:
    return f"{key[0].rsplit('.', 1)[-1]}.{key[1]}"


def caller_equivalence(site: Site, callers: Callers, seconds: float,
                       up: Callable[[tuple[str, str]], Callers] | None = None,
                       depth: int = 1) -> dict[str, Any]:
    """``equivalent`` when every caller agrees with its original on every compared input, or,
    where one differs, every one of its own callers does (``up``, up to ``MAX_DEPTH`` levels);
    ``callers``: the functions where agreement was seen. More than ``MAX_CALLERS`` callers at a
    level are not tried (not equivalent)."""
    if len(callers) > MAX_CALLERS:
        return {"equivalent": False, "callers": sorted(map(_name, callers)),
                "differs_at": f"more than {MAX_CALLERS} callers: not compared"}
    compared, names = 0, []
    for key, calls in callers.items():
        found = _caller_agrees(site, key, calls, seconds)
        higher = up(key) if up and depth < MAX_DEPTH and found.get("compared") \
            and not found["equivalent"] else {}
        if higher:  # its output differs: is the difference seen further up?
            found = caller_equivalence(site, higher, seconds, up, depth + 1)
            if found["equivalent"]:
                names += found["callers"]
        elif found["equivalent"]:
            names.append(_name(key))
        if not found["equivalent"]:
            return {**found, "callers": [*names, *found.get("callers", [_name(key)])]}
        compared += found["compared"]
    return {"equivalent": compared > 0, "compared": compared, "callers": names}


def _caller_agrees(site: Site, key: tuple[str, str], calls: list[Any],
                   seconds: float) -> dict[str, Any]:
    """Original and mutant outputs of the caller ``key`` on its recorded calls and random calls
    in their ranges, each side in its own forked child under a CPU limit (no cache filled by
    the original serves the mutant)."""
    if not calls:
        return {"equivalent": False, "compared": 0, "differs_at": "no recorded call"}
    inputs = calls + list(extra_inputs(calls, EXTRA, random.Random(f"{site}/{key}")))

    def original() -> bytes:
        cpu_limit(seconds)
        return outcomes(_unwrapped(key), inputs, seconds / 6)

    before = _in_child(original, COMPARE_WALL_FACTOR * seconds)
    if failed := _child_failed(before):
        return failed
    was = loads(before[1])
    limits = [max(2.0, 20 * took) for _, _, took in was]

    def mutant() -> bytes:
        cpu_limit(seconds)
        apply(site)
        return outcomes(_unwrapped(key), inputs[:len(limits)], None, limits)

    after = _in_child(mutant, COMPARE_WALL_FACTOR * seconds)
    if failed := _child_failed(after):
        return failed
    return agree(inputs, was, loads(after[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", action="append")
    parser.add_argument("--mutants", type=int, default=20)
    parser.add_argument("--seed", type=int, action="append", help="repeatable: a sample per "
                        "seed, one baseline per family for all (default 1)")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--jsonl", type=Path)
    parser.add_argument("--markdown", type=Path)
    parser.add_argument("--replay", type=Path, action="append", help="a JSONL of an earlier "
                        "run (repeatable: runs of several seeds are replayed together, one "
                        "baseline per family): its survived, timed-out and weakened rows are "
                        "judged again (same sites), its other rows carried over; a row without "
                        "a seed takes the --seed given")
    args = parser.parse_args(argv)
    families = args.family or sorted({t.family for t in all_theorems()})
    seeds = args.seed or [1]
    earlier = [{"seed": seeds[0], **json.loads(line)} for path in args.replay or []
               for line in path.read_text("utf-8").splitlines() if line.strip()]
    totals: dict[str, dict[str, int]] = {}
    out = args.jsonl.open("a", encoding="utf-8") if args.jsonl else None
    for family in families:
        mine = [r for r in earlier if r["family"] == family]
        again = ("survived", "timed_out", "weakened")
        carried = [r for r in mine if r["result"] not in again]
        redo = [r for r in mine if r["result"] in again]
        replay = [Site(r["module"], r["name"], r["kind"], r["index"], r["line"])
                  for r in redo] if args.replay else None
        if args.replay and not mine:
            continue
        rows = run_family(family, args.mutants, [r["seed"] for r in redo] if args.replay
                          else seeds, args.seconds, replay) if replay is None or replay \
            else iter(())
        for row in itertools.chain(carried, rows):  # rows reach the JSONL as they come
            for key in (family, f"{family} (seed {row['seed']})"):
                counts = totals.setdefault(key, dict.fromkeys(COLUMNS, 0))
                counts[row["result"]] = counts.get(row["result"], 0) + 1
            print(json.dumps(row), flush=True)
            if out:
                out.write(json.dumps(row) + "\n")
                out.flush()
    text = table(per_seed(totals, families))
    print("\n" + text)
    if args.markdown:
        args.markdown.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
