"""Where a `dpverify run`'s CPU goes outside its tasks (issue 14 item 3).

Runs ``dpverify run ARGS...`` as a child of this process, made a child subreaper (Linux
``PR_SET_CHILD_SUBREAPER``) so that every process of the run — the solver processes that a
worker leaves behind included — is reaped here and counted by ``RUSAGE_CHILDREN``. A sampler
reads ``/proc/<pid>/stat`` of every descendant every few milliseconds; the run's own process is
waited for without being reaped (``WNOWAIT``), so that its final own and children's CPU are read
from its zombie. The split printed:

- parent: the ``dpverify`` process itself (imports, registry, warm-up, reports);
- plotting: the process of ``reports/html/ahead.py`` (last sample);
- workers + reaped: the pool's workers and whatever they reaped (its own cutime), minus plotting;
- orphans: processes reaped here (solver processes outliving their worker);
- tasks: the sum of the run document's ``cpu_seconds``; outside = everything - tasks.

Usage: ``python bench/bench_run_overhead.py [--repeat N] -- ID ... --out DIR`` (the arguments
after ``--`` go to ``dpverify run``; ``--format json`` is added). Linux only.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
PR_SET_CHILD_SUBREAPER = 36


def _stat(pid: int) -> tuple[int, float, float, float, float, int, int] | None:
    """(ppid, utime, stime, cutime, cstime, minflt, starttime) of a process, None if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[1]), int(fields[11]) / TICK, int(fields[12]) / TICK,
            int(fields[13]) / TICK, int(fields[14]) / TICK, int(fields[7]), int(fields[19]))


class Sampler(threading.Thread):
    """The last seen stat of every descendant of ``root``, and its parent at first sight."""

    def __init__(self, root: int, period: float = 0.005) -> None:
        super().__init__(daemon=True)
        self.root, self.period = root, period
        self.seen: dict[int, tuple[int, float, float, float, float, int, int]] = {}
        self.first_parent: dict[int, int] = {}
        self.stopped = threading.Event()

    def run(self) -> None:
        me = os.getpid()
        while not self.stopped.is_set():
            known = {self.root, *self.seen}
            for name in os.listdir("/proc"):
                if not name.isdigit():
                    continue
                pid = int(name)
                st = _stat(pid)
                if st is None:
                    continue
                if pid in known or st[0] in known or (st[0] == me and pid != self.root):
                    self.seen[pid] = st
                    self.first_parent.setdefault(pid, st[0])
                    known.add(pid)
            time.sleep(self.period)


def measure(run_args: list[str]) -> dict[str, float]:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.Popen([sys.executable, "-m", "dpverify", "run", *run_args,
                             "--format", "json"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    sampler = Sampler(proc.pid)
    sampler.start()
    out = proc.stdout.read() if proc.stdout else b""
    os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
    zombie = _stat(proc.pid)
    sampler.stopped.set()
    sampler.join()
    proc.wait()
    while True:  # the orphans: reaped here
        try:
            os.wait()
        except ChildProcessError:
            break
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert zombie is not None
    _, utime, stime, cutime, cstime, minflt, _ = zombie
    doc = json.loads(out)
    tasks = sum(v.get("cpu_seconds") or 0.0 for t in doc["theorems"] for c in t["claims"]
                for v in c["verdicts"])
    children = {pid: st for pid, st in sampler.seen.items()
                if sampler.first_parent.get(pid) == proc.pid}
    # the plotting process is forked first, before the workers (pids may wrap: start times)
    plotting_pid = min(children, key=lambda p: (children[p][6], p), default=None)
    plotting = sum(children[plotting_pid][1:3]) if plotting_pid else 0.0
    faults = sum(st[5] for pid, st in sampler.seen.items() if pid != proc.pid)
    return {
        "total": total,
        "tasks": tasks,
        "outside": total - tasks,
        "parent": utime + stime,
        "parent_user": utime,
        "parent_sys": stime,
        "plotting": plotting,
        "workers_and_reaped": cutime + cstime - plotting,
        "orphans": total - (utime + stime + cutime + cstime),
        "workers_outside": cutime + cstime - plotting + total - (utime + stime + cutime + cstime)
        - tasks,
        "processes": len(sampler.seen),
        "workers": len(children) - 1,
        "minor_faults_children": faults,
        "parent_minor_faults": minflt,
        "exit_code": doc["exit_code"],
        "task_count": doc["summary"]["tasks"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("run_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    run_args = [a for a in args.run_args if a != "--"]
    for _ in range(args.repeat):
        r = measure(run_args)
        print(" ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}"
                       for k, v in r.items()), flush=True)


if __name__ == "__main__":
    main()
