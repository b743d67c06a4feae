"""The figures of a report and how they are drawn: inline SVG, no pyplot, no global state.

:class:`Plots` collects the figures of one page and the notes of the plots that were skipped
(each note also a warning on the ``dpverify.reports`` logger); :func:`_mp_value` evaluates a
formula in mpmath for a plot.
"""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

LOG = logging.getLogger("dpverify.reports")


MP_BITS = 200


@dataclass
class Figure:
    anchor: str
    title: str
    svg: str
    caption: str


@dataclass
class Plots:
    figures: list[Figure] = field(default_factory=list)
    margin_anchor: dict[tuple[str, int], str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        LOG.warning("report plot skipped: %s", text)
        self.notes.append(text)


class _Skip(Exception):
    """A plot that does not apply (said in a note, not an error)."""


def _short_json(x: Any) -> str:
    s = x if isinstance(x, str) else json.dumps(x, ensure_ascii=False)
    return s if len(s) <= 300 else s[:297] + "..."


def _svg(fig: Any, index: int) -> str:
    """The figure as inline SVG, its element ids made unique within the page."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buf.getvalue()
    text = text[text.index("<svg"):]
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)
    return _prefix_ids(text, "", f"f{index}-")


def _prefix_ids(svg: str, old: str, new: str) -> str:
    """The SVG's element ids (and the references to them) with prefix ``old`` changed to
    ``new``."""
    o = re.escape(old)
    svg = re.sub(rf'\bid="{o}([^"]+)"', lambda m: f'id="{new}{m.group(1)}"', svg)
    svg = re.sub(rf"url\(#{o}([^)]+)\)", lambda m: f"url(#{new}{m.group(1)})", svg)
    return re.sub(rf'href="#{o}([^"]+)"', lambda m: f'href="#{new}{m.group(1)}"', svg)


def _renumber(svg: str, old: int, new: int) -> str:
    """An SVG drawn as the page's figure ``old`` (:func:`_svg`) as its figure ``new``."""
    return svg if old == new else _prefix_ids(svg, f"f{old}-", f"f{new}-")


def _new_figure(width: float = 7.0, height: float = 3.6) -> Any:
    from matplotlib.figure import Figure as MplFigure

    fig = MplFigure(figsize=(width, height))
    return fig, fig.add_subplot()


def _rc() -> Any:
    import matplotlib

    return matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "dpverify",
                                  "font.size": 9, "axes.grid": True, "grid.alpha": 0.3})


@cache
def _mp_ctx(bits: int) -> Any:
    from dpverify.theorems.ctx import MpCtx

    return MpCtx(bits)  # building an mpmath context costs ~1 ms: one per precision


def _mp_value(formula: Callable[..., Any], params: Mapping[str, Any], bits: int = MP_BITS) -> Any:
    ctx = _mp_ctx(bits)
    if ctx.m.prec != bits:  # a formula left the precision changed: start afresh
        _mp_ctx.cache_clear()
        ctx = _mp_ctx(bits)
    return ctx.run(formula, **params)
