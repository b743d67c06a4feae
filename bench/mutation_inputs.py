"""Equivalence of a surviving mutant, judged mechanically (used by ``bench/mutation.py``).

During the baseline every executed formula/engine function has a bounded reservoir sample of
the argument tuples it was really called with (:class:`Recorder`). For a survivor, the original
and the mutant are evaluated on those tuples and on extra random tuples in the same ranges
(each numeric scalar argument redrawn uniformly between the smallest and largest value recorded
for it), with the arithmetic contexts raised by ``BOOST`` bits. Outcomes agree when both raise
the same exception type, or both return values equal to the working precision of the recorded
call (relative ``2^-(p-8)``, p the lowest precision among its arguments, 53 for floats; exact
values exactly; balls when their midpoints agree within the larger radius). A mutant that
agrees on every compared input is *indistinguishable on N recorded inputs* — evidence, not a
proof of equivalence; the first input where it differs is reported otherwise.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import io
import itertools
import pickle
import random
import re
import signal
import time
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

import cloudpickle
import flint
import mpmath

from dpverify.theorems.ctx import ArbCtx, MpCtx
from dpverify.theorems.ctx.arb import arb_to_fraction
from dpverify.theorems.ctx.mp import _mp_context

BOOST = 64  # extra bits of the contexts when original and mutant are compared
SAMPLES = 12  # recorded calls kept per function (reservoir)
EXTRA = 12  # random calls in the recorded ranges per survivor
MAX_BYTES = 4_000_000  # a recorded call larger than this is not kept (engine states)
_VARARGS, _VARKEYWORDS = 0x04, 0x08
_ADDRESS = re.compile(r"0x[0-9a-f]+")
_boost = 0  # bits added to every rebuilt precision (set only while comparing)


# ------------------------------------------------------------------------------------------
# portable arguments: mpmath numbers of private contexts, arb balls and contexts pickled by value


def _mpf_at(prec: int, value: tuple) -> Any:
    return _mp_context(prec + _boost).make_mpf(value)


def _mpc_at(prec: int, value: tuple) -> Any:
    return _mp_context(prec + _boost).make_mpc(value)


def _arb_of(mid: tuple[int, int], rad: tuple[int, int]) -> Any:
    """The ball, exactly (at whatever working precision it is rebuilt)."""
    saved = flint.ctx.prec
    flint.ctx.prec = max(saved, int(mid[0]).bit_length() + 8, int(rad[0]).bit_length() + 8)
    try:
        two = flint.arb(2)
        return flint.arb(flint.arb(mid[0]) * two ** mid[1], flint.arb(rad[0]) * two ** rad[1])
    finally:
        flint.ctx.prec = saved


def _cached(fn: Callable[..., Any]) -> Callable[..., Any]:
    return functools.lru_cache(maxsize=None)(fn)


def _arb_text(text: str) -> Any:
    try:
        return flint.arb(text)
    except Exception:
        return flint.arb("nan")


def _mp_ctx(prec: int) -> MpCtx:
    return MpCtx(prec + _boost)


def _arb_ctx(prec: int) -> ArbCtx:
    return ArbCtx(prec + _boost)


class _Pickler(cloudpickle.Pickler):
    """Pickles by value (closures and lambdas too, as cloudpickle does), and notes the lowest
    working precision it met (``self.prec``)."""

    def __init__(self, file: io.BytesIO) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.prec: int | None = None

    def _note(self, prec: int) -> None:
        self.prec = prec if self.prec is None else min(self.prec, prec)

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, mpmath.ctx_mp_python._mpf):
            self._note(type(obj).context.prec)
            return _mpf_at, (type(obj).context.prec, obj._mpf_)
        if isinstance(obj, mpmath.ctx_mp_python._mpc):
            self._note(type(obj).context.prec)
            return _mpc_at, (type(obj).context.prec, obj._mpc_)
        if isinstance(obj, flint.arb):
            if not obj.is_finite():
                return _arb_text, (str(obj),)
            self._note(flint.ctx.prec)
            return _arb_of, (obj.mid().man_exp(), obj.rad().man_exp())
        if isinstance(obj, MpCtx):
            self._note(obj.prec)
            return _mp_ctx, (obj.prec,)
        if isinstance(obj, ArbCtx):
            self._note(obj.prec)
            return _arb_ctx, (obj.prec,)
        if isinstance(obj, functools._lru_cache_wrapper) and "<locals>" in obj.__qualname__:
            return _cached, (obj.__wrapped__,)  # a local cached closure: rebuilt, cache empty
        return super().reducer_override(obj)


def dumps(obj: Any) -> tuple[bytes, int | None]:
    buffer = io.BytesIO()
    pickler = _Pickler(buffer)
    pickler.dump(obj)
    return buffer.getvalue(), pickler.prec


def loads(blob: bytes, boost: int = 0) -> Any:
    global _boost
    _boost = boost
    try:
        return pickle.loads(blob)
    finally:
        _boost = 0


# ------------------------------------------------------------------------------------------
# recording during the baseline


@dataclasses.dataclass
class Call:
    """One recorded call: ``(args, kwargs)`` pickled, the working precision, flint's precision."""

    blob: bytes
    prec: int
    flint_prec: int


class Recorder:
    """A reservoir of at most ``SAMPLES`` calls per function, fed from a profiler hook."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)
        self.seen: dict[Any, int] = {}
        self.calls: dict[Any, list[Call]] = {}

    def offer(self, key: Any, frame: Any) -> None:
        n = self.seen[key] = self.seen.get(key, 0) + 1
        kept = self.calls.setdefault(key, [])
        slot = len(kept) if len(kept) < SAMPLES else self.rng.randrange(n)
        if slot >= SAMPLES:
            return
        call = _capture(frame)
        if call is None:
            return
        if slot == len(kept):
            kept.append(call)
        else:
            kept[slot] = call


def _capture(frame: Any) -> Call | None:
    code, local = frame.f_code, frame.f_locals
    names = code.co_varnames
    n = code.co_argcount
    args = [local[name] for name in names[:n]]
    kwargs = {name: local[name] for name in names[n:n + code.co_kwonlyargcount]}
    i = n + code.co_kwonlyargcount
    if code.co_flags & _VARARGS:
        args += list(local[names[i]])
        i += 1
    if code.co_flags & _VARKEYWORDS:
        kwargs.update(local[names[i]])
    try:
        blob, prec = dumps((args, kwargs))
    except Exception:  # an argument that cannot travel (a lock, a generator): not recorded
        return None
    if len(blob) > MAX_BYTES:
        return None
    return Call(blob, prec or 53, flint.ctx.prec)


# ------------------------------------------------------------------------------------------
# extra inputs in the recorded ranges


def _scalar(x: Any) -> bool:
    return (isinstance(x, int | float | Fraction | mpmath.ctx_mp_python._mpf)
            and not isinstance(x, bool))


def _exact(x: Any) -> Fraction:
    if isinstance(x, mpmath.ctx_mp_python._mpf):
        return Fraction(*mpmath.libmp.to_rational(x._mpf_))
    return Fraction(x)


def _draw(rng: random.Random, lo: Any, hi: Any, like: Any) -> Any:
    if isinstance(like, int):
        return rng.randint(int(lo), int(hi))
    lo, hi = _exact(lo), _exact(hi)
    value = lo + Fraction(rng.randrange(1 << 20), 1 << 20) * (hi - lo)
    if isinstance(like, float):
        return float(value)
    if isinstance(like, Fraction):
        return value
    m = type(like).context
    return m.mpf(value.numerator) / value.denominator


def extra_inputs(calls: list[Call], count: int, rng: random.Random) -> Iterator[Call]:
    """``count`` calls built from recorded ones, scalar arguments redrawn in their ranges."""
    decoded = [(loads(c.blob), c) for c in calls]
    ranges: dict[Any, tuple[Any, Any]] = {}
    for (args, kwargs), _ in decoded:
        for key, x in itertools.chain(enumerate(args), kwargs.items()):
            if _scalar(x) and mpmath.isfinite(x):
                lo, hi = ranges.get(key, (_exact(x), _exact(x)))
                ranges[key] = (min(lo, _exact(x)), max(hi, _exact(x)))
    for _ in range(count if ranges else 0):
        (args, kwargs), call = rng.choice(decoded)
        args, kwargs = list(args), dict(kwargs)
        for key in ranges:
            target = args if isinstance(key, int) else kwargs
            present = key < len(args) if isinstance(key, int) else key in kwargs
            if present and _scalar(target[key]) and rng.random() < 0.5:
                if isinstance(target[key], int) and not (
                        ranges[key][0].denominator == ranges[key][1].denominator == 1):
                    continue
                target[key] = _draw(rng, *ranges[key], target[key])
        try:
            blob, _ = dumps((args, kwargs))
        except Exception:
            continue
        yield Call(blob, call.prec, call.flint_prec)


# ------------------------------------------------------------------------------------------
# outcomes and their comparison


class _Slow(BaseException):
    pass


def _on_alarm(_signum: int, _frame: Any) -> None:
    raise _Slow


def _normal(v: Any, depth: int = 0) -> Any:
    """A comparable form: exact numbers, ("f", mpf), ("ball", mid, rad), nested lists."""
    if depth > 6:
        return ("repr", type(v).__name__)
    if v is None or isinstance(v, bool | str | bytes | int | Fraction):
        return v
    if isinstance(v, float | mpmath.ctx_mp_python._mpf):
        return ("f", mpmath.mpf(v) if isinstance(v, float) else v)  # mpf(float) is exact
    if isinstance(v, mpmath.ctx_mp_python._mpc):
        return ("c", _normal(v.real, depth + 1), _normal(v.imag, depth + 1))
    if isinstance(v, flint.arb):
        return ("ball", v.mid(), v.rad()) if v.is_finite() else ("repr", str(v))
    if isinstance(v, enum.Enum):
        return ("enum", repr(v))
    if isinstance(v, MpCtx | ArbCtx):
        return ("ctx", type(v).__name__)
    if callable(v) and not dataclasses.is_dataclass(v):
        return ("callable", getattr(v, "__qualname__", type(v).__name__))
    if isinstance(v, tuple | list | set | frozenset):
        items = sorted(v, key=repr) if isinstance(v, set | frozenset) else v
        return [_normal(x, depth + 1) for x in items]
    if isinstance(v, dict):
        return [(_normal(k, depth + 1), _normal(x, depth + 1)) for k, x in v.items()]
    if isinstance(v, Iterator):
        return [_normal(x, depth + 1) for x in itertools.islice(v, 10_000)]
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return (type(v).__name__, [_normal(getattr(v, f.name), depth + 1)
                                   for f in dataclasses.fields(v)])
    if hasattr(v, "tolist"):
        return _normal(v.tolist(), depth + 1)
    if hasattr(v, "__dict__"):
        return (type(v).__name__, _normal(vars(v), depth + 1))
    return ("repr", _ADDRESS.sub("0x", repr(v))[:200])


def _close(a: Any, b: Any, prec: int) -> bool:
    rel = Fraction(1, 2 ** max(0, prec - 8))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, prec) for x, y in zip(a, b, strict=True))
    if isinstance(a, tuple) and isinstance(b, tuple) and a and b and a[0] == b[0]:
        if a[0] == "f":
            x, y = a[1], b[1]
            if not (mpmath.isfinite(x) and mpmath.isfinite(y)):
                return str(x) == str(y)
            fx, fy = _exact(x), _exact(y)
            floor = Fraction(1, 2 ** (2 * prec))
            return abs(fx - fy) <= rel * max(abs(fx), abs(fy), floor)
        if a[0] == "ball":
            mid_a, mid_b = arb_to_fraction(a[1]), arb_to_fraction(b[1])
            rad = max(arb_to_fraction(a[2]), arb_to_fraction(b[2]))
            return abs(mid_a - mid_b) <= rad + rel * max(abs(mid_a), abs(mid_b))
        return len(a) == len(b) and all(_close(x, y, prec) for x, y in zip(a, b, strict=True))
    if isinstance(a, int | Fraction) and isinstance(b, int | Fraction):
        return a == b
    return a == b


def _outcome(fn: Callable[..., Any], call: Call, limit: float) -> tuple[str, Any, float]:
    args, kwargs = loads(call.blob, BOOST)
    saved = flint.ctx.prec
    flint.ctx.prec = call.flint_prec + BOOST
    previous = signal.signal(signal.SIGVTALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_VIRTUAL, limit)  # CPU seconds: fair on a loaded machine
    started = time.process_time()
    try:
        value = fn(*args, **kwargs)
        # arguments after the call too: an engine step that updates its state in place
        return "ok", _normal((value, args, kwargs)), time.process_time() - started
    except _Slow:
        return "slow", None, time.process_time() - started
    except Exception as exc:
        return "raise", type(exc).__name__, time.process_time() - started
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
        flint.ctx.prec = saved


def _show(call: Call) -> str:
    args, kwargs = loads(call.blob)
    shown = [repr(a)[:60] for a in args] + [f"{k}={repr(v)[:60]}" for k, v in kwargs.items()]
    return f"({', '.join(shown)})"[:400]


def compare(original: Callable[..., Any], mutate: Callable[[], None], calls: list[Call],
            seed: str, budget: float, limit: float = 5.0) -> dict[str, Any]:
    """Evaluate ``original`` on the recorded and extra calls, then ``mutate()`` and the mutant.

    ``original`` is the unwrapped function object: ``mutate`` replaces its code in place, so
    the same object evaluates the mutant afterwards (caches around it are bypassed). Inputs are
    taken in order while the original's CPU time stays within half of ``budget`` seconds.
    """
    inputs = list(calls) + list(extra_inputs(calls, EXTRA, random.Random(seed)))
    before: list[tuple[str, Any, float]] = []
    for call in inputs:
        if sum(took for _, _, took in before) > budget / 2:
            break
        before.append(_outcome(original, call, limit))
    inputs = inputs[:len(before)]
    mutate()
    compared = 0
    for call, (kind, value, took) in zip(inputs, before, strict=True):
        if kind == "slow":
            continue
        m_kind, m_value, _ = _outcome(original, call, max(2.0, 20 * took))
        same = m_kind == kind and (value == m_value if kind == "raise"
                                   else kind == "ok" and _close(value, m_value, call.prec))
        if not same:
            return {"equivalent": False, "compared": compared + 1, "differs_at": _show(call),
                    "original": _brief(kind, value), "mutant": _brief(m_kind, m_value)}
        compared += 1
    return {"equivalent": compared > 0, "compared": compared}


def outcomes(fn: Callable[..., Any], calls: list[Call], budget: float | None,
             limits: list[float] | None = None) -> bytes:
    """``fn``'s outcomes on ``calls`` in order (pickled with :func:`dumps`, to leave a forked
    child): while the CPU time stays within ``budget`` seconds, or each within its limit."""
    out: list[tuple[str, Any, float]] = []
    for i, call in enumerate(calls):
        if budget is not None and sum(took for _, _, took in out) > budget:
            break
        out.append(_outcome(fn, call, limits[i] if limits else 5.0))
    return dumps(out)[0]


def agree(calls: list[Call], before: list[tuple[str, Any, float]],
          after: list[tuple[str, Any, float]]) -> dict[str, Any]:
    """:func:`compare`'s verdict on outcomes computed apart (original, then mutant)."""
    compared = 0
    for call, (kind, value, _), (m_kind, m_value, _) in zip(calls, before, after, strict=False):
        if kind == "slow":
            continue
        same = m_kind == kind and (value == m_value if kind == "raise"
                                   else kind == "ok" and _close(value, m_value, call.prec))
        if not same:
            return {"equivalent": False, "compared": compared + 1, "differs_at": _show(call)}
        compared += 1
    return {"equivalent": compared > 0, "compared": compared}


def _brief(kind: str, value: Any) -> str:
    if kind != "ok":
        return f"{kind}: {value}" if value is not None else kind
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "…"
