"""Family ``privacy_loss`` (catalogue ``privacy_loss.md``): privacy loss distributions, the
primitive mechanisms, zCDP, RDP and their conversions to (eps, delta)-DP.

Which file holds which id (formulas live in :mod:`dpverify.theorems.formulas`):

- ``gaussian``: STK-PLD-GAUSS, STK-HT, BW-ANALYTIC-GAUSS, MIR-RDP-GAUSS
- ``laplace``: STK-LAPLACE, MIR-RDP-LAP
- ``gdp``: DRS-GDP
- ``pld``: STK-PLD-DEF, STK-APPROX-PLD, STK-COMP-PLD
- ``zcdp``: STK-ZCDP-DEF, STK-ZCDP-GAUSS, STK-ZCDP-COMP, STK-ADAPT-POST
- ``rdp``: STK-PDP-ZCDP, STK-RDP-DEF
- ``zcdp_conversions``: STK-ZCDP-CONV, STK-REMARK15, BS16-L36
- ``cks20``: CKS20-CONV
- ``rdp_conversions``: MIR-RDP-CONV, BALLE20-CONV
- ``common``: helpers shared by the claim terms (no entries)

References
----------
- [S22] T. Steinke, *Composition of Differential Privacy & Privacy Amplification by
  Subsampling*, arXiv 2210.00597v4, Secs. 3–4, 6.4 and Remark 15.
- [BW18] B. Balle, Y.-X. Wang, arXiv 1805.06530v2, Thm 8.
- [BS16] M. Bun, T. Steinke, arXiv 1605.02065, Def. 1.1, Props. 1.3, 1.4, 1.6 (Lemma 3.6 as
  quoted).
- [CKS20] C. Canonne, G. Kamath, T. Steinke, arXiv 2004.00010v4, Lemma 9, Prop. 12.
- [DRS] J. Dong, A. Roth, W. Su, arXiv 1905.02383, Cor. 2.13, Cor. 3.3, Sec. 5.
- [Mir17] I. Mironov, arXiv 1702.07476v3, Def. 4, Prop. 3, Prop. 6, Table II.
- [BBGHS20] B. Balle, G. Barthe, M. Gaboardi, J. Hsu, T. Sato, arXiv 1905.09982, Thm 21.
- [MTZ19] I. Mironov, K. Talwar, L. Zhang, arXiv 1908.10530, Sec. 3.3.
- [BBG] B. Balle, G. Barthe, M. Gaboardi, arXiv 1807.01647v2 (SGM-1STEP-EXACT).
- [SteinkeBlog24] T. Steinke, "Sharp RDP & zCDP from pure DP", differentialprivacy.org, 2024.
"""
