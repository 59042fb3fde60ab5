"""caption-text-contradiction: the caption describes a table one way, the text citing it the opposite way.

Four oppositions: short- vs long-range, classification vs regression, zero-shot vs fine-tuned, test vs
validation. A side counts only when the caption (or the part of the sentence about this table) names it
alone and not under a negation ("without fine-tuning" is not a claim of fine-tuning).
"""

from __future__ import annotations

import re

from pipeline.audit.checks.base import Issue
from pipeline.audit.context import AuditInput
from pipeline.audit.text import Sentence, cited_tables, table_key
from pipeline.model import Table

# What follows a split's name: the split itself, or a score measured on it ("test accuracy", "validation MCC").
_SPLIT_NOUNS = (
    r"(?:(?:set|split|data|partition|accuracy|scores?|results?|performance|loss|error|metrics?)s?\b"
    r"|(?:MCC|AUROC|AUPRC|AUC|F1|MSE)(?!\w))"
)

OPPOSITIONS: dict[str, dict[str, re.Pattern[str]]] = {
    "range": {
        "short-range": re.compile(r"\bshort[- ](?:range|context|sequence)s?\b", re.I),
        "long-range": re.compile(r"\blong[- ](?:range|context|sequence)s?\b", re.I),
    },
    "task type": {
        "classification": re.compile(r"\bclassification\b", re.I),
        "regression": re.compile(r"\bregression\b", re.I),
    },
    "training": {
        "zero-shot": re.compile(r"\bzero[- ]?shot\b", re.I),
        "fine-tuned": re.compile(r"\bfine[- ]?tun(?:ed|ing)\b", re.I),
    },
    "split": {
        "test": re.compile(rf"\b(?:held[- ]out )?test(?:ing)?[- ]{_SPLIT_NOUNS}", re.I),
        "validation": re.compile(
            rf"(?<!cross-)(?<!cross )\b(?:validation|val|dev|development)[- ]{_SPLIT_NOUNS}",
            re.I,
        ),
    },
}
_NEGATION = re.compile(
    r"\b(?:not|no|without|unlike|instead of|rather than|neither|nor|except|excluding)\W+(?:\w+\W+){0,2}$", re.I
)
_OTHER_TABLE = re.compile(r"\b(?:Supplementary\s+)?Tab(?:le|\.)s?\s*S?\d+", re.I)


def sides(text: str) -> dict[str, set[str]]:
    """For each opposition, the sides a text names (negated mentions left out)."""
    found: dict[str, set[str]] = {}
    for axis, options in OPPOSITIONS.items():
        for side, pattern in options.items():
            if any(not _NEGATION.search(text[: m.start()]) for m in pattern.finditer(text)):
                found.setdefault(axis, set()).add(side)
    return found


def about_table(sentence: str, key: str) -> str:
    """The part of a sentence that speaks about one table: from its mention to the next table's mention."""
    mentions = list(_OTHER_TABLE.finditer(sentence))
    if len(mentions) <= 1:
        return sentence
    for index, match in enumerate(mentions):
        if key in cited_tables(match.group(0)):
            start = mentions[index - 1].end() if index else 0
            end = mentions[index + 1].start() if index + 1 < len(mentions) else len(sentence)
            return sentence[start:end]
    return ""


def check_contradictions(inp: AuditInput) -> list[Issue]:
    if inp.text is None:
        return []
    issues = []
    for view in inp.views:
        key = table_key(view.table.label)
        caption_sides = sides(view.table.caption)
        if key is None or not caption_sides:
            continue
        for sentence in inp.citing(view.table):
            issues.extend(_compare(view.table, caption_sides, sentence, about_table(sentence.text, key)))
    return issues


def _compare(table: Table, caption_sides: dict[str, set[str]], sentence: Sentence, part: str) -> list[Issue]:
    issues = []
    text_sides = sides(part)
    for axis, in_caption in caption_sides.items():
        in_text = text_sides.get(axis, set())
        if len(in_caption) != 1 or len(in_text) != 1 or in_caption == in_text:
            continue
        said, cited = next(iter(in_caption)), next(iter(in_text))
        issues.append(
            Issue(
                f"the caption calls the table {said} ({axis}) but the text citing it says {cited}: "
                f"“{sentence.text.strip()}” (page {sentence.page})",
                table=table,
                scope="table",
                expected={"caption": said},
                found={"text": cited, "page": sentence.page, "sentence": sentence.text.strip()},
                tolerance="wording: one side of the opposition named alone, not negated",
                details={"opposition": axis, "caption": table.caption},
            )
        )
    return issues
