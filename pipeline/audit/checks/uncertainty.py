"""error-bars-claimed: the text or checklist claims error bars, deviations or intervals; no table prints any.

A claim is a sentence that says uncertainty is reported (error bars; standard deviations or errors,
confidence intervals shown, given, in parentheses, over N runs; what "±" denotes; a checklist answer "Yes",
"Answer: [Yes]"), not negated.
Intervals that are a method's output (prediction, predictive, credible or conformal intervals), or any
intervals when a table scores them (coverage, width), are what is evaluated, not error bars claimed.
A table prints uncertainty when a cell carries "±" or "(sd)", or a header names std / SD / CI.
"""

from __future__ import annotations

import re

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.text import Sentence

_SPREAD = (
    r"(?:error[- ]bars?|standard deviations?|standard errors?|std\.?|s\.d\.|s\.e\.m?\.?|confidence intervals?|CIs?)"
)
CLAIMS = (
    re.compile(r"\berror[- ]bars?\b", re.I),
    re.compile(
        rf"\b(?:report|show|give|include|present|provide|plot|display|list)\w*\b[^.;]{{0,60}}\b{_SPREAD}(?!\w)", re.I
    ),
    re.compile(
        rf"\b{_SPREAD}[^.;]{{0,50}}\b(?:are|is|were|was)\s+(?:reported|shown|given|included|indicated|plotted|"
        rf"listed|in (?:parentheses|brackets))\b",
        re.I,
    ),
    re.compile(
        rf"\b{_SPREAD}[^.;]{{0,40}}\b(?:over|across|from)\s+(?:\d+|two|three|four|five|ten)\s+"
        rf"(?:independent\s+)?(?:runs|seeds|trials|repetitions|folds|replicates)\b",
        re.I,
    ),
    re.compile(r"\bmean\s*(?:±|\+/-|and)\s*(?:std|sd|s\.d\.|standard deviation)\b", re.I),
    re.compile(rf"\b{_SPREAD}\s+(?:\w+\s+){{0,2}}?(?:in|within)\s+(?:parentheses|brackets|subscripts?)\b", re.I),
    re.compile(rf"\b{_SPREAD}\s+(?:given|shown|reported|listed|printed)\s+(?:after|next to|alongside|with)\b", re.I),
    re.compile(r"(?:±|\+/-)\s*(?:denotes|indicates|shows|gives|represents|marks|is|are)\b", re.I),
)
_NEGATED = re.compile(
    r"\b(?:no|not|without|never|n/a|omit\w*|lack\w*)\b[^.;]{0,40}$|\[\s*(?:no|n/a)\s*\]|:\s*(?:no|n/a)\b", re.I
)
_ANSWER_YES = re.compile(r"^\s*(?:answer\s*:\s*)?\[?\s*yes\b", re.I)
_ANSWER_NO = re.compile(r"(?:\[\s*(?:no|n/?a)\s*\]|:\s*(?:no|n/?a)\b)", re.I)
_ABOUT_FIGURES = re.compile(
    r"\b(?:fig\.|figs?\b|figures?|plots?|plotted|curves?|shaded|panels?|bar heights?"
    r"|(?<!error )bars (?:represent|correspond|show|indicate|denote|give))|\([A-H]\)",  # a bar chart's bars
    re.I,
)
# Intervals that are a method's output, which a table evaluates (coverage, width), not a spread of its numbers
_PREDICTED = re.compile(
    r"\b(?:prediction|predictive|forecast|credible|tolerance|conformal)\s+(?:intervals?|sets?|bands?)\b|\bPIs?\b", re.I
)
_EVALUATES_INTERVALS = re.compile(r"\b(?:coverage|interval (?:width|length|score)|PICP|MPIW|CRPS|winkler)\b", re.I)
_METHOD = re.compile(
    r"\b(?:distribution|initiali[sz]\w*|noise|gaussian|sampled|sampling|prior|kernel|perturb\w*)\b", re.I
)
# "0.71 ± 0.02", or an estimate with its standard error in parentheses ("49.99*** (2.7159)") as regression
# tables print them, in the text of a table the extractor missed
_PRINTED_SPREAD = re.compile(r"\d\s*(?:±|\+/-)\s*\d|\d\**\s+\(\d[\d.,]*\.\d+\)")
_BARE_SPREAD = re.compile(r"^\(\s*-?\d[\d.,]*\.\d+\s*\)$")  # a spread printed on its own line under its value
_UNCERTAIN_HEADER = re.compile(r"(?<!\w)(?:std|sd|s\.d\.|sem|ci|95%\s*ci|±|stderr)(?!\w)", re.I)


def claim_sentences(sentences: list[Sentence], evaluated: bool = False) -> list[Sentence]:
    """Sentences that say uncertainty is reported. ``evaluated``: some table evaluates intervals (coverage,
    width), so a sentence about intervals speaks of what is evaluated, not of error bars on the numbers."""
    found = []
    for index, sentence in enumerate(sentences):
        text = sentence.text
        if _ABOUT_FIGURES.search(text) or (_METHOD.search(text) and not CLAIMS[0].search(text)):
            continue  # a figure's error bars, or a deviation that parametrises a method (noise, initialisation)
        if _PREDICTED.search(text) or (evaluated and re.search(r"\bintervals?\b", text, re.I)):
            continue  # prediction intervals a method outputs (and a table evaluates) are no error bars claimed
        if text.rstrip().endswith("?"):  # a checklist question: the answer that follows decides
            answer = sentences[index + 1].text if index + 1 < len(sentences) else ""
            if not _ANSWER_YES.match(answer) or not any(p.search(text) for p in CLAIMS):
                continue
        for pattern in CLAIMS:
            match = pattern.search(text)
            if match and not _NEGATED.search(text[: match.start()]) and not _ANSWER_NO.search(text[match.end() :]):
                found.append(sentence)
                break
    return found


def prints_uncertainty(inp: AuditInput) -> bool:
    """Some table prints a spread; so does text outside the known tables (a table the extractor missed)."""
    if inp.text is not None and any(_PRINTED_SPREAD.search(s.text) for s in inp.text.sentences):
        return True
    for view in inp.views:
        if any(n.plus_minus is not None for n in view.numbers.values()):
            return True
        headers = [t for c in range(view.table.n_cols) for t in view.col_paths.get(c, [])]
        if any(_UNCERTAIN_HEADER.search(h) for h in headers):
            return True
        if any("±" in cell.text or _BARE_SPREAD.match(cell.text.strip()) for cell in view.table.cells):
            return True
    return False


def _evaluates_intervals(inp: AuditInput) -> bool:
    """A table whose headers or caption score intervals (coverage, width, PICP): intervals are its subject."""
    for view in inp.views:
        headers = [t for c in range(view.table.n_cols) for t in view.col_paths.get(c, [])]
        if any(_EVALUATES_INTERVALS.search(t) for t in [view.table.caption, *headers]):
            return True
    return False


def check_error_bars(inp: AuditInput) -> list[Issue]:
    if inp.text is None or not inp.tables or prints_uncertainty(inp):
        return []
    captions = [Sentence(t.page, t.caption) for t in inp.tables if t.caption]
    claims = claim_sentences([*inp.text.sentences, *captions], _evaluates_intervals(inp))
    if not claims:
        return []
    quoted = [{"page": s.page, "sentence": s.text.strip()} for s in claims[:5]]
    first = claims[0]
    return [
        Issue(
            f"the paper claims uncertainty is reported (“{first.text.strip()}”, page {first.page}) "
            f"but none of its {len(inp.tables)} tables prints an error bar, deviation or interval",
            scope="paper",
            expected="a ± value, an (sd) in parentheses or a std / CI column in some table",
            found={"tables_with_uncertainty": 0, "claims": quoted},
            tolerance="any ±, parenthesised spread or std/SD/CI header in any table counts as printed",
            details={"claims": quoted},
        )
    ]
