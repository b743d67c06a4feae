"""The wheel built from this checkout installs one top-level package, ``dpverify``.

In the checkout ``dpverify/theorems``, ``dpverify/verifiers`` and ``dpverify/reports`` are links
to the top-level folders; the wheel must carry their files under ``dpverify/`` (with the
packaged catalogue snapshot that ``dpverify show`` reads) and nothing else at the top level:
no ``theorems``, ``verifiers``, ``reports``, ``tests`` or ``bench``. The build uses the
installed backend (hatchling, from the ``test`` extra) without build isolation: no network,
about two seconds.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUILD_SECONDS = 120  # an up-front limit: a hung build fails instead of blocking the suite


@pytest.mark.packaging
def test_wheel_installs_only_the_dpverify_package(tmp_path: Path) -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "--quiet", "--wheel-dir", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True, text=True, timeout=BUILD_SECONDS)
    wheels = list(tmp_path.glob("dpverify-*.whl"))
    assert len(wheels) == 1, f"expected one wheel, got {wheels}"
    names = zipfile.ZipFile(wheels[0]).namelist()

    dist_info = f"dpverify-{project['version']}.dist-info/"
    stray = sorted(n for n in names if not n.startswith(("dpverify/", dist_info)))
    assert not stray, f"the wheel installs more than dpverify: {stray[:20]}"
    assert "dpverify/reports/catalogue/latest.json" in names
    assert "dpverify/__init__.py" in names

    sources = {f"dpverify/{p.relative_to(ROOT).as_posix()}"
               for folder in ("theorems", "verifiers", "reports")
               for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts}
    missing = sorted(sources - set(names))
    assert not missing, f"source modules missing from the wheel: {missing[:20]}"
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
