"""The parent's serial CPU for a run's HTML report, drawn after the checks or ahead of them
(run by hand, never in CI).

    /work/venv/bin/python bench/bench_report.py [RUN.json]

From a finished run document (default: the committed catalogue snapshot), in one process:

- ``after``: ``html.render(doc)``, every plot drawn after the checks, as ``dpverify run`` did
  before :mod:`dpverify.reports.html.ahead`;
- ``ahead``: the verdicts fed to a :class:`PlotsAhead` one by one, as a pool run does, the
  plotting process given time to draw, then ``collect`` + ``render``: the parent's CPU for
  ``collect`` + ``render`` is what is left after the checks; the plotting process's CPU is
  spent while the checks run.

Prints CPU seconds (process time: a loaded machine inflates it less than wall time) and
whether the two pages are equal byte for byte.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from pathlib import Path

from dpverify.reports import html
from dpverify.reports.html.ahead import plots_ahead
from dpverify.verifiers.verdict import Verdict

SNAPSHOT = Path(__file__).resolve().parent.parent / "reports" / "catalogue" / "latest.json"


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_idle(pid: int, limit: float = 120.0) -> None:
    """Until the process has used no CPU for a second (Linux ``/proc``)."""
    end, last = time.monotonic() + limit, -1.0
    while time.monotonic() < end:
        time.sleep(1.0)
        now = _proc_cpu(pid)
        if now == last:
            return
        last = now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", nargs="?", default=str(SNAPSHOT))
    args = parser.parse_args()
    doc = json.loads(Path(args.run).read_text())
    verdicts = [Verdict.from_dict(v) for th in doc["theorems"] for c in th["claims"]
                for v in c["verdicts"]]
    tasks = [(v.theorem, v.claim, v.check) for v in verdicts]

    t = time.process_time()
    after = html.render(doc)
    after_cpu = time.process_time() - t

    with plots_ahead(tasks, True) as ahead:
        assert ahead is not None
        t = time.process_time()
        for v in verdicts:
            ahead.feed(v)
        feed_cpu = time.process_time() - t
        _wait_idle(ahead.proc.pid)  # a real run's checks: the process draws meanwhile
        t = time.process_time()
        page = html.render(doc, drawn=ahead.collect(doc))
        collect_cpu = time.process_time() - t
    child_cpu = _children_cpu()
    print(f"after the checks: render {after_cpu:.2f} s CPU (parent, serial)")
    print(f"ahead: feed {feed_cpu:.2f} s (during the checks), collect + render "
          f"{collect_cpu:.2f} s (parent, serial); plotting process {child_cpu:.2f} s CPU "
          "(during the checks)")
    print("pages equal:", page == after, f"({len(page)} characters)")


if __name__ == "__main__":
    main()
