"""Pure mathematics by object (closed forms, exact profiles and their inverses), written once
against the arithmetic contexts. Imports: core, params, values, errors, refs, ctx, numerics and
other formulas; never a family package."""
