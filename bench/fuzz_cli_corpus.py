"""A corpus of bad and edge-case command lines, run in forked children with a hard time limit.

    python bench/fuzz_cli_corpus.py [N] [--seed S] [--limit SECONDS] [--jobs J] [--show K]

Each argv runs in a child forked from a process that has imported dpverify (fast: no
interpreter start-up), with stdout/stderr captured and the child killed at the limit. The
counts reported are those the CLI issue measures: internal errors (exit not in {0, 1, 2}, or a
traceback), runs over the limit, and suspicious accepts (exit 0 printing nan / inf / a negative
value, or an exit-2 message that is not one line or names no parameter, flag or file of argv).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from tests.cli_corpus import generate, judge, prepare_files


def _child(argv: list[str], out: str, err: str) -> None:
    from dpverify.verifiers.limited import die_with_parent

    die_with_parent()  # its own process group, killed with it; dies with the harness
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    fo = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    fe = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
    os.dup2(fo, 1)
    os.dup2(fe, 2)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    from dpverify.reports.cli import main

    try:
        rc = main(argv)
    except SystemExit as e:
        rc = e.code if isinstance(e.code, int) else 9
    except BaseException as e:
        print(f"HARNESS: {type(e).__name__}: {e}", file=sys.stderr)
        rc = 99
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)


def run_one(argv: list[str], limit: float, work: Path, i: int) -> tuple[int | None, str, str,
                                                                          float]:
    out, err = work / f"{i}.out", work / f"{i}.err"
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(argv, str(out), str(err))
    rc: int | None = None
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            rc = os.waitstatus_to_exitcode(status)
            break
        if time.monotonic() - started > limit:
            os.killpg(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            break
        time.sleep(0.01)
    seconds = time.monotonic() - started
    texts = []
    for p in (out, err):
        with open(p, "rb") as f:
            texts.append(f.read(20000).decode("utf-8", "replace"))
        p.unlink()
    return rc, texts[0], texts[1], seconds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="?", default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--show", type=int, default=40)
    ap.add_argument("--only", help="only argv whose subcommand is this")
    a = ap.parse_args()
    # warm the imports the children inherit (and freeze them against edits during a run)
    import dpverify.reports.cli
    import dpverify.reports.io
    import dpverify.theorems.limits
    import dpverify.verifiers.limited
    import dpverify.verifiers.numeric  # noqa: F401
    from dpverify.theorems import all_theorems

    all_theorems()
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory(prefix="dpv-fuzz-") as tmp:
        work = Path(tmp)
        files = prepare_files(work / "files")
        corpus = generate(rng, a.n, files, work / "out")
        if a.only:
            corpus = [c for c in corpus if c and c[0] == a.only]
        counts: Counter[str] = Counter()
        problems: list[tuple[str, list[str], str]] = []
        started = time.monotonic()
        slowest: list[tuple[float, list[str]]] = []
        for i, argv in enumerate(corpus):
            rc, out, err, secs = run_one(argv, a.limit, work, i)
            slowest.append((secs, argv))
            kind = judge(argv, rc, out, err)
            counts[kind or f"exit {rc}"] += 1
            if kind:
                problems.append((kind, argv, (err or out).strip()[-300:]))
        slowest.sort(key=lambda t: -t[0])
    print(f"{len(corpus)} invocations in {time.monotonic() - started:.0f} s: {dict(counts)}")
    for secs, argv in slowest[:5]:
        print(f"  slow {secs:.1f} s: {' '.join(argv)}")
    for kind, argv, msg in problems[: a.show]:
        shown = " ".join(x if len(x) < 60 else x[:30] + f"...({len(x)} chars)" for x in argv)
        print(f"[{kind}] {shown}\n    {msg[:300]}")


if __name__ == "__main__":
    main()
