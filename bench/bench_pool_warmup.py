"""CPU of a pool run with and without the parent's warm-up (run by hand, never in CI).

    /work/venv/bin/python bench/bench_pool_warmup.py [ID ...] [--jobs 2]

The runner forks its pool workers from the parent, so what a check loads on first use is paid
by every worker unless the parent loaded it before forking (:mod:`dpverify.verifiers.warmup`).
This runs the tasks of the named theorems (default: a sample of cheap ones, where the per-task
overhead dominates) twice on the local pool, once with :func:`warm_up` disabled, and prints the CPU
seconds of the parent plus all its workers (``getrusage``: a loaded machine inflates it less
than wall time) and the statuses, which must be the same.
"""

from __future__ import annotations

import argparse
import resource
from unittest import mock

from dpverify.verifiers import runner
from dpverify.verifiers.dispatch import PROFILES

SAMPLE = ("DEF-DP", "BLOG-LAP", "PAR", "DRV-ADV", "KOV-DELTA", "GCE-V1", "BASIC",
          "SMITH-ADAPT-COMP")


def _cpu() -> float:
    own, workers = (resource.getrusage(resource.RUSAGE_SELF),
                    resource.getrusage(resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", default=list(SAMPLE))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    tasks = runner.plan(args.ids)
    statuses = {}
    for mode in ("cold", "warm"):
        started = _cpu()
        if mode == "cold":
            with mock.patch.object(runner, "warm_up", lambda: None):
                verdicts = runner.execute(tasks, PROFILES["quick"], jobs=args.jobs)
        else:
            verdicts = runner.execute(tasks, PROFILES["quick"], jobs=args.jobs)
        statuses[mode] = [v.status.value for v in verdicts]
        print(f"{mode}: {len(tasks)} tasks, {_cpu() - started:.2f} s CPU (parent + workers)")
    print("same statuses:", statuses["cold"] == statuses["warm"])


if __name__ == "__main__":
    main()
