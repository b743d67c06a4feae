"""Bad and edge-case command lines, and the rule that judges what the CLI did with one.

Shared by the property test (``tests/test_cli_fuzz.py``) and the larger ad-hoc corpus
(``bench/fuzz_cli_corpus.py``). A command line is judged only by its exit status and output:

- exit status in {0, 1, 2} (3 only for ``eval`` saying "time limit": with ``--timeout`` that
  is the answer asked for; at the default limit it is reported as ``time limit (default)``, a
  cost limit still to declare), never a traceback, never killed at the time limit;
- an exit-2 message is one line and names something the user gave (a parameter, a flag, a
  file, an id) or is one of argparse's own usage messages;
- an ``eval`` that succeeds prints a number that is not nan, and not inf or negative unless
  the evaluator's value can be (reported as ``review-*`` for a human to look at).
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

from dpverify.theorems import all_theorems

EDGE_NUMBERS = (
    "1e5000", "-1e5000", "1e-400000", "1e-5000", "1000000000000", "1e12", "nan", "inf",
    "-inf", "NaN", "-0", "0", "-1", "1/3", "1/0", "0/0", "", " ", "1,2", "0.5,0.5", "abc",
    "1e", "0x10", "\u0661", "1_000", "1e308", "1e-308", "4.9e-324", "2", "0.999999999",
    "1e999999", "1" * 5000, "9" * 4400 + "/" + "7" * 4400, "1e+5000", "1.5", "100", "1e6",
    "1e-12", "1000000", "1000000000", "123456789", "1e-30", "0.5", "1", "10", "1e400",
    "-1e-5", "1/1e5000", "3/2", "50", "1e-9", "99999999999999999999", "0.1,", ",",
    "1," * 2000 + "1", "1e-3,1e5000", "0,0,0", "1e-400000,1",
)
SANE = {
    "eps0": "1", "delta0": "1e-6", "k": "10", "eps": "1", "delta": "1e-5", "sigma": "1",
    "sensitivity": "1", "b": "1", "mu": "1", "rho": "0.5", "alpha": "2", "q": "0.01",
    "tau": "0.5", "n": "3", "m": "2", "t": "0.5", "step": "0.1", "eps_list": "1,0.5",
    "delta_list": "1e-6,1e-6", "eps_a": "1,0.5", "eps_c": "0.5", "eps_p": "0.25",
    "neighboring": "add_remove", "direction": "add",
}
DIGITS = ("15", "0", "-3", "1001", "abc", "1e3", "50", "3", "1000", "")
TIMEOUTS = ("5", "0", "-1", "nan", "inf", "1e999", "0.001", "abc", "-0", "1e-300")
REL_WIDTHS = ("1e-3", "0", "-1", "nan", "inf", "2", "abc", "1e-400", "1e-6", "0.5")
CHEAP_RUN_IDS = ("KOV-EPS", "BW-ANALYTIC-GAUSS", "KOV-DELTA")
FAMILIES = ("composition", "nope", "", "subsampling", "mechanisms")
ARGPARSE = ("required", "invalid choice", "unrecognized arguments", "expected one argument",
            "invalid int value", "invalid float value", "ambiguous option", "not allowed with")


def prepare_files(root: Path) -> dict[str, str]:
    """Run files of every kind of wrongness (and one valid run) under ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}

    def put(name: str, data: bytes) -> None:
        (root / name).write_bytes(data)
        files[name] = str(root / name)

    put("nonutf8.json", b"\xff\xfe{\x80}")
    put("nested.json", b"[" * 200000 + b"]" * 200000)
    put("wrong-schema.json", json.dumps({"schema": "dpverify-run/1",
                                         "theorems": [{"x": 1}]}).encode())
    put("v999.json", json.dumps({"schema": "dpverify-run/999", "theorems": []}).encode())
    put("empty.json", b"")
    put("list.json", b"[1, 2]")
    put("bigint.json", b'{"schema": "dpverify-run/1", "n": ' + b"7" * 5000 + b"}")
    put("bigfloat.json", b'{"schema": "dpverify-run/1", "n": 1e999999, "theorems": []}')
    put("nan.json", b'{"schema": "dpverify-run/1", "n": NaN, "theorems": []}')
    put("noschema.json", b'{"theorems": []}')
    put("theorems-not-list.json", b'{"schema": "dpverify-run/1", "theorems": 5}')
    files["missing"] = str(root / "missing.json")
    files["dir"] = str(root)
    files["devzero"] = "/dev/zero"
    fifo = root / "fifo.json"
    if not fifo.exists():
        os.mkfifo(fifo)
    files["fifo"] = str(fifo)
    files["snapshot"] = str(Path(__file__).resolve().parents[1] / "reports" / "catalogue"
                            / "latest.json")
    return files


def _outputs(out_root: Path, rng: random.Random) -> str:
    out_root.mkdir(parents=True, exist_ok=True)
    target = out_root / f"t{rng.randrange(10**9)}"
    kind = rng.choice(("file", "dir", "symlink", "missing-parent", "fifo", "plainfile",
                       "proc", "ok"))
    if kind == "dir":
        target.mkdir()
    elif kind == "symlink":
        (out_root / "real.txt").write_text("keep me")
        target.symlink_to(out_root / "real.txt")
    elif kind == "missing-parent":
        target = target / "a" / "b.txt"
    elif kind == "fifo":
        os.mkfifo(target)
    elif kind == "plainfile":
        target.write_text("x")
    elif kind == "proc":
        return "/proc/self/nope/out.txt"
    return str(target)


def _value(name: str, rng: random.Random) -> str:
    if rng.random() < 0.6:
        return SANE.get(name, "1")
    return rng.choice(EDGE_NUMBERS)


def eval_argv(rng: random.Random, evaluators: list[tuple[str, tuple]]) -> list[str]:
    target, params = rng.choice(evaluators)
    argv = ["eval", target]
    for p in params:
        r = rng.random()
        if r < 0.05:
            continue  # missing
        argv.append(f"{p.name}={_value(p.name, rng)}")
    if rng.random() < 0.05:
        argv.append(f"zzz={rng.choice(EDGE_NUMBERS)}")
    if rng.random() < 0.05 and params:
        argv.append(f"{params[0].name}=1")  # twice
    if rng.random() < 0.2:
        argv += ["--digits", rng.choice(DIGITS)]
    if rng.random() < 0.2:
        argv += ["--timeout", rng.choice(TIMEOUTS)]
    if rng.random() < 0.1:
        argv += ["--rel-width", rng.choice(REL_WIDTHS)]
    if rng.random() < 0.3:
        argv += ["--format", rng.choice(("json", "text", "xml"))]
    if rng.random() < 0.03:
        argv[1] = rng.choice(("NOPE.x", "", ".", "KOV-EPS.", "KOV-EPS.nope", "kov-eps"))
    return argv


def generate(rng: random.Random, n: int, files: dict[str, str], out_root: Path
             ) -> list[list[str]]:
    """``n`` command lines over every subcommand (``run`` always names ids: never the whole
    catalogue)."""
    theorems = all_theorems()
    ids = [th.id for th in theorems]
    evaluators = [(f"{th.id}.{e.name}", e.params) for th in theorems for e in th.evaluators]
    corpus: list[list[str]] = []
    for _ in range(n):
        r = rng.random()
        if r < 0.72:
            corpus.append(eval_argv(rng, evaluators))
        elif r < 0.78:
            argv = ["show", rng.choice([*ids[:5], "NOPE", "", "kov-eps"])]
            if rng.random() < 0.7:
                argv += ["--run", rng.choice(list(files.values()))]
            if rng.random() < 0.3:
                argv += ["--format", "json"]
            corpus.append(argv)
        elif r < 0.85:
            argv = ["report", rng.choice(list(files.values()))]
            argv += ["--format", rng.choice(("md", "html", "junit", "pdf"))]
            if rng.random() < 0.6:
                argv += ["--output", _outputs(out_root, rng)]
            corpus.append(argv)
        elif r < 0.87:
            corpus.append(["list", "--family", rng.choice(FAMILIES)])
        elif r < 0.93:
            argv = ["run", rng.choice(CHEAP_RUN_IDS), "--jobs", rng.choice(("1", "-1", "x")),
                    "--timeout", rng.choice(TIMEOUTS)]
            if rng.random() < 0.6:
                argv += ["--out", _outputs(out_root, rng)]
            else:
                argv += ["--out", str(out_root / f"run{rng.randrange(10**9)}")]
            if rng.random() < 0.3:
                argv += ["--claim", rng.choice(("1", "99", "-1", "x"))]
            if rng.random() < 0.3:
                argv += ["--format", "json"]
            corpus.append(argv)
        else:
            argv = ["hdp", "--eps-list", _value("eps_list", rng),
                    "--constraint", rng.choice(("at-most", "exactly-one", "groups",
                                                "uniform-nonzero", "bogus"))]
            if rng.random() < 0.5:
                argv += ["--m", rng.choice(("1", "2", "0", "-1", "1000000000000", "x"))]
            if rng.random() < 0.3:
                argv += ["--delta-list", _value("delta_list", rng)]
            if rng.random() < 0.3:
                argv += ["--group", rng.choice(("1", "1,2", "0", "99", "", "a"))]
            if rng.random() < 0.2:
                argv += ["--common", rng.choice(("1", "1,2", "0", "99", "", "a"))]
            if rng.random() < 0.5:
                argv += ["--delta", _value("delta", rng)]
            else:
                argv += ["--eps", _value("eps", rng)]
            if rng.random() < 0.2:
                argv += ["--digits", rng.choice(DIGITS)]
            corpus.append(argv)
    return corpus


_NUMBER = re.compile(r"^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$")


def _named(argv: list[str], message: str) -> bool:
    """Whether an error message names something of ``argv`` (or is argparse's usage)."""
    if any(m in message for m in ARGPARSE):
        return True
    tokens = set()
    for a in argv[1:]:
        if "=" in a and not a.startswith("-"):
            tokens.add(a.partition("=")[0])
        elif a.startswith("--"):
            tokens.add(a)
            tokens.add(a[2:])
        elif a:
            tokens.add(a)
            tokens.update(t for t in re.split(r"[.]", a) if len(t) > 1)
    if "" in argv[1:] and "''" in message:  # an empty argument, quoted as given
        return True
    return any(t and t in message for t in tokens)


def judge(argv: list[str], rc: int | None, out: str, err: str) -> str | None:
    """None when the CLI behaved; otherwise the kind of failure (see the module docstring)."""
    if rc is None:
        return "timeout"
    if "Traceback" in err or "Traceback" in out:
        return "traceback"
    if rc == 3 and argv[:1] == ["eval"] and err.startswith("dpverify: time limit"):
        return None if "--timeout" in argv else "time limit (default)"
    if rc not in (0, 1, 2):
        return f"internal (exit {rc})"
    if rc == 2:
        if not err.startswith("dpverify: ") or err.count("\n") != 1:
            return "exit-2 not one line"
        if not _named(argv, err):
            return "exit-2 names nothing"
        return None
    if rc == 0 and argv[:1] == ["eval"]:
        if "--format" in argv and argv[argv.index("--format") + 1] == "json":
            try:
                value = str(json.loads(out)["value"])
            except (ValueError, KeyError, TypeError):
                return "eval json unreadable"
        else:
            value = out.strip().split()[0] if out.strip() else ""
        if not value:
            return "eval printed nothing"
        if "nan" in value.lower():
            return "nonsense: nan"
        if value == "inf":
            return "review-inf"
        if value.startswith("-"):
            return "review-negative"
        if not _NUMBER.match(value):
            return "eval printed a non-number"
    return None
