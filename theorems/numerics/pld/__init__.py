"""Certified privacy-loss-distribution (PLD) accounting: rigorous two-sided enclosures.

A privacy profile ``delta(eps) = H_{e^eps}(P||Q)`` of a k-fold composition is enclosed between
two discrete PLDs on a uniform grid of losses:

- the **upper** PLD is a *dominating pair* ("connect the dots"): the (P, Q)-mass of every loss
  interval ``[z_i, z_{i+1}]`` is split between its two end points so that both the P-mass and the
  Q-mass are preserved. The true pair is a post-processing of the split pair (a Markov kernel
  maps each grid atom back onto the outcomes of its interval), so every hockey-stick divergence
  of every composition is bounded above. Mass outside the grid window is moved *up*: below the
  window to its first point, above it to an atom at ``+inf`` that counts fully in delta;
- the **lower** PLD is a *post-processing* of the true pair by **neighbour exchange**
  (:mod:`.lower`, vectorised in float64 with outward rounding): the loss axis is cut into
  bins (one centred bin per grid point where the mass is), each bin is given a target grid
  point and keeps a share of itself plus a fraction borrowed from the bin above (deficit) or
  below (surplus), so that every atom's loss ``log(P/Q)`` is at least its grid point; the
  fractions of every bin sum to 1 (a randomised merge). On coarse grids (at most
  ``discretize.POUR_MAX_BINS`` bins) the previous construction, pouring the bins in loss order
  (:mod:`.pour`), is also computed and the one with more mass higher up kept (both are
  sound). Mass outside the window is dropped.

Bin masses are arb enclosures (Phi through erfc; for the subsampled Gaussian's add/remove pairs
the fine bins come from one arb power series per block of grid points, evaluated in float64 with
a rigorous Taylor-remainder and Horner bound, :mod:`.taylor`) and are outward rounded to
integers in units of ``2^-B`` (ceil for the upper PLD, floor for the lower). ``delta(eps) =
sum_z m(z) (1 - e^{eps - z})_+ + m(+inf)`` of the k-fold composition is an upper bound for the
upper PLD and a lower bound for the lower one; ``eps(delta)`` is certified by monotone
inversion of both bounds. Composition (``method``):

- ``"fourier"``, **the default of the enclosure drivers** (:mod:`.fourier`, :mod:`.fourier_pld`):
  every part's one-step PLD is exponentially tilted towards the query, transformed once by a
  float64 FFT, raised pointwise to its ``k`` and transformed back once, with a proven l1 error
  budget (a-priori FFT bounds, upward-rounded powers, Chernoff bounds of the mass outside the
  window) that the certified delta/eps queries carry; a composition or query it cannot do falls
  back to "exact";
- ``"exact"``, the default of the functions returning composed PLDs (``composed_pld(s)``,
  ``composition_pld``, composed further by :mod:`.tradeoff`): exact ``fmpz_poly``
  multiplication with outward rescaling, self-composition by repeated squaring, negligible
  tails trimmed with their mass accounted (upper: left tail moved up, right tail to ``+inf``;
  lower: dropped), queries in ball arithmetic;
- ``"fft"``, ``"tilted"``, ``"auto"``: float FFT products with a-priori bounds, untilted or
  tilted (:mod:`.fft`, :mod:`.tilted`).

Both discretisations are second order in the grid step h (neither moves the mean of the loss
to first order), which is what makes relative widths of 1e-5 affordable at ``k = 14062``
steps; plain rounding of each loss up or down would cost ``k h`` in eps. The window is cut into
coarse cells, resolved at step h only where they carry mass; parameters may be arb balls (every
bound then holds for every value in the balls). The driver (:mod:`.enclose`) reads the constant of
the ``c h^2`` law off a float model of a coarse pass (:mod:`.predict`: the same constructions
from float CDFs, never part of an enclosure; without one, off a rigorous coarse pass) and
runs its first rigorous pass at the coarsest step predicted to meet the target; its time
budget is CPU seconds.

Main results
------------
- loss pairs with rigorous loss CDFs: :class:`SubsampledGaussian` (directions ``add``,
  ``remove`` of the add/remove dominating pairs and ``replace`` of the replace-one pair of the
  catalogue README's scenario conventions; ``q = 1`` is the Gaussian mechanism),
  :class:`Laplace`, :class:`RandomizedResponse`, :class:`SubsampledPair` (Poisson subsampling
  of a base pair under add/remove, :mod:`.subsampled`), :class:`DiscreteLaplace` and
  :class:`DiscreteGaussian` (:mod:`.discrete_pairs`);
- :func:`discretize` (one step, both PLDs), :class:`DiscretePLD` (``compose``,
  ``self_compose``, ``delta_bound``, ``eps_bound``);
- :func:`enclose_delta`, :func:`enclose_eps`: two-sided enclosures over the maximum of several
  directions with an automatically chosen grid (successive passes are intersected);
  :func:`sgm_pairs` gives the directions of the Poisson-subsampled Gaussian for a neighbouring
  relation; :func:`enclose_eps_composition`, :func:`enclose_delta_composition` and
  :func:`sgm_composition` do the same for heterogeneous compositions;
- ``method`` as above; "auto" runs a tilted pass and keeps it when its rigorous enclosure
  meets the target width, else also the exact ``fmpz_poly`` pass (intersected).

Modules: ``_arith`` (rigorous helpers), ``pairs`` (loss pairs), ``discretize`` (grid, one-step
PLDs), ``taylor`` (blockwise Taylor bin masses), ``lower`` (neighbour exchange), ``pour``
(pouring, the coarse-grid alternative), ``discrete`` (:class:`DiscretePLD`, exact
composition, certified queries), ``fft`` (:class:`FloatPLD`, FFT composition), ``tilted``
(:class:`~.tilted.TiltedPLD`, tilted FFT composition), ``fourier`` (Fourier-domain
composition), ``fourier_pld`` (:class:`~.fourier_pld.FourierPLD`, its queries), ``log_mgf``
(its float locators: tilt, Chernoff estimate), ``decay`` (rigorous decaying tables of its
queries), ``composition`` (cached one-step and composed PLDs by method), ``passes`` (one
pass at a fixed step), ``predict`` (the float model of a pass), ``enclose`` (the driver).

References
----------
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Secs. 3-4 (PLDs; composition is convolution).
- [DGKKM22] V. Doroshenko, B. Ghazi, P. Kamath, R. Kumar, P. Manurangsi, *Connect the Dots:
  Tighter Discrete Approximations of Privacy Loss Distributions*, arXiv 2207.04380v1 (PETS 2022)
  (the split construction of the upper PLD).
- [MM18] S. Meiser, E. Mohammadi, *Tight on Budget?*, CCS 2018 (pessimistic / optimistic PLDs).
- [BBG] B. Balle, G. Barthe, M. Gaboardi, arXiv 1807.01647v2, Thm 2 (advanced joint convexity:
  the subsampled Gaussian pairs) and [GLW21] S. Gopi, Y. T. Lee, L. Wutschitz, arXiv 2106.02848.
"""

from dpverify.theorems.ctx import PrecisionExhausted, arb_precision
from dpverify.theorems.numerics.pld._arith import (
    EVAL_PREC,
    HALF,
    PREC,
    Number,
    _arb,
    _certain_le,
    _certain_lt,
    _dyadic_ceil,
    _dyadic_floor,
    _phi,
    _span,
    _units,
)
from dpverify.theorems.numerics.pld.discrete import DiscretePLD, _ones
from dpverify.theorems.numerics.pld.discrete_pairs import DiscreteGaussian, DiscreteLaplace
from dpverify.theorems.numerics.pld.discretize import (
    COARSE,
    FINE_MASS,
    MAX_BINS,
    Grid,
    _lower_masses,
    discretize,
    grid_for,
)
from dpverify.theorems.numerics.pld.enclose import (
    _CACHE,
    DEFAULT_METHOD,
    FIRST_BINS,
    METHODS,
    Enclosure,
    Part,
    _dyadic_step,
    _eps_pass,
    _plan,
    _refine,
    _scale,
    composed_pld,
    composed_plds,
    composition_pld,
    enclose_delta,
    enclose_delta_composition,
    enclose_eps,
    enclose_eps_composition,
    fourier_or_exact,
    one_step_plds,
    sgm_composition,
)
from dpverify.theorems.numerics.pld.fft import (
    FloatPLD,
    convolution_error_bound,
    convolve_outward,
    fft_error_factor,
)
from dpverify.theorems.numerics.pld.pairs import (
    Laplace,
    LossPair,
    RandomizedResponse,
    SubsampledGaussian,
    sgm_pairs,
)
from dpverify.theorems.numerics.pld.subsampled import SubsampledPair

__all__ = [
    "COARSE",
    "DEFAULT_METHOD",
    "EVAL_PREC",
    "FINE_MASS",
    "FIRST_BINS",
    "HALF",
    "MAX_BINS",
    "METHODS",
    "PREC",
    "_CACHE",
    "DiscreteGaussian",
    "DiscreteLaplace",
    "DiscretePLD",
    "Enclosure",
    "FloatPLD",
    "Grid",
    "Laplace",
    "LossPair",
    "Number",
    "Part",
    "PrecisionExhausted",
    "RandomizedResponse",
    "SubsampledGaussian",
    "SubsampledPair",
    "_arb",
    "_certain_le",
    "_certain_lt",
    "_dyadic_ceil",
    "_dyadic_floor",
    "_dyadic_step",
    "_eps_pass",
    "_lower_masses",
    "_ones",
    "_phi",
    "_plan",
    "_refine",
    "_scale",
    "_span",
    "_units",
    "arb_precision",
    "composed_pld",
    "composed_plds",
    "composition_pld",
    "convolution_error_bound",
    "convolve_outward",
    "discretize",
    "enclose_delta",
    "enclose_delta_composition",
    "enclose_eps",
    "enclose_eps_composition",
    "fft_error_factor",
    "fourier_or_exact",
    "grid_for",
    "one_step_plds",
    "sgm_composition",
    "sgm_pairs",
]
