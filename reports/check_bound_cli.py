"""``dpverify check-bound``: the command line of the bound checker (registered by reports.cli).

Exit codes: 0 sound (proved/passed), 1 failed (or inconclusive: not shown sound; the verdict
says which), 2 bad input (one line naming the token or parameter), 3 internal error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from dpverify.theorems.errors import InvalidParameter
from dpverify.verifiers.executors import add_executor_arguments, open_executor

HELP = "validate a new privacy bound against the certified optimum: sound? how tight? where?"


def _pairs(items: list[str] | None, flag: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InvalidParameter(f"{flag} expects NAME=VALUE; got {item!r}")
        if name.strip() in out:
            raise InvalidParameter(f"{flag} {name.strip()} is given twice")
        out[name.strip()] = value.strip()
    return out


def add_parser(sub: Any) -> None:
    s = sub.add_parser("check-bound", help=HELP, description=HELP)
    s.add_argument("target", metavar="TARGET", help="module:function, a formula string "
                   "(exp, expm1, log, log1p, sqrt, erfc, Phi, min, max, + - * / ^) or a "
                   "catalogue evaluator ID.NAME")
    s.add_argument("--against", required=True, metavar="REFERENCE",
                   help="optimal-composition, heterogeneous-composition, gaussian, "
                   "subsampled-gaussian, laplace, randomized-response, or ID.NAME")
    s.add_argument("--kind", choices=("eps", "delta"), default="eps")
    s.add_argument("--lower", action="store_true", help="the target is a lower bound")
    s.add_argument("--region", nargs="+", action="extend", metavar="NAME=LO..HI", default=[])
    s.add_argument("--fixed", nargs="+", action="extend", metavar="NAME=VALUE", default=[])
    s.add_argument("--map", nargs="+", action="extend", metavar="BOUNDPARAM=REFPARAM",
                   default=[])
    s.add_argument("--profile", choices=("quick", "thorough"), default="quick")
    s.add_argument("--budget", type=float, metavar="SECONDS",
                   help="up-front time limit (default: quick 60, thorough 1800)")
    s.add_argument("--seed", type=int)
    s.add_argument("--eval-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="per-evaluation limit of a callable target")
    add_executor_arguments(s)
    s.add_argument("--format", choices=("text", "json", "md", "html"), default="text")
    s.add_argument("--out", metavar="DIR", help="also write check-bound.json/.md/.html here")
    s.set_defaults(func=cmd_check_bound)


def cmd_check_bound(args: argparse.Namespace) -> int:
    from dpverify.reports.check_bound_report import render
    from dpverify.reports.io import write_atomic
    from dpverify.verifiers.bounds.engine import Options, check_bound

    def progress(msg: str) -> None:
        print(f"check-bound: {msg}", file=sys.stderr, flush=True)

    options = Options(kind=args.kind, lower=args.lower, profile=args.profile,
                      budget=args.budget, seed=args.seed, eval_timeout=args.eval_timeout,
                      plots=args.format == "html" or bool(args.out))
    region, fixed, maps = (_pairs(args.region, "--region"), _pairs(args.fixed, "--fixed"),
                           _pairs(args.map, "--map"))
    with open_executor(args.executor, args.workers, args.scheduler) as backend:
        doc = check_bound(args.target, against=args.against, region=region, fixed=fixed,
                          maps=maps, options=options, progress=progress,
                          command="dpverify " + " ".join(sys.argv[1:]),
                          executor=backend.executor)
    sys.stdout.write(render(doc, args.format))
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for fmt, ext in (("json", "json"), ("md", "md"), ("html", "html")):
            write_atomic(out / f"check-bound.{ext}", render(doc, fmt))
    return int(doc["exit_code"])


__all__ = ["add_parser", "cmd_check_bound"]
