"""The cost of the smt route's hard limit (``call_limited``, verifiers/limited.py): every smt
check of the catalogue (quick profile), each solved in a forked child killed at its deadline
(``--mode forked``, the product) or in the process (``--mode in-process``, no hard limit),
serially in one process. Prints the CPU seconds (this process and its children) and the wall
seconds of the whole set and per task, and the verdict counts (the two modes must agree).

    python bench/bench_smt_hard_limit.py --mode forked
    python bench/bench_smt_hard_limit.py --mode in-process

Run the two modes as separate processes (sympy's caches warm up within a process). Also times
``call_limited`` of a trivial call in the same process after the set (the fork and
pipe alone).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter

from dpverify.theorems import all_theorems
from dpverify.theorems.claims import Smt
from dpverify.verifiers.dispatch import PROFILES, run_claim_check
from dpverify.verifiers.limited import call_limited
from dpverify.verifiers.smt import route


def _cpu() -> float:
    t = os.times()
    return time.process_time() + t.children_user + t.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=("forked", "in-process"), default="forked")
    parser.add_argument("--theorem", action="append", help="only these theorem ids")
    args = parser.parse_args()
    if args.mode == "in-process":
        route.call_limited = lambda fn, seconds: fn()
    tasks = [(th, c, i) for th in all_theorems() if not args.theorem or th.id in args.theorem
             for c in th.claims for i, k in enumerate(c.checks) if isinstance(k, Smt)]
    statuses: Counter[str] = Counter()
    cpu0, wall0 = _cpu(), time.monotonic()
    for th, claim, index in tasks:
        statuses[run_claim_check(th, claim, index, PROFILES["quick"]).status.value] += 1
    cpu, wall = _cpu() - cpu0, time.monotonic() - wall0
    n = 50
    fork_cpu0, fork_wall0 = _cpu(), time.monotonic()
    for _ in range(n):
        call_limited(lambda: None, 30.0)
    print(json.dumps({
        "mode": args.mode, "tasks": len(tasks), "cpu_seconds": round(cpu, 2),
        "wall_seconds": round(wall, 2), "cpu_ms_per_task": round(1000 * cpu / len(tasks), 2),
        "statuses": dict(sorted(statuses.items())),
        "trivial_call_cpu_ms": round(1000 * (_cpu() - fork_cpu0) / n, 2),
        "trivial_call_wall_ms": round(1000 * (time.monotonic() - fork_wall0) / n, 2),
        "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
