"""Benchmark of the executors (run by hand, never in CI; needs ``distributed``).

    /work/venv/bin/python bench/bench_executors.py [ID ...]

- a catalogue subset (default: KOV-EPS DRV-ADV DDR-T3 BASIC DR-CLASSIC-GAUSS, quick profile) on
  the local process pool (2 processes), and on a Dask LocalCluster of 1 and of 2 worker
  processes; the cluster's start-up and a first (cold: each sandbox imports the registry) run
  are timed apart from a second (warm) run; speed-up = 1-worker warm / 2-worker warm;
- overhead per task: 40 copies of a task that checks nothing costly (BASIC/5/0) on 1 worker of
  each executor, minus its in-process time.

Every run's verdicts are compared with the local pool's (timing fields aside); a difference is
printed. The machine is shared: wall times are upper bounds.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import distributed

from dpverify.verifiers.dispatch import PROFILES
from dpverify.verifiers.runner import Task, execute, plan
from dpverify.verifiers.verdict import Verdict

DEFAULT_IDS = ["KOV-EPS", "DRV-ADV", "DDR-T3", "BASIC", "DR-CLASSIC-GAUSS"]
TIMING = ("seconds", "boxes_per_second", "timeout_ms", "solver_cpu_seconds")
PROFILE = PROFILES["quick"]
CHEAP = Task("BASIC", 5, 0, "numeric")
COPIES = 40


def _key(verdicts: list[Verdict]) -> dict[tuple[str, int, int], Any]:
    out = {}
    for v in verdicts:
        d = v.to_dict()
        d.pop("seconds")
        d.pop("cpu_seconds", None)
        d["evidence"] = {k: x for k, x in d["evidence"].items() if k not in TIMING}
        out[(v.theorem, v.claim, v.check)] = d
    return out


def _timed(fn: Any) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def _compare(name: str, got: list[Verdict], reference: list[Verdict]) -> None:
    a, b = _key(got), _key(reference)
    diff = [k for k in b if a.get(k) != b[k]]
    print(f"  {name}: {'same verdicts as the local pool' if not diff else 'DIFFERS:'}")
    for k in diff:
        x, y = a.get(k) or {}, b[k]
        fields = {f: (x.get(f), y[f]) for f in y if f != "evidence" and x.get(f) != y[f]}
        ev = {f: (x.get("evidence", {}).get(f), y["evidence"].get(f))
              for f in set(y["evidence"]) | set(x.get("evidence", {}))
              if x.get("evidence", {}).get(f) != y["evidence"].get(f)}
        print(f"    {'/'.join(map(str, k))}: (here, local) {fields} evidence {ev}")


def main(ids: list[str]) -> None:
    tasks = plan(ids)
    print(f"{len(tasks)} tasks of {' '.join(ids)}; {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f} at the start")
    t_local, local = _timed(lambda: execute(tasks, PROFILE, jobs=2))
    print(f"local process pool, 2 processes: {t_local:.1f} s")
    t_one, _ = _timed(lambda: execute([CHEAP] * COPIES, PROFILE, jobs=1))
    t_pool, _ = _timed(lambda: execute([CHEAP] * COPIES, PROFILE, jobs=2))
    print(f"overhead per task: local pool {1000 * (2 * t_pool - t_one) / COPIES:.0f} ms "
          f"(2 processes, {COPIES} copies of {CHEAP.id}: {t_pool:.2f} s; in-process "
          f"{t_one:.2f} s)")
    warm: dict[int, float] = {}
    for n in (1, 2):
        t_start, cluster = _timed(lambda n=n: distributed.LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None))
        with cluster, distributed.Client(cluster) as client:
            ex = client.get_executor(pure=False)
            t_cold, cold = _timed(lambda ex=ex: execute(tasks, PROFILE, executor=ex))
            t_warm, again = _timed(lambda ex=ex: execute(tasks, PROFILE, executor=ex))
            warm[n] = t_warm
            print(f"dask LocalCluster, {n} worker(s): start {t_start:.1f} s, cold run "
                  f"{t_cold:.1f} s, warm run {t_warm:.1f} s")
            _compare("cold", cold, local)
            _compare("warm", again, local)
            if n == 1:
                t_cheap, _ = _timed(lambda ex=ex: execute([CHEAP] * COPIES, PROFILE,
                                                          executor=ex))
                print(f"overhead per task: dask {1000 * (t_cheap - t_one) / COPIES:.0f} ms "
                      f"(1 worker, {COPIES} copies: {t_cheap:.2f} s)")
    print(f"speed-up of 2 Dask workers over 1 (warm): {warm[1] / warm[2]:.2f}x; "
          f"2 Dask workers over the 2-process local pool: {t_local / warm[2]:.2f}x; "
          f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main(sys.argv[1:] or DEFAULT_IDS)
