"""Formulas: the pure mathematics of the catalogue, organised by mathematical object (one
formula body written once against an arithmetic context: ``f(ctx, **params)``). They state no
theorem and know no verifier. Imports: core, errors, refs, params, values, ctx, numerics and
other formulas only."""
