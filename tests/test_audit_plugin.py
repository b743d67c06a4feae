"""The accountant audit from the accountant's side: the pytest plugin (entry point, fixture,
``assert_sound``), and the built-in adapters when their libraries are installed. The independent
test accountants and scenarios are those of tests/test_audit.py.
"""

from __future__ import annotations

import sys
from typing import Any

import pytest

from dpverify.verifiers.accountants.audit import Named, audit
from dpverify.verifiers.accountants.scenario import ScenarioCase
from tests.test_audit import CLOSED, EXACT, FAKE_FILE, FAST, ExactAccountant, IgnoresCount, case

# ==========================================================================================
# the pytest plugin


def test_plugin_is_registered_and_light() -> None:
    from importlib.metadata import entry_points

    eps = [e for e in entry_points(group="pytest11") if e.name == "dpverify"]
    assert eps and eps[0].value == "dpverify.verifiers.pytest_plugin"
    code = ("import sys, dpverify.verifiers.pytest_plugin; "
            "print(any(m.startswith(('flint', 'mpmath', 'dpverify.verifiers.accountants')) "
            "for m in sys.modules))")
    import subprocess

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.dpverify(scenarios=FAKE_FILE, timeout=20)
def test_plugin_fixture_passes_a_sound_accountant(dpverify_audit: Any) -> None:
    recs = dpverify_audit(EXACT)
    assert len(recs) == 3 and {r["verdict"] for r in recs} == {"SOUND"}


def test_plugin_fixture_fails_an_unsound_accountant(dpverify_audit: Any) -> None:
    with pytest.raises(pytest.fail.Exception) as e:
        dpverify_audit(IgnoresCount(), scenarios=FAKE_FILE, timeout=20)
    assert "UNSOUND: g10 epsilon@delta=1e-5" in str(e.value)


def test_plugin_strict_fails_loose() -> None:
    from dpverify.verifiers.pytest_plugin import assert_sound

    class Loose(ExactAccountant):
        name = "loose"

        def epsilon(self, scenario: Any, delta: float) -> float:
            return 3 * super().epsilon(scenario, delta)

    assert_sound(Loose(), FAKE_FILE, ids="rr10", timeout=20)  # LOOSE passes by default
    with pytest.raises(pytest.fail.Exception, match="LOOSE"):
        assert_sound(Loose(), FAKE_FILE, ids="rr10", timeout=20, strict=True)


# ==========================================================================================
# built-in adapters (skipped when the library is not installed)


def _one(name: str, c: ScenarioCase, kind: str = "epsilon") -> dict[str, Any]:
    from dpverify.verifiers.accountants.adapters import builtin

    recs = audit([Named(name, builtin(name))], [c], FAST)
    return next(r for r in recs if r["query"].startswith(kind))


RR10 = case("rr10", [{"mechanism": "randomized_response", "eps0": 1.0, "count": 10}], [1e-6],
            [5.0], "replace_one")
PURE100 = case("pure100", [{"mechanism": "pure_dp", "eps0": 1.0, "count": 100}], [1e-5])


def test_dp_accounting_adapters() -> None:
    pytest.importorskip("dp_accounting")
    r = _one("dp_accounting.pld", RR10)
    assert r["verdict"] == "UNSOUND" and r["margin"]["relative"] > 0.5  # count ignored
    assert _one("dp_accounting.rdp", RR10)["verdict"] == "SOUND"
    assert _one("dp_accounting.rdp", CLOSED[0])["verdict"] == "SOUND"
    assert _one("dp_accounting.pld", PURE100)["verdict"] == "UNSUPPORTED"


def test_prv_accountant_adapter() -> None:
    pytest.importorskip("prv_accountant")
    r = _one("prv_accountant", PURE100)
    assert r["verdict"] == "UNSOUND" and r["reference"][0] > 79 and r["claimed"] < 75
    assert _one("prv_accountant", CLOSED[0])["verdict"] == "SOUND"


def test_autodp_adapter() -> None:
    pytest.importorskip("autodp")
    assert _one("autodp.rdp", CLOSED[0])["verdict"] == "SOUND"
    assert _one("autodp.rdp", PURE100)["verdict"] == "SOUND"
    assert _one("autodp.rdp", CLOSED[6])["verdict"] == "UNSUPPORTED"


def test_opacus_adapters() -> None:
    pytest.importorskip("opacus")
    dpsgd = case("sgm", [{"mechanism": "gaussian", "sigma": 1.0, "count": 1000,
                          "sampling": {"scheme": "poisson", "q": 0.01}}], [1e-5])
    assert _one("opacus.gdp", dpsgd)["verdict"] == "UNSOUND"  # the CLT under-reports
    assert _one("opacus.rdp", dpsgd)["verdict"] == "SOUND"
    assert _one("opacus.rdp", RR10)["verdict"] == "UNSUPPORTED"
