"""The parent's CPU and wall-clock time before, during and after the checks of a ``dpverify
run`` (run by hand, never in CI).

    /work/venv/bin/python bench/bench_parent_serial.py run ID ... --jobs 2 --out DIR

Runs the command in this process with :func:`dpverify.verifiers.runner.execute` wrapped, and
prints on stderr the parent's CPU seconds before the checks (imports, registry, plan), during
them (the pool loop) and after them (the run document, the reports), with the wall-clock time
of the last two: what is left after the checks is the serial tail that the workers cannot
share (issue 14 item 3).
"""

from __future__ import annotations

import sys
import time

from dpverify.verifiers import runner


def main() -> int:
    marks: dict[str, float] = {}
    real = runner.execute

    def execute(*args, **kwargs):  # type: ignore[no-untyped-def]
        marks["cpu0"], marks["wall0"] = time.process_time(), time.monotonic()
        out = real(*args, **kwargs)
        marks["cpu1"], marks["wall1"] = time.process_time(), time.monotonic()
        return out

    runner.execute = execute
    from dpverify.reports.cli import main as cli

    try:
        return cli(sys.argv[1:])
    finally:
        if "cpu1" in marks:
            cpu, wall = time.process_time(), time.monotonic()
            during = marks["cpu1"] - marks["cpu0"], marks["wall1"] - marks["wall0"]
            print(f"parent: before the checks {marks['cpu0']:.2f} s CPU; during them "
                  f"{during[0]:.2f} s CPU ({during[1]:.1f} s wall); after them "
                  f"{cpu - marks['cpu1']:.2f} s CPU ({wall - marks['wall1']:.2f} s wall)",
                  file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
