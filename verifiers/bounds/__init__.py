"""check-bound: validate a new privacy bound against a certified optimum (engine)."""
