"""The papers the catalogue cites, declared once and cited by key
(``shared/catalogue/README.md``, section Sources).

A family module cites a paper as ``cite(KOV, "Thm 3.3")``: the :class:`Source` it builds carries
the paper's title, arXiv id and version. A version is given only where the catalogue or the
encoding checked it; elsewhere it is ``None`` and the report says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from dpverify.theorems.core import Source


@dataclass(frozen=True)
class Paper:
    """A cited work: its key in the catalogue, authors and title, arXiv id and version."""

    key: str
    title: str
    arxiv: str | None = None
    version: str | None = None


def cite(paper: Paper, locator: str) -> Source:
    """The :class:`Source` of a statement at ``locator`` (theorem, lemma, section) of ``paper``."""
    return Source(paper.title, locator, arxiv=paper.arxiv, version=paper.version)


GCE = Paper("GCE", "Hartmann, Bindschaedler & West, On the Choice of Databases in Differential "
            "Privacy Composition", "2209.13697")
DDR = Paper("DDR", "Dong, Durfee & Rogers, Optimal Differential Privacy Composition for "
            "Exponential Mechanisms and the Cost of Adaptivity", "1909.13830")
DR19 = Paper("DR19", "Durfee & Rogers, Practical Differentially Private Top-k Selection with "
             "Pay-what-you-get Composition", "1905.04273")
KOV = Paper("KOV", "Kairouz, Oh & Viswanath, The Composition Theorem for Differential Privacy",
            "1311.0776", "v4")
MV = Paper("MV", "Murtagh & Vadhan, The Complexity of Computing the Optimal Composition of "
           "Differential Privacy", "1507.03113")
DRV = Paper("DRV", "Dwork, Rothblum & Vadhan, Boosting and Differential Privacy (FOCS 2010)")
DR14 = Paper("DR14", "Dwork & Roth, The Algorithmic Foundations of Differential Privacy (2014)")
MCS = Paper("McS", "McSherry, Privacy Integrated Queries (SIGMOD 2009)")
MT07 = Paper("MT07", "McSherry & Talwar, Mechanism Design via Differential Privacy (FOCS 2007)")
BBG = Paper("BBG", "Balle, Barthe & Gaboardi, Privacy Amplification by Subsampling: Tight "
            "Analyses via Couplings and Divergences", "1807.01647", "v2")
S22 = Paper("S22", "Steinke, Composition of Differential Privacy & Privacy Amplification by "
            "Subsampling", "2210.00597", "v4")
BW18 = Paper("BW18", "Balle & Wang, Improving the Gaussian Mechanism for Differential Privacy: "
             "Analytical Calibration and Optimal Denoising", "1805.06530")
DRS = Paper("DRS", "Dong, Roth & Su, Gaussian Differential Privacy", "1905.02383")
BS16 = Paper("BS16", "Bun & Steinke, Concentrated Differential Privacy: Simplifications, "
             "Extensions, and Lower Bounds", "1605.02065")
CKS20 = Paper("CKS20", "Canonne, Kamath & Steinke, The Discrete Gaussian for Differential "
              "Privacy", "2004.00010", "v4")
CKS20_V3 = Paper("CKS20v3", "Canonne, Kamath & Steinke, The Discrete Gaussian for Differential "
                 "Privacy (NeurIPS 2020); theorem numbers of v3 as cited in the authors' code "
                 "IBM/discrete-gaussian-differential-privacy (commit cb190d2)", "2004.00010", "v3")
WBK19 = Paper("WBK19", "Wang, Balle & Kasiviswanathan, Subsampled Rényi Differential Privacy and "
              "Analytical Moments Accountant (AISTATS 2019) (version not verified)", "1808.00087")
MIR17 = Paper("Mir17", "Mironov, Rényi Differential Privacy", "1702.07476", "v3")
BBGHS20 = Paper("BBGHS20", "Balle, Barthe, Gaboardi, Hsu & Sato, Hypothesis Testing "
                "Interpretations and Rényi Differential Privacy", "1905.09982")
ASO20 = Paper("Aso20", "Asoodeh, Liao, Calmon, Kosut & Sankar, A Better Bound Gives a Hundred "
              "Rounds: Enhanced Privacy Guarantees via f-Divergences", "2001.05990")
MTZ19 = Paper("MTZ19", "Mironov, Talwar & Zhang, Rényi Differential Privacy of the Sampled "
              "Gaussian Mechanism", "1908.10530", "v1")
ZW19 = Paper("ZW19", "Zhu & Wang, Poisson Subsampled Rényi Differential Privacy (ICML 2019)")
DGKKM22 = Paper("DGKKM22", "Doroshenko, Ghazi, Kamath, Kumar & Manurangsi, Connect the Dots: "
                "Tighter Discrete Approximations of Privacy Loss Distributions", "2207.04380",
                "v1")
STEINKE_BLOG22 = Paper("SteinkeBlog22", "Steinke, Composition Basics (differentialprivacy.org, "
                       "2022)")
STEINKE_BLOG24 = Paper("SteinkeBlog24", "Steinke, Sharp RDP & zCDP from pure DP (blog, 2024)")
STEINKE_BLOG25 = Paper("SteinkeBlog25", "Steinke, Privacy Amplification by Subsampling "
                       "(differentialprivacy.org, 2025)")
EFMRTT19 = Paper("EFMRTT19", "Erlingsson, Feldman, Mironov, Raghunathan, Talwar & Thakurta, "
                 "Amplification by Shuffling: From Local to Central Differential Privacy via "
                 "Anonymity (SODA 2019)", "1811.12469")
BBGN19 = Paper("BBGN19", "Balle, Bell, Gascón & Nissim, The Privacy Blanket of the Shuffle "
               "Model (CRYPTO 2019)", "1903.02837")
FMT21 = Paper("FMT21", "Feldman, McMillan & Talwar, Hiding Among the Clones: A Simple and Nearly "
              "Optimal Analysis of Privacy Amplification by Shuffling (FOCS 2021)", "2012.12803")
SMITH_LN = Paper("SmithLN", "Smith, lecture notes on composition, post-processing, group privacy "
                 "and Bayesian semantics")
BLOG = Paper("Blog", "An introductory blog post on the Laplace, Gaussian and exponential "
             "mechanisms, composition and post-processing")
