"""Family ``subsampling`` (catalogue ``subsampling.md``): privacy amplification by subsampling,
the subsampled Gaussian, and certified PLD accounting.

Which file holds which id (formulas live in :mod:`dpverify.theorems.formulas`):

- ``amplification``: BBG-T8, BBG-T9, BBG-T10
- ``relations``: STK-ADDREM-VS-REPL, STK-SUBSAMPLE-COMP
- ``sgm_exact``: SGM-1STEP-EXACT
- ``sgm_rdp``: MTZ-SGM-RDP
- ``analytic_rdp``: STK-ANALYTIC-RDP
- ``pld_accounting``: SGM-PLD-COMP
- ``howto``: STK-HOWTO
- ``scenarios``: the standard DP-SGD scenarios (``SCENARIOS``; no entries)
- ``common``: helpers shared by the claim terms (no entries)

References
----------
- [BBG] B. Balle, G. Barthe, M. Gaboardi, arXiv 1807.01647v2, Thm 2, Thms 8-10.
- [S22] T. Steinke, arXiv 2210.00597v4, Secs. 4 and 6.
- [MTZ19] I. Mironov, K. Talwar, L. Zhang, arXiv 1908.10530v1, Sec. 3.
- [Mir17] I. Mironov, arXiv 1702.07476v3, Prop. 3 and Prop. 6.
- [BBGHS20] B. Balle, G. Barthe, M. Gaboardi, J. Hsu, T. Sato, arXiv 1905.09982, Thm 21.
- [ZW19] Y. Zhu, Y.-X. Wang, *Poisson Subsampled Rényi Differential Privacy*, ICML 2019, Thm 6.
- [DGKKM22] Doroshenko et al., *Connect the Dots*, arXiv 2207.04380v1.
"""
