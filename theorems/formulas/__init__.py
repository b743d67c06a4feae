"""Pure mathematics by object: each module writes its formulas once, ``f(ctx, ...)``, against an
arithmetic context. Imports: core, params, values, errors, refs, ctx, numerics and other formulas
modules (never a family package)."""
