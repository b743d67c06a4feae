"""The scenario vocabulary of the accountant audit: frozen values with an exact JSON shape.

A :class:`Scenario` is what an accountant is asked about: a neighbouring relation and a list of
events that compose (adaptively). Sensitivity is 1 (catalogue README, *Scenario conventions*):
every record's contribution has norm at most 1, so under ``add_remove`` the neighbouring outputs
of a Gaussian or Laplace event differ by at most 1 and under ``replace_one`` by at most 2; the
``eps0``/``delta0`` of ``randomized_response``, ``pure_dp`` and ``approx_dp`` events are
guarantees under the scenario's own relation. ``to_dict()`` returns exactly::

    {"neighboring": "add_remove" | "replace_one",
     "events": [{"mechanism": "gaussian", "sigma": 1.1, "count": 14062,
                 "sampling": {"scheme": "poisson", "q": 0.0042667}},
                {"mechanism": "laplace", "b": 2.0, "count": 3, "sampling": null},
                {"mechanism": "randomized_response", "eps0": 1.0, "count": 10, "sampling": null},
                {"mechanism": "pure_dp", "eps0": 0.5, "count": 4, "sampling": null},
                {"mechanism": "approx_dp", "eps0": 0.5, "delta0": 1e-6, "count": 4,
                 "sampling": null},
                {"mechanism": "discrete_laplace", "b": 2.0, "count": 5, "sampling": null},
                {"mechanism": "discrete_gaussian", "sigma": 3.0, "count": 5,
                 "sampling": null}]}

``discrete_laplace`` (``P[x] ∝ e^{-|x|/b}`` on the integers) and ``discrete_gaussian``
(``P[x] ∝ e^{-x^2/(2 sigma^2)}``) add integer noise to an integer query of sensitivity 1 (2
under ``replace_one``).

Every value is also a read-only mapping of that shape, so an accountant may read a scenario
either way: ``scenario.events[0].sigma`` or ``scenario["events"][0]["sigma"]``.

A scenario file (``dpverify audit --scenarios FILE.json``) is a JSON list of
``{"id": ..., "scenario": {...}, "deltas": [...], "epsilons": [...], "fprs": [...],
"gdp_mu": true}`` (all query keys optional, at least one query): each delta asks for
``epsilon(scenario, delta)``, each epsilon for ``delta(scenario, epsilon)``, each fpr for
``tpr(scenario, fpr)`` (the largest power of a test of type-I error fpr between neighbouring
outputs that the accountant admits) and ``gdp_mu`` for ``gdp_mu(scenario)`` (the GDP parameter
it reports); the last two are optional methods of an accountant.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from dpverify.theorems.core import InvalidParameter

NEIGHBORING = ("add_remove", "replace_one")

# Cost limits (documented in the README, *Auditing an accountant*): a certified reference has an
# up-front bounded cost only inside them, so a scenario outside is refused (exit 2), never run.
COUNT_MAX = 10**6  # repetitions of one event (and in total)
SCALE_RANGE = (1e-2, 1e4)  # sigma and b
EPS0_MAX = 50.0
Q_MIN = 1e-6
DELTA_QUERY_MIN = 1e-30
EPS_QUERY_MAX = 1e4
QUERIES_MAX = 20_000  # queries of one scenario file
FILE_BYTES_MAX = 16 << 20
JSON_DEPTH_MAX = 32
MECHANISMS = ("gaussian", "laplace", "randomized_response", "pure_dp", "approx_dp",
              "discrete_laplace", "discrete_gaussian")
FPR_QUERY_MIN = 1e-12  # the least FPR of a tpr query (and of the gdp_mu reference's range)
SCHEMES = ("poisson",)

# the parameter keys of each mechanism, in the order of the JSON shape
_PARAMS: dict[str, tuple[str, ...]] = {
    "gaussian": ("sigma",),
    "laplace": ("b",),
    "randomized_response": ("eps0",),
    "pure_dp": ("eps0",),
    "approx_dp": ("eps0", "delta0"),
    "discrete_laplace": ("b",),
    "discrete_gaussian": ("sigma",),
}
QUERY_KINDS = ("epsilon", "delta", "tpr", "gdp_mu")


def exact(x: float | int) -> Fraction:
    """The exact value a scenario number stands for: the decimal written in the JSON (the
    shortest repr of the float), so ``0.1`` is 1/10 and ``256/60000`` written as
    ``0.0042666666666666667`` is that decimal."""
    if isinstance(x, int):
        return Fraction(x)
    return Fraction(repr(float(x)))


def _number(value: Any, name: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidParameter(f"{where}{name} must be a number; got {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise InvalidParameter(f"{where}{name} must be finite; got {value!r}")
    return v


def _check_cost_limit(name: str, v: float, where: str) -> None:
    if name in ("sigma", "b") and not SCALE_RANGE[0] <= v <= SCALE_RANGE[1]:
        raise InvalidParameter(f"{where}{name} must be in [{SCALE_RANGE[0]:g}, "
                               f"{SCALE_RANGE[1]:g}] (the cost limit of a certified "
                               f"reference); got {v!r}")
    if name == "eps0" and v > EPS0_MAX:
        raise InvalidParameter(f"{where}eps0 must be <= {EPS0_MAX:g} (the cost limit of a "
                               f"certified reference); got {v!r}")


def _check_keys(d: Mapping[str, Any], allowed: Sequence[str], required: Sequence[str],
                where: str) -> None:
    if not isinstance(d, Mapping):
        raise InvalidParameter(f"{where}must be a JSON object; got {d!r}")
    for key in d:
        if key not in allowed:
            raise InvalidParameter(f"{where}unknown key {key!r}; allowed keys are "
                                   f"{', '.join(allowed)}")
    for key in required:
        if key not in d:
            raise InvalidParameter(f"{where}needs {key!r}")


class _JsonMapping(Mapping[str, Any]):
    """Read-only mapping access to the JSON shape of a frozen value."""

    def _items(self) -> dict[str, Any]:
        raise NotImplementedError

    def __getitem__(self, key: str) -> Any:
        return self._items()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items())

    def __len__(self) -> int:
        return len(self._items())


@dataclass(frozen=True, eq=True)
class Sampling(_JsonMapping):
    """Poisson subsampling: each record is in the batch independently with probability q."""

    q: float
    scheme: str = "poisson"

    def __post_init__(self) -> None:
        self.validate()

    def validate(self, where: str = "") -> None:
        if self.scheme not in SCHEMES:
            raise InvalidParameter(f"{where}sampling scheme must be one of {', '.join(SCHEMES)}; "
                                   f"got {self.scheme!r}")
        q = _number(self.q, "q", where)
        if not 0 < q <= 1:
            raise InvalidParameter(f"{where}q must be in (0, 1]; got {self.q!r}")
        if q < Q_MIN:
            raise InvalidParameter(f"{where}q must be >= {Q_MIN:g} (the cost limit of a "
                                   f"certified reference); got {self.q!r}")

    def _items(self) -> dict[str, Any]:
        return {"scheme": self.scheme, "q": self.q}

    def to_dict(self) -> dict[str, Any]:
        return {"scheme": self.scheme, "q": self.q}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], where: str = "") -> Sampling:
        _check_keys(d, ("scheme", "q"), ("scheme", "q"), f"{where}sampling: ")
        if not isinstance(d["scheme"], str):
            raise InvalidParameter(f"{where}sampling scheme must be a string; got {d['scheme']!r}")
        q = _number(d["q"], "q", f"{where}sampling: ")
        try:
            return cls(q=q, scheme=d["scheme"])
        except InvalidParameter as e:
            raise InvalidParameter(f"{where}{e}") from None



@dataclass(frozen=True, eq=True)
class Event(_JsonMapping):
    """``count`` adaptive repetitions of one mechanism (optionally on a Poisson subsample).

    ``sigma``: Gaussian noise multiplier (noise std / clipping norm); ``b``: Laplace scale
    (sensitivity 1); ``eps0``, ``delta0``: the per-repetition guarantee of the
    ``randomized_response``, ``pure_dp`` and ``approx_dp`` events.
    """

    mechanism: str
    count: int = 1
    sigma: float | None = None
    b: float | None = None
    eps0: float | None = None
    delta0: float | None = None
    sampling: Sampling | None = None

    def __post_init__(self) -> None:
        self.validate()

    def params(self) -> dict[str, float]:
        return {k: getattr(self, k) for k in _PARAMS[self.mechanism]}

    def validate(self, where: str = "") -> None:
        if self.mechanism not in MECHANISMS:
            raise InvalidParameter(f"{where}mechanism must be one of {', '.join(MECHANISMS)}; "
                                   f"got {self.mechanism!r}")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise InvalidParameter(f"{where}count must be an integer >= 1; got {self.count!r}")
        if self.count > COUNT_MAX:
            raise InvalidParameter(f"{where}count must be <= {COUNT_MAX} (the cost limit of a "
                                   f"certified reference); got {self.count:.3g}")
        wanted = _PARAMS[self.mechanism]
        for name in ("sigma", "b", "eps0", "delta0"):
            value = getattr(self, name)
            if name not in wanted:
                if value is not None:
                    raise InvalidParameter(f"{where}a {self.mechanism} event has no {name}")
                continue
            if value is None:
                raise InvalidParameter(f"{where}a {self.mechanism} event needs {name}")
            v = _number(value, name, where)
            if name == "delta0":
                if not 0 <= v < 1:
                    raise InvalidParameter(f"{where}delta0 must be in [0, 1); got {value!r}")
            elif v <= 0:
                raise InvalidParameter(f"{where}{name} must be > 0; got {value!r}")
            _check_cost_limit(name, v, where)
        if self.sampling is not None and not isinstance(self.sampling, Sampling):
            raise InvalidParameter(f"{where}sampling must be a Sampling or null")

    def _items(self) -> dict[str, Any]:
        out: dict[str, Any] = {"mechanism": self.mechanism}
        out.update(self.params())
        out["count"] = self.count
        out["sampling"] = self.sampling
        return out

    def to_dict(self) -> dict[str, Any]:
        out = self._items()
        out["sampling"] = None if self.sampling is None else self.sampling.to_dict()
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], where: str = "") -> Event:
        if not isinstance(d, Mapping):
            raise InvalidParameter(f"{where}an event must be a JSON object; got {d!r}")
        mech = d.get("mechanism")
        if mech not in MECHANISMS:
            raise InvalidParameter(f"{where}mechanism must be one of {', '.join(MECHANISMS)}; "
                                   f"got {mech!r}")
        wanted = _PARAMS[mech]
        _check_keys(d, ("mechanism", *wanted, "count", "sampling"), ("mechanism", *wanted,
                                                                       "count"), where)
        count = d["count"]
        if isinstance(count, float) and count.is_integer():
            count = int(count)
        kwargs: dict[str, Any] = {k: _number(d[k], k, where) for k in wanted}
        sampling = d.get("sampling")
        samp = None if sampling is None else Sampling.from_dict(sampling, where)
        try:
            return cls(mechanism=mech, count=count, sampling=samp, **kwargs)
        except InvalidParameter as e:
            raise InvalidParameter(f"{where}{e}") from None



@dataclass(frozen=True, eq=True)
class Scenario(_JsonMapping):
    """A composition of events under one neighbouring relation (sensitivity 1)."""

    events: tuple[Event, ...]
    neighboring: str = "add_remove"

    def __post_init__(self) -> None:
        if isinstance(self.events, list):
            object.__setattr__(self, "events", tuple(self.events))
        self.validate()

    def validate(self, where: str = "") -> None:
        if self.neighboring not in NEIGHBORING:
            raise InvalidParameter(f"{where}neighboring must be one of {', '.join(NEIGHBORING)}"
                                   f"; got {self.neighboring!r}")
        if not isinstance(self.events, tuple) or not self.events:
            raise InvalidParameter(f"{where}events must be a non-empty list")
        for i, ev in enumerate(self.events, 1):
            if not isinstance(ev, Event):
                raise InvalidParameter(f"{where}event {i} must be an Event; got {ev!r}")
        if sum(e.count for e in self.events) > COUNT_MAX:
            raise InvalidParameter(f"{where}the total count of the events must be <= "
                                   f"{COUNT_MAX} (the cost limit of a certified reference)")

    def _items(self) -> dict[str, Any]:
        return {"neighboring": self.neighboring, "events": self.events}

    def to_dict(self) -> dict[str, Any]:
        return {"neighboring": self.neighboring, "events": [e.to_dict() for e in self.events]}

    def to_json(self) -> str:
        """The canonical JSON text (sorted keys): a cache key and a reproducible literal."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], where: str = "") -> Scenario:
        _check_keys(d, ("neighboring", "events"), ("neighboring", "events"), where)
        if d["neighboring"] not in NEIGHBORING:
            raise InvalidParameter(f"{where}neighboring must be one of {', '.join(NEIGHBORING)}"
                                   f"; got {d['neighboring']!r}")
        events = d["events"]
        if not isinstance(events, list | tuple) or not events:
            raise InvalidParameter(f"{where}events must be a non-empty list")
        evs = tuple(Event.from_dict(e, f"{where}event {i} ({_mech_name(e)}): ")
                    for i, e in enumerate(events, 1))
        return cls(events=evs, neighboring=d["neighboring"])

    @classmethod
    def from_json(cls, text: str) -> Scenario:
        return cls.from_dict(json.loads(text))

    def total_count(self) -> int:
        return sum(e.count for e in self.events)

    def describe(self) -> str:
        parts = []
        for e in self.events:
            ps = ", ".join(f"{k}={v:g}" for k, v in e.params().items())
            s = f"{e.count} x {e.mechanism}({ps})"
            if e.sampling is not None:
                s += f" on a Poisson q={e.sampling.q:g} sample"
            parts.append(s)
        return f"{' + '.join(parts)} [{self.neighboring}]"



def _mech_name(e: Any) -> str:
    return str(e.get("mechanism", "?")) if isinstance(e, Mapping) else "?"


# ------------------------------------------------------------------------------------------
# scenario files


@dataclass(frozen=True)
class ScenarioCase:
    """One entry of a scenario set: an id, the scenario and its queries."""

    id: str
    scenario: Scenario
    deltas: tuple[float, ...] = ()
    epsilons: tuple[float, ...] = ()
    note: str = field(default="", compare=False)
    fprs: tuple[float, ...] = ()
    gdp_mu: bool = False

    def queries(self) -> list[tuple[str, float]]:
        """``(kind, value)`` of every query, in file order of the kinds (``gdp_mu``: value 0)."""
        out = [("epsilon", v) for v in self.deltas] + [("delta", v) for v in self.epsilons]
        out += [("tpr", v) for v in self.fprs]
        if self.gdp_mu:
            out.append(("gdp_mu", 0.0))
        return out

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "scenario": self.scenario.to_dict(),
                               "deltas": list(self.deltas), "epsilons": list(self.epsilons)}
        if self.fprs:
            out["fprs"] = list(self.fprs)
        if self.gdp_mu:
            out["gdp_mu"] = True
        if self.note:
            out["note"] = self.note
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], index: int = 0) -> ScenarioCase:
        where = f"scenario entry {index}: " if index else ""
        _check_keys(d, ("id", "scenario", "deltas", "epsilons", "fprs", "gdp_mu", "note"),
                    ("id", "scenario"), where)
        sid = d["id"]
        if not isinstance(sid, str) or not sid.strip():
            raise InvalidParameter(f"{where}id must be a non-empty string; got {sid!r}")
        where = f"scenario {sid}: "
        scenario = Scenario.from_dict(d["scenario"], where)
        deltas = _query_list(d.get("deltas", []), "deltas", where)
        for v in deltas:
            if not 0 < v < 1:
                raise InvalidParameter(f"{where}deltas must be in (0, 1); got {v!r}")
            if v < DELTA_QUERY_MIN:
                raise InvalidParameter(f"{where}deltas must be >= {DELTA_QUERY_MIN:g} (the "
                                       f"cost limit of a certified reference); got {v!r}")
        epsilons = _query_list(d.get("epsilons", []), "epsilons", where)
        for v in epsilons:
            if not 0 <= v <= EPS_QUERY_MAX:
                raise InvalidParameter(f"{where}epsilons must be in [0, {EPS_QUERY_MAX:g}]; "
                                       f"got {v!r}")
        fprs = _query_list(d.get("fprs", []), "fprs", where)
        for v in fprs:
            if not FPR_QUERY_MIN <= v < 1:
                raise InvalidParameter(f"{where}fprs must be in [{FPR_QUERY_MIN:g}, 1); got "
                                       f"{v!r}")
        gdp = d.get("gdp_mu", False)
        if not isinstance(gdp, bool):
            raise InvalidParameter(f"{where}gdp_mu must be true or false; got {gdp!r}")
        if not deltas and not epsilons and not fprs and not gdp:
            raise InvalidParameter(f"{where}give at least one query in deltas, epsilons, fprs "
                                   "or gdp_mu")
        note = d.get("note", "")
        return cls(sid, scenario, deltas, epsilons, str(note), fprs, gdp)


def _query_list(v: Any, name: str, where: str) -> tuple[float, ...]:
    if not isinstance(v, list | tuple):
        raise InvalidParameter(f"{where}{name} must be a list of numbers; got {v!r}")
    return tuple(_number(x, name, where) for x in v)


def parse_cases(data: Any, source: str = "scenarios") -> list[ScenarioCase]:
    """Validate a decoded scenario file (a list of entries); ids must be unique."""
    if not isinstance(data, list) or not data:
        raise InvalidParameter(f"{source} must be a non-empty JSON list of "
                               '{"id", "scenario", "deltas", "epsilons"} entries')
    cases = [ScenarioCase.from_dict(d, i) for i, d in enumerate(data, 1)]
    queries = sum(len(c.queries()) for c in cases)
    if queries > QUERIES_MAX:
        raise InvalidParameter(f"{source}: {queries} queries; at most {QUERIES_MAX} (the cost "
                               "limit of an audit)")
    seen: set[str] = set()
    for c in cases:
        if c.id in seen:
            raise InvalidParameter(f"{source}: scenario id {c.id!r} is used twice")
        seen.add(c.id)
    return cases


def _depth(x: Any, limit: int) -> int:
    """The nesting depth of decoded JSON (stops counting past ``limit``)."""
    stack = [(x, 1)]
    deepest = 0
    while stack:
        v, d = stack.pop()
        deepest = max(deepest, d)
        if deepest > limit:
            return deepest
        if isinstance(v, dict):
            stack.extend((w, d + 1) for w in v.values())
        elif isinstance(v, list):
            stack.extend((w, d + 1) for w in v)
    return deepest


def load_cases(path: str | Path) -> list[ScenarioCase]:
    """The cases of a scenario file; anything wrong with it (missing, a directory, too big,
    not UTF-8, not JSON, nested too deep, a bad entry) is an ``InvalidParameter`` naming the
    file (and the scenario id and parameter)."""
    p = Path(path)
    try:
        with open(p, "rb") as f:
            raw = f.read(FILE_BYTES_MAX + 1)
    except OSError as e:
        raise InvalidParameter(f"cannot read scenario file {path}: {e.strerror}") from None
    if len(raw) > FILE_BYTES_MAX:
        raise InvalidParameter(f"scenario file {path} is larger than {FILE_BYTES_MAX >> 20} MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidParameter(f"scenario file {path} is not UTF-8 text (byte {e.start})"
                               ) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InvalidParameter(f"{path} is not valid JSON: {e}") from None
    except RecursionError:
        raise InvalidParameter(f"scenario file {path} is nested too deep") from None
    except ValueError as e:  # e.g. an integer past Python's digit limit
        raise InvalidParameter(f"{path} is not usable JSON: {' '.join(str(e).split())[:200]}"
                               ) from None
    if _depth(data, JSON_DEPTH_MAX) > JSON_DEPTH_MAX:
        raise InvalidParameter(f"scenario file {path} is nested deeper than {JSON_DEPTH_MAX} "
                               "levels")
    try:
        return parse_cases(data, str(path))
    except InvalidParameter as e:
        msg = str(e)
        raise InvalidParameter(msg if msg.startswith(str(path)) else f"{path}: {msg}") from None


def fmt_number(x: float) -> str:
    """A short, round-trippable spelling: ``1e-5``, ``0.5``, ``2``."""
    x = float(x)
    if math.isinf(x) or math.isnan(x):
        return repr(x)
    if x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    s = repr(x)
    if "e" in s:
        mant, exp = s.split("e")
        if mant.endswith(".0"):
            mant = mant[:-2]
        s = f"{mant}e{int(exp)}"
    return s


def query_name(kind: str, value: float) -> str:
    """``epsilon@delta=1e-5`` (an epsilon asked at a delta), ``delta@epsilon=1``,
    ``tpr@fpr=0.001`` or ``gdp_mu``."""
    if kind == "epsilon":
        return f"epsilon@delta={fmt_number(value)}"
    if kind == "tpr":
        return f"tpr@fpr={fmt_number(value)}"
    if kind == "gdp_mu":
        return "gdp_mu"
    return f"delta@epsilon={fmt_number(value)}"


__all__ = [
    "MECHANISMS",
    "NEIGHBORING",
    "QUERY_KINDS",
    "Event",
    "Sampling",
    "Scenario",
    "ScenarioCase",
    "exact",
    "fmt_number",
    "load_cases",
    "parse_cases",
    "query_name",
]
