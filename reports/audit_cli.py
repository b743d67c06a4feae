"""``dpverify audit``: claimed eps/delta of accountants against certified references.

Exit codes: 0 every query judged SOUND or LOOSE (or UNSUPPORTED) and at least ``--min-checked``
queries judged against a certified reference; 1 a record is UNSOUND or ERROR (without
``--baseline``), a verdict weakens or a claimed value moves beyond ``--tolerance`` (with
``--baseline``), or fewer than ``--min-checked`` queries were checked ("nothing was checked");
2 bad input (one line naming the flag, file, scenario or module); 3 judging a query failed
inside dpverify (that query is an ERROR with ``"internal": true``; every other result is kept).

With ``--output FILE`` every record is appended to ``FILE.partial.jsonl`` (one JSON object a
line, flushed) as soon as it is judged; the final report is written atomically and the
partial file removed only then, so a killed audit keeps what it judged.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import shutil
import sys
import time
from pathlib import Path
from typing import IO, Any

from dpverify.theorems.errors import InvalidParameter
from dpverify.verifiers.executors import add_executor_arguments, open_executor

EXIT_OK, EXIT_FAILED, EXIT_INTERNAL = 0, 1, 3
INSTALL_HINT = ("install the accountant libraries (pip install 'dpverify[accountants]'), or "
                "pass --accountant module:object for an accountant that answers these "
                "scenarios")


def register(sub: Any) -> None:
    """Add the ``audit`` subcommand to the CLI's subparsers."""
    s = sub.add_parser("audit", help="audit privacy accountants against certified references")
    s.add_argument("--accountant", action="append", metavar="NAME|module:object",
                   help="a built-in adapter (dp_accounting.rdp, dp_accounting.pld, "
                   "prv_accountant, autodp.rdp, opacus.rdp, opacus.prv, opacus.gdp) or an "
                   "import path module:object; repeat for several (default: all built-ins)")
    s.add_argument("--scenarios", default="quick", metavar="quick|thorough|FILE",
                   help="a built-in scenario set or a JSON file of scenarios")
    s.add_argument("--id", action="append", help="only this scenario id (repeatable)")
    s.add_argument("--baseline", metavar="OLD.json", help="an earlier audit JSON: exit 1 when "
                   "a verdict weakens or a claimed value moves beyond --tolerance")
    s.add_argument("--tolerance", type=float, default=1e-6,
                   help="relative change of a claimed value that --baseline reports")
    s.add_argument("--timeout", type=float, default=60.0, help="seconds per accountant call, "
                   "prepare() included (the worker's process group is killed at the limit)")
    s.add_argument("--loose-factor", type=float, default=1.5, help="LOOSE above this factor "
                   "times the certified upper bound")
    s.add_argument("--min-checked", type=int, default=1, metavar="N", help="exit 1 when fewer "
                   "than N queries were judged against a certified reference (default 1; 0 "
                   "turns the gate off)")
    s.add_argument("--no-cache", action="store_true", help="compute every certified reference "
                   "afresh (neither the shipped references nor the on-disk cache)")
    add_executor_arguments(s)
    s.add_argument("--format", choices=("json", "md", "html"), default="md")
    s.add_argument("--output", "-o", help="write the report here (atomically); records "
                   "stream to OUTPUT.partial.jsonl meanwhile")
    s.set_defaults(func=cmd_audit)


# ------------------------------------------------------------------------------------------
# progress and streaming


class Progress:
    """A one-line progress bar on a terminal (stderr); elsewhere one line per finding."""

    def __init__(self, total: int, stream: IO[str] | None = None) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.bad: dict[str, int] = {}
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.monotonic()

    def update(self, r: dict[str, Any]) -> None:
        self.done += 1
        v = r["verdict"]
        if v in ("UNSOUND", "ERROR", "INCONCLUSIVE"):
            self.bad[v] = self.bad.get(v, 0) + 1
            if not self.tty:
                print(f"audit: {v}: {r['accountant']}  {r['scenario']}  {r['query']}",
                      file=self.stream, flush=True)
        if self.tty:
            self._draw(r)

    def _draw(self, r: dict[str, Any]) -> None:
        width = shutil.get_terminal_size((100, 20)).columns - 1
        frac = self.done / self.total
        bar = "#" * int(20 * frac) + "." * (20 - int(20 * frac))
        bad = " ".join(f"{n} {v}" for v, n in self.bad.items())
        line = (f"audit [{bar}] {self.done}/{self.total} {time.monotonic() - self.started:.0f}s"
                f" {bad}  {r['accountant']} {r['scenario']} {r['query']}")
        self.stream.write("\r" + line[:width].ljust(width))
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\r" + " " * (shutil.get_terminal_size((100, 20)).columns - 1)
                              + "\r")
            self.stream.flush()


class Stream:
    """Records appended to ``OUTPUT.partial.jsonl`` as they are judged (flushed each line)."""

    def __init__(self, output: str | None) -> None:
        self.path = Path(f"{output}.partial.jsonl") if output else None
        self.file: IO[str] | None = None
        if self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC
                             | getattr(os, "O_NOFOLLOW", 0), 0o666)
                self.file = os.fdopen(fd, "w", encoding="utf-8")
            except OSError as e:
                raise InvalidParameter(f"--output {output}: cannot write {self.path}: "
                                       f"{e.strerror}") from None

    def write(self, r: dict[str, Any]) -> None:
        if self.file is None:
            return
        try:
            self.file.write(json.dumps(r) + "\n")
            self.file.flush()
        except OSError as e:  # a full disk stops the stream, not the audit
            print(f"audit: cannot append to {self.path} ({e.strerror}); streaming stopped",
                  file=sys.stderr)
            with contextlib.suppress(OSError):
                self.file.close()
            self.file = None

    def close(self, remove: bool) -> None:
        if self.file is not None:
            self.file.close()
            if remove and self.path is not None:
                with contextlib.suppress(OSError):
                    self.path.unlink()


# ------------------------------------------------------------------------------------------
# the command


def _finite_flag(value: float, flag: str, low: float, inclusive: bool = True) -> None:
    ok = math.isfinite(value) and (value >= low if inclusive else value > low)
    if not ok:
        rel = ">=" if inclusive else ">"
        raise InvalidParameter(f"{flag} must be a finite number {rel} {low:g}; got {value}")


def _load_accountants(specs: list[str]) -> list[Any]:
    from dpverify.verifiers.accountants.adapters import BUILTIN, builtin
    from dpverify.verifiers.accountants.audit import Named
    from dpverify.verifiers.accountants.protocol import load_accountant

    unique = list(dict.fromkeys(specs))  # the same spec twice is one accountant
    return [Named(spec, builtin(spec) if spec in BUILTIN or ":" not in spec
                  else load_accountant(spec)) for spec in unique]


def _gate(records: list[dict[str, Any]], minimum: int) -> str | None:
    """The "nothing was checked" message when fewer than ``minimum`` queries were checked."""
    from dpverify.reports.audit_report import counts
    from dpverify.verifiers.accountants.audit import checked

    n = checked(records)
    if n >= minimum:
        return None
    c = counts(records)
    why = ", ".join(f"{c[v]} {v}" for v in ("UNSUPPORTED", "ERROR", "INCONCLUSIVE") if c.get(v))
    head = "nothing was checked" if n == 0 else "too little was checked"
    return (f"{head}: {n} of {len(records)} queries judged against a certified reference "
            f"(--min-checked {minimum}){'; ' + why if why else ''}; to fix: {INSTALL_HINT}")


def cmd_audit(args: argparse.Namespace) -> int:
    """The accountant audit (see the module docstring for the exit codes)."""
    from dpverify.reports import audit_report
    from dpverify.reports.io import write_atomic
    from dpverify.verifiers.accountants.adapters import BUILTIN
    from dpverify.verifiers.accountants.audit import (
        Audit,
        AuditOptions,
        compare,
        exit_code,
        load_records,
    )
    from dpverify.verifiers.accountants.cache import ReferenceStore
    from dpverify.verifiers.accountants.remote import prefetch_references
    from dpverify.verifiers.accountants.sets import scenario_set

    _finite_flag(args.tolerance, "--tolerance", 0)
    if args.min_checked < 0:
        raise InvalidParameter(f"--min-checked must be >= 0; got {args.min_checked}")
    options = AuditOptions(timeout=args.timeout, loose_factor=args.loose_factor,
                           scenarios_label=args.scenarios)  # validates the flags first
    cases, ref_opts = scenario_set(args.scenarios)
    if args.id:
        known = {c.id for c in cases}
        for i in args.id:
            if i not in known:
                raise InvalidParameter(f"--id {i} is not a scenario of {args.scenarios} "
                                       f"(ids: {', '.join(sorted(known))})")
        cases = [c for c in cases if c.id in args.id]
    options = AuditOptions(timeout=args.timeout, loose_factor=args.loose_factor,
                           scenarios_label=args.scenarios, **ref_opts)
    baseline = None
    if args.baseline:
        try:
            text = Path(args.baseline).read_text(encoding="utf-8")
            baseline = load_records(json.loads(text), args.baseline)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
            why = getattr(e, "strerror", None) or type(e).__name__
            raise InvalidParameter(f"cannot read --baseline {args.baseline}: {why}") from None
    accountants = _load_accountants(args.accountant or list(BUILTIN))
    store = ReferenceStore(options.rel_width, options.ref_seconds, use_cache=not args.no_cache)
    started = time.monotonic()
    with open_executor(args.executor, args.workers, args.scheduler) as backend:
        prefetch_references(store, cases, backend.executor,
                            lambda m: print(f"audit: {m}", file=sys.stderr, flush=True))
    run = Audit(accountants, cases, options, reference=store.bound)
    progress = Progress(run.queries())
    stream = Stream(args.output)

    def on_record(r: dict[str, Any]) -> None:
        stream.write(r)
        progress.update(r)

    run.on_record = on_record
    try:
        records = run.run()
    except BaseException:
        progress.close()
        stream.close(remove=False)
        if stream.path is not None:
            print(f"audit: stopped; the records judged so far are in {stream.path}",
                  file=sys.stderr)
        raise
    progress.close()
    meta: dict[str, Any] = {
        "scenarios": args.scenarios, "timeout": args.timeout,
        "loose_factor": args.loose_factor, "rtol": options.rtol,
        "command": "dpverify " + " ".join(sys.argv[1:]),
        "seconds": time.monotonic() - started, "references": store.stats(),
        "executor": backend.describe(),
        "cases": [{"id": c.id, "description": c.scenario.describe(), "note": c.note}
                  for c in cases]}
    code = exit_code(records)
    if baseline is not None:
        meta["baseline"] = cmp = compare(baseline, records, args.tolerance)
        for g in cmp["regressions"]:
            print(f"audit: regression: {g['accountant']} {g['scenario']} {g['query']}: "
                  f"{g['detail']}", file=sys.stderr)
        code = max(code, EXIT_FAILED) if cmp["regressions"] else \
            (EXIT_INTERNAL if code == EXIT_INTERNAL else EXIT_OK)
    gate = _gate(records, args.min_checked)
    if gate:
        meta["gate"] = gate
        code = max(code, EXIT_FAILED)
    if args.format == "json":
        text = json.dumps(records, indent=1) + "\n"
    elif args.format == "html":
        text = audit_report.render_html(records, meta)
    else:
        text = audit_report.render_markdown(records, meta)
    if args.output:
        write_atomic(args.output, text)
        stream.close(remove=True)
    else:
        sys.stdout.write(text)
    print(f"audit: {audit_report.status_text(records, meta)}", file=sys.stderr)
    if gate:
        print(f"audit: {gate}", file=sys.stderr)
    if code == EXIT_INTERNAL:
        print("audit: judging some queries failed inside dpverify (records with "
              '"internal": true); please report it', file=sys.stderr)
    return code


__all__ = ["Progress", "Stream", "cmd_audit", "register"]
