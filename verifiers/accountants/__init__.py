"""The accountant audit (``dpverify audit``).

- :mod:`~verifiers.accountants.scenario`: the scenario vocabulary (frozen values, exact JSON).
- :mod:`~verifiers.accountants.protocol`: the Accountant protocol and ``module:object`` loading.
- :mod:`~verifiers.accountants.adapters`: built-in adapters of public accountants (lazy).
- :mod:`~verifiers.accountants.reference`: certified enclosures of the true eps(delta), delta(eps).
- :mod:`~verifiers.accountants.tradeoff_reference`: certified enclosures of the true TPR at an
  FPR and of the GDP parameter (the ``tpr@fpr`` and ``gdp_mu`` queries).
- :mod:`~verifiers.accountants.audit`: verdicts, forked calls with timeouts, baseline comparison.
- :mod:`~verifiers.accountants.sets`: the ``quick`` and ``thorough`` scenario sets.

Nothing heavy is imported here: import the submodule you need.
"""
