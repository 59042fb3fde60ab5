"""Typeset test papers with exact truth: one per layout feature, the audit papers with planted problems,
the derived-number papers and the GenBench-shaped paper. Set by the runtime typesetter (pipeline.fixtures),
kept out of the installed package; benchmarks reach them through benchmarks/testpapers.py.
"""

from papers.extra_features import EXTRA_FEATURE_PAPERS, render_side_by_side, render_unnamed_bold
from papers.features import FEATURE_PAPERS, feature_papers

__all__ = ["EXTRA_FEATURE_PAPERS", "FEATURE_PAPERS", "feature_papers", "render_side_by_side", "render_unnamed_bold"]
