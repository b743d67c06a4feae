"""CPU profile of ``dpverify run --profile quick`` (run by hand, never in CI).

    /work/venv/bin/python bench/bench_quick_run.py [FAMILY ...] [--out PREFIX]

Every task of the catalogue (or of the named families) in-process, one after another, under
cProfile: the CPU seconds per family and per task (process time, so a loaded machine inflates
them less than wall time), and the profile's top functions by internal time. ``--out PREFIX``
also writes ``PREFIX.prof`` (pstats) and ``PREFIX.json`` (per-task CPU seconds and statuses),
to compare two versions of the code under the same conditions.

In-process runs share imports and module-level state between tasks; the real runner forks one
worker per task, so this profile leaves out what every worker pays again (imports, warm-up).
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import json
import pstats
import time

from dpverify.theorems import get
from dpverify.verifiers.dispatch import PROFILES, run_check
from dpverify.verifiers.runner import plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("families", nargs="*")
    parser.add_argument("--out")
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()
    tasks = [t for t in plan() if not args.families or get(t.theorem).family in args.families]
    profile = PROFILES["quick"]
    prof = cProfile.Profile(time.process_time)
    by_family: collections.Counter[str] = collections.Counter()
    per_task: list[tuple[float, str, str]] = []
    for t in tasks:
        start = time.process_time()
        prof.enable()
        verdict = run_check(t.theorem, t.claim, t.check, profile, None, profile.seconds)
        prof.disable()
        seconds = time.process_time() - start
        by_family[get(t.theorem).family] += seconds
        per_task.append((seconds, t.id, verdict.status.value))
    per_task.sort(reverse=True)
    print(f"{len(tasks)} tasks, {sum(by_family.values()):.1f} s CPU (under cProfile)")
    for family, seconds in by_family.most_common():
        print(f"  {family:<16} {seconds:7.1f} s")
    print("slowest tasks:")
    for seconds, tid, status in per_task[:args.top]:
        print(f"  {seconds:6.2f} s  {tid}  {status}")
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(args.top)
    if args.out:
        prof.dump_stats(f"{args.out}.prof")
        with open(f"{args.out}.json", "w") as fh:
            json.dump({"families": by_family, "tasks": per_task}, fh, indent=1)


if __name__ == "__main__":
    main()
