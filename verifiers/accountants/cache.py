"""The certified-reference cache of the audit: a reference is computed once per machine.

A reference (the enclosure ``[lo, hi]`` of one query of one scenario) is looked up, in order:

1. in this process (:func:`verifiers.accountants.reference.reference_for` memoises);
2. in the references shipped with dpverify for its built-in scenario sets
   (``verifiers/accountants/references.json``, package data, written by
   ``python -m dpverify.verifiers.accountants.cache build``);
3. in the on-disk cache: ``$DPVERIFY_CACHE_DIR`` or ``platformdirs.user_cache_dir("dpverify")``,
   one JSON file per reference under ``references/``;
4. computed, then written to the on-disk cache.

The key is the sha256 of the scenario's canonical JSON, the query (kind and exact value), the
requested relative width and :data:`ENGINE` (bump it whenever a change can alter a computed
enclosure, e.g. in ``reference.py``, ``pairs.py`` or the PLD engine). Writes are atomic
(a temporary file in the same directory, then ``os.replace``): concurrent audits may compute
the same reference twice but never read a torn file. An unreadable, corrupt or foreign entry is
ignored (and recomputed); a cache directory that cannot be written is a slower run, never a
failure. The bounds are stored as exact rationals (``"n/d"`` or ``"inf"``).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

from dpverify.theorems.errors import DpVerifyError
from dpverify.verifiers.accountants.calls import deadline
from dpverify.verifiers.accountants.reference import Bound, reference_for
from dpverify.verifiers.accountants.scenario import Scenario, ScenarioCase, fmt_number
from dpverify.verifiers.accountants.tradeoff_reference import query_bound

ENGINE = "dpverify-reference/1"
SHIPPED = Path(__file__).resolve().parent / "references.json"


def cache_dir() -> Path:
    """Where computed references are kept: ``$DPVERIFY_CACHE_DIR`` or the platform cache."""
    env = os.environ.get("DPVERIFY_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("dpverify"))


def material(scenario: Scenario, kind: str, value: float, rel_width: float) -> str:
    """The canonical text a reference is keyed by."""
    return json.dumps([ENGINE, scenario.to_json(), kind, fmt_number(value), repr(rel_width)])


def key_of(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


MAX_BITS = 4000  # an exact bound past this is rounded outward (decimal ints stay < 4300 digits)
KEEP_BITS = 512


def round_out(x: Fraction, up: bool) -> Fraction:
    """``x`` itself, or — when its numerator or denominator is longer than MAX_BITS — the
    nearest dyadic rational with KEEP_BITS significant bits below (``up=False``) or above it:
    a stored enclosure is never narrower than the computed one."""
    if max(x.numerator.bit_length(), x.denominator.bit_length()) <= MAX_BITS or x == 0:
        return x
    shift = KEEP_BITS - (x.numerator.bit_length() - x.denominator.bit_length())
    scaled = x * Fraction(2) ** shift
    n = -((-scaled.numerator) // scaled.denominator) if up else \
        scaled.numerator // scaled.denominator
    return Fraction(n) / Fraction(2) ** shift


def _enc(x: Any, up: bool) -> str:
    if x == float("inf"):
        return "inf"
    f = round_out(Fraction(x), up)
    return f"{f.numerator}/{f.denominator}"


def _dec(s: Any) -> Fraction | float:
    if s == "inf":
        return float("inf")
    if not isinstance(s, str):
        raise ValueError("not an exact bound")
    return Fraction(s)


def encode(bound: Bound, text: str) -> dict[str, Any]:
    return {"key": text, "lo": _enc(bound.lo, False), "hi": _enc(bound.hi, True),
            "method": bound.method,
            "seconds": round(bound.seconds, 3)}


def decode(entry: Any, text: str) -> Bound | None:
    """The bound of a stored entry, or None when it is not a valid entry for ``text``."""
    try:
        if entry.get("key") != text:
            return None
        lo, hi = _dec(entry["lo"]), _dec(entry["hi"])
        if not lo <= hi or lo < 0:
            return None
        return Bound(lo, hi, str(entry["method"]), float(entry.get("seconds", 0.0)))
    except (AttributeError, KeyError, ValueError, TypeError, ZeroDivisionError):
        return None


@functools.lru_cache(maxsize=1)
def _shipped() -> dict[str, Any]:
    try:
        data = json.loads(SHIPPED.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("engine") != ENGINE:
        return {}
    entries = data.get("entries")
    return entries if isinstance(entries, dict) else {}


def write_json_atomic(path: Path, doc: Any) -> None:
    """``doc`` as JSON at ``path`` via a temporary file and ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; these are ordinary files
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class ReferenceFailed(DpVerifyError):
    """The certified reference could not be computed where it was sent (the reason)."""


class ReferenceStore:
    """Certified references through the shipped data and the on-disk cache."""

    def __init__(self, rel_width: float, ref_seconds: float, use_cache: bool = True,
                 directory: Path | None = None) -> None:
        self.rel_width = rel_width
        self.ref_seconds = ref_seconds
        self.use_cache = use_cache
        self.directory = (directory or cache_dir()) / "references" if use_cache else None
        self.counts = {"shipped": 0, "disk": 0, "computed": 0, "write_errors": 0}
        self.compute_seconds = 0.0
        # computed elsewhere (a Dask worker: verifiers.accountants.remote): key -> the bound,
        # or the text of the failure (the query is then INCONCLUSIVE, never recomputed here)
        self.remote: dict[str, Bound | str] = {}

    def _path(self, key: str) -> Path:
        assert self.directory is not None
        return self.directory / key[:2] / f"{key}.json"

    def bound(self, case: ScenarioCase, kind: str, value: float) -> Bound:
        return self.get(case.scenario, kind, value)

    def get(self, scenario: Scenario, kind: str, value: float) -> Bound:
        text = material(scenario, kind, value, self.rel_width)
        key = key_of(text)
        hit = self.stored(text, key)
        if hit is not None:
            return hit
        elsewhere = self.remote.get(key)
        if isinstance(elsewhere, str):
            raise ReferenceFailed(elsewhere)
        if elsewhere is not None:
            self.counts["computed"] += 1
            self.save(key, text, elsewhere)
            return elsewhere
        t0 = time.monotonic()
        with deadline(self.hard_limit(), "the certified reference"):
            ref = reference_for(scenario, rel_width=self.rel_width,
                                max_seconds=self.ref_seconds)
            bound = query_bound(ref, kind, value)
        self.compute_seconds += time.monotonic() - t0
        self.counts["computed"] += 1
        self.save(key, text, bound)
        return bound

    def stored(self, text: str, key: str, count: bool = True) -> Bound | None:
        """The shipped or on-disk reference keyed by ``text`` (None: not stored); ``count``:
        tally the hit in :meth:`stats`."""
        if self.use_cache:
            hit = decode(_shipped().get(key), text)
            if hit is not None:
                self.counts["shipped"] += count
                return hit
            try:
                hit = decode(json.loads(self._path(key).read_text(encoding="utf-8")), text)
            except (OSError, ValueError):
                hit = None
            if hit is not None:
                self.counts["disk"] += count
                return hit
        return None

    def save(self, key: str, text: str, bound: Bound) -> None:
        if self.use_cache:
            try:
                write_json_atomic(self._path(key), encode(bound, text))
            except OSError:
                self.counts["write_errors"] += 1

    def hard_limit(self) -> float:
        """The wall-clock limit of one reference computation: the PLD engine's budget only
        stops its refinement between passes; this stops a pass that runs away (the query is
        then INCONCLUSIVE)."""
        return 4 * self.ref_seconds + 30

    def stats(self) -> dict[str, Any]:
        return {**self.counts, "compute_seconds": round(self.compute_seconds, 3),
                "cache_dir": None if self.directory is None else str(self.directory)}


# ------------------------------------------------------------------------------------------
# the shipped references of the built-in scenario sets


def build_shipped(names: tuple[str, ...] = ("quick", "thorough"), path: Path = SHIPPED,
                  verbose: bool = True) -> dict[str, Any]:
    """Compute (or take from the caches) every reference of the built-in sets and write them
    as the shipped package data."""
    from dpverify.verifiers.accountants.sets import scenario_set

    entries: dict[str, Any] = {}
    for name in names:
        cases, opts = scenario_set(name)
        store = ReferenceStore(opts["rel_width"], opts["ref_seconds"])
        for case in cases:
            for kind, v in case.queries():
                t0 = time.monotonic()
                try:
                    bound = store.get(case.scenario, kind, v)
                except (DpVerifyError, ArithmeticError, ValueError) as e:
                    print(f"{name} {case.id} {kind}@{fmt_number(v)}: no reference "
                          f"({type(e).__name__}: {e})", file=sys.stderr, flush=True)
                    continue
                text = material(case.scenario, kind, v, store.rel_width)
                entries[key_of(text)] = encode(bound, text)
                if verbose:
                    print(f"{name} {case.id} {kind}@{fmt_number(v)}: "
                          f"{time.monotonic() - t0:.1f}s", file=sys.stderr, flush=True)
    doc = {"engine": ENGINE, "sets": list(names), "entries": dict(sorted(entries.items()))}
    write_json_atomic(path, doc)
    _shipped.cache_clear()
    return doc


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] != ["build"]:
        print("usage: python -m dpverify.verifiers.accountants.cache build [SET ...]",
              file=sys.stderr)
        return 2
    doc = build_shipped(tuple(args[1:]) or ("quick", "thorough"))
    print(f"wrote {len(doc['entries'])} references to {SHIPPED}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["ENGINE", "ReferenceStore", "build_shipped", "cache_dir", "key_of", "material"]
