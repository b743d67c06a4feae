"""The cost of the smt route's hard limit (verifiers/smt/server.py): every smt check of the
catalogue (quick profile), solved in the forked solver process killed at a deadline (``--mode
forked``, the product), in a child forked for each problem (``--mode fork-each``, the first
version) or in the process (``--mode in-process``, no hard limit), serially in one process.
Prints the CPU seconds (this process and its children, the solver process reaped at the end) and
the wall seconds of the whole set and per task, and the verdict counts (the modes must agree).

    python bench/bench_smt_hard_limit.py --mode forked
    python bench/bench_smt_hard_limit.py --mode in-process

Run the modes as separate processes (sympy's caches warm up within a process).
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
from dpverify.verifiers.smt import route, server


def _cpu() -> float:
    t = os.times()
    return time.process_time() + t.children_user + t.children_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mode", choices=("forked", "fork-each", "in-process"),
                        default="forked")
    parser.add_argument("--theorem", action="append", help="only these theorem ids")
    args = parser.parse_args()
    if args.mode == "in-process":
        route._in_solver_process = lambda payload, seconds: route._translate_and_solve(payload)
    elif args.mode == "fork-each":
        route._in_solver_process = lambda payload, seconds: call_limited(
            lambda: route._translate_and_solve(payload), seconds)
    tasks = [(th, c, i) for th in all_theorems() if not args.theorem or th.id in args.theorem
             for c in th.claims for i, k in enumerate(c.checks) if isinstance(k, Smt)]
    statuses: Counter[str] = Counter()
    cpu0, wall0 = _cpu(), time.monotonic()
    for th, claim, index in tasks:
        statuses[run_claim_check(th, claim, index, PROFILES["quick"]).status.value] += 1
    wall = time.monotonic() - wall0
    server.stop()  # its CPU counts once it is reaped
    cpu = _cpu() - cpu0
    print(json.dumps({
        "mode": args.mode, "tasks": len(tasks), "cpu_seconds": round(cpu, 2),
        "wall_seconds": round(wall, 2), "cpu_ms_per_task": round(1000 * cpu / len(tasks), 2),
        "statuses": dict(sorted(statuses.items())),
        "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
