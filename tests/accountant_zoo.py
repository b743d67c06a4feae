"""A zoo of misbehaving fake accountants for the audit's hardening tests (loaded by the CLI as
``tests.accountant_zoo:NAME``). Each answers one way for every query; none is a real
accountant."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np

from tests.test_audit import ExactAccountant


class Const:
    """Answers ``value`` to every query."""

    def __init__(self, name: str, value: Any) -> None:
        self.name = name
        self.value = value

    def epsilon(self, scenario: Any, delta: float) -> Any:
        return self.value

    def delta(self, scenario: Any, epsilon: float) -> Any:
        return self.value


class Scaled(ExactAccountant):
    """The exact answer times ``factor`` and converted by ``kind``."""

    def __init__(self, name: str, factor: Any = 1, kind: Any = float) -> None:
        self.name = name
        self.factor = factor
        self.kind = kind

    def epsilon(self, scenario: Any, delta: float) -> Any:
        return self.kind(super().epsilon(scenario, delta) * self.factor)

    def delta(self, scenario: Any, epsilon: float) -> Any:
        return self.kind(super().delta(scenario, epsilon) * self.factor)


class Raises:
    name = "raises"

    def epsilon(self, scenario: Any, delta: float) -> float:
        raise ZeroDivisionError("accountant bug")

    delta = epsilon


class Hangs:
    name = "hangs"

    def epsilon(self, scenario: Any, delta: float) -> float:
        time.sleep(600)
        return 1.0

    delta = epsilon


class ExitsHard:
    name = "os-exit"

    def epsilon(self, scenario: Any, delta: float) -> float:
        os._exit(9)

    delta = epsilon


class SysExitInPrepare(ExactAccountant):
    name = "sys-exit-in-prepare"

    def prepare(self) -> None:
        sys.exit(0)


class OsExitInPrepare(ExactAccountant):
    name = "os-exit-in-prepare"

    def prepare(self) -> None:
        os._exit(0)


class SleepsInPrepare(ExactAccountant):
    name = "sleeps-in-prepare"

    def prepare(self) -> None:
        time.sleep(600)


class SpawnsChild:
    """Starts a long-lived child process and then hangs: both must die with the call."""

    name = "spawns-child"

    def __init__(self, pidfile: str = "") -> None:
        self.pidfile = pidfile

    def epsilon(self, scenario: Any, delta: float) -> float:
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        if self.pidfile:
            with open(self.pidfile, "w") as f:
                f.write(str(child.pid))
        time.sleep(600)
        return 1.0

    delta = epsilon


EXACT = ExactAccountant()
HUGE = Const("huge", 10**400)  # an int past the float range
HUGE_FRACTION = Const("huge-fraction", Fraction(10**500, 3))
TINY = Const("tiny", Fraction(1, 10**400))
DELTA_09 = Const("delta-0.9", 0.9)
NAN = Const("nan", math.nan)
NEG = Const("negative", -1)
INF = Const("inf", math.inf)
NONE = Const("none", None)
STRING = Const("string", "0.5")
BOOL = Const("bool", True)
NUMPY64 = Scaled("numpy-float64", 1, np.float64)
NUMPY32_UP = Scaled("numpy-float32-up", 1.01, np.float32)  # 1% up: float32 rounding is no bug
NUMPY_INT = Const("numpy-int", np.int64(10**6))
DECIMAL = Scaled("decimal", 1, lambda x: Decimal(repr(x)))
FRACTION = Scaled("fraction", 1, Fraction)
HALF = Scaled("half", Fraction(1, 2))  # under-reports: UNSOUND
TWIN_A = Scaled("twin", 1)
TWIN_B = Scaled("twin", Fraction(1, 2))  # same name as TWIN_A, under-reports
RAISES = Raises()
HANGS = Hangs()
OS_EXIT = ExitsHard()
SYS_EXIT_PREPARE = SysExitInPrepare()
OS_EXIT_PREPARE = OsExitInPrepare()
SLEEP_PREPARE = SleepsInPrepare()


class Recorded:
    """A fake *exact* accountant for timing the audit (not an independent check): it answers
    the certified upper bound recorded in dpverify's shipped references, so it costs nothing
    and every query it answers is SOUND; a query with no recorded reference is unsupported."""

    name = "recorded-exact"

    def __init__(self) -> None:
        self._entries: dict[str, Any] | None = None

    def _answer(self, scenario: Any, kind: str, value: float) -> Fraction:
        from dpverify.verifiers.accountants import cache
        from dpverify.verifiers.accountants.sets import SETS

        if self._entries is None:
            self._entries = json.loads(cache.SHIPPED.read_text())["entries"]
        for _, opts in SETS.values():
            text = cache.material(scenario, kind, value, opts["rel_width"])
            entry = self._entries.get(cache.key_of(text))
            bound = cache.decode(entry, text) if entry else None
            if bound is not None:
                return bound.hi  # type: ignore[return-value]
        raise NotImplementedError("no recorded reference for this query")

    def epsilon(self, scenario: Any, delta: float) -> Fraction:
        return self._answer(scenario, "epsilon", delta)

    def delta(self, scenario: Any, epsilon: float) -> Fraction:
        return self._answer(scenario, "delta", epsilon)


RECORDED = Recorded()
