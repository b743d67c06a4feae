"""Numeric engines (certified PLD accounting, finite distributions, the GCE model, lattice
programs, maximisers): they compute, but state no theorem. Imports: core and ctx only."""
