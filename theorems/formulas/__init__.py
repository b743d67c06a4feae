"""Pure mathematics by object (profiles, calibrations, mechanisms' laws, inverses): formulas
written once against the context protocol, cited to the paper, arXiv id and theorem. They state
no theorem and hold no claim. Imports: core, params, values, errors, refs, ctx, numerics and
other formulas only (never a family package)."""
