"""derived-rates: sensitivity, specificity, PPV, NPV, accuracy, NIR, prevalence and balanced accuracy of one
classifier on one population follow from (Se, Sp, prevalence).

The prevalence is solved for, not assumed: on a fine partition of [0, 1] each printed quantity keeps the
cells where its range (monotone in Se, Sp and the prevalence, so its corners bound it) meets its printed
interval. When all of them share no prevalence, but do once exactly one quantity is left out, and at least two
others pin the prevalence, that quantity is flagged. PPV and NPV are also tried swapped (the other class
taken as positive), and a finding needs both orientations to fail. Balanced accuracy = (Se + Sp) / 2 needs
no prevalence. Kappa joins only as support (its range over a cell is not bounded by corners), never flagged.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from pipeline.audit.checks.base import Issue
from pipeline.audit.checks.derived import matrix, multiclass
from pipeline.audit.checks.derived.arith import monotone_image
from pipeline.audit.checks.derived.evidence import Operand, relation_issue
from pipeline.audit.checks.derived.layout import Line, named_lines
from pipeline.audit.context import AuditInput
from pipeline.audit.tableview import TableView
from pipeline.numbers import Interval

ROLES: dict[str, re.Pattern[str]] = {
    "se": re.compile(r"sensitivity|sens\.?|tpr|true positive rate", re.I),
    "sp": re.compile(r"specificity|spec\.?|tnr|true negative rate", re.I),
    "ppv": re.compile(r"ppv|positive predictive value", re.I),
    "npv": re.compile(r"npv|negative predictive value", re.I),
    "acc": re.compile(r"accuracy|acc\.?", re.I),
    "bacc": re.compile(r"balanced accuracy|bal\.? acc\.?|ba", re.I),
    "nir": re.compile(r"nir|no[- ]information rate", re.I),
    "prev": re.compile(r"prevalence|prev\.?", re.I),
    "kappa": re.compile(r"kappa|κ|cohen'?s kappa", re.I),
    "n": re.compile(r"n|sample size|no\.? of (?:samples|cases|subjects|patients)", re.I),
    "tp": re.compile(r"tp|true positives?", re.I),
    "fn": re.compile(r"fn|false negatives?", re.I),
    "fp": re.compile(r"fp|false positives?", re.I),
    "tn": re.compile(r"tn|true negatives?", re.I),
}
COUNTS = ("tp", "fn", "fp", "tn")
_SIZE = re.compile(r"\(?\b[nN]\s*=\s*(\d[\d,]*)\)?")
NAMES = {"acc": "accuracy", "ppv": "PPV", "npv": "NPV", "nir": "NIR", "prev": "prevalence", "kappa": "Kappa"}
STEPS = 2000  # the prevalence partition; even, so 0.5 is a cell edge (NIR = max(pi, 1 - pi) is monotone per cell)
_EPS = 1e-9

Formula = Callable[[float, float, float], float]


def _ppv(se: float, sp: float, pi: float) -> float:
    den = se * pi + (1 - sp) * (1 - pi)
    return se * pi / den if den > 0 else 1.0


def _npv(se: float, sp: float, pi: float) -> float:
    den = sp * (1 - pi) + (1 - se) * pi
    return sp * (1 - pi) / den if den > 0 else 1.0


def _kappa(se: float, sp: float, pi: float) -> float:
    observed = se * pi + sp * (1 - pi)
    predicted = se * pi + (1 - sp) * (1 - pi)
    chance = pi * predicted + (1 - pi) * (1 - predicted)
    return (observed - chance) / (1 - chance) if chance < 1 else 0.0


FORMULAS: dict[str, Formula] = {
    "acc": lambda se, sp, pi: se * pi + sp * (1 - pi),
    "ppv": _ppv,
    "npv": _npv,
    "nir": lambda se, sp, pi: max(pi, 1 - pi),
    "prev": lambda se, sp, pi: pi,
    "kappa": _kappa,
}
RELATIONS = {
    "acc": "Acc = Se*pi + Sp*(1-pi)",
    "ppv": "PPV = Se*pi / (Se*pi + (1-Sp)*(1-pi))",
    "npv": "NPV = Sp*(1-pi) / (Sp*(1-pi) + (1-Se)*pi)",
    "nir": "NIR = max(pi, 1-pi)",
    "prev": "prevalence = pi",
}
SUPPORT_ONLY = {"kappa"}


@dataclass(frozen=True)
class Cases:
    """How many cases the rates are of and, when the paper states the class sizes, how many are positive."""

    n: int
    positives: int | None = None
    stated: str = ""  # the words that state the class sizes


_POSITIVES = r"(?:N[_\s]?(?:pos(?:itives?)?|\+)|positives?)"
_NEGATIVES = r"(?:N[_\s]?(?:neg(?:atives?)?|[-−])|negatives?)"
_CLASS_SIZES = (
    re.compile(rf"{_POSITIVES}\s*[=:]\s*(?P<pos>\d[\d,]*)[^.;]{{0,40}}?{_NEGATIVES}\s*[=:]\s*(?P<neg>\d[\d,]*)", re.I),
    re.compile(
        r"(?P<pos>\d[\d,]*)\s+(?:positives?|positive (?:samples|cases)|cases)\b[^.;]{0,40}?\b(?P<neg>\d[\d,]*)\s+"
        r"(?:negatives?|negative (?:samples|cases)|controls)\b",
        re.I,
    ),
)


def check_rates(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        lines = named_lines(view, ROLES)
        stated = stated_cases(inp.statements_about(view.table))
        for group in _multi_class(lines):
            issues.extend(_judge_classes(view, group))
        for line in lines:
            issues.extend(_judge_line(view, line, stated))
    return issues


_OTHER_PREVALENCE = re.compile(
    r"prevalence (?:of|=)\s*\d|(?:assumed|expected|population|screening) prevalence"
    r"|adjusted (?:to|for) (?:a )?prevalence",
    re.I,
)


def stated_cases(sentences: list[str]) -> Cases | None:
    """The class sizes one sentence states ("N_pos = 96 and N_neg = 318", "96 cases and 318 controls"); None
    when no sentence does, two state different ones, or the predictive values are said to be at another
    prevalence than the sample's ("PPV at a prevalence of 10%")."""
    if any(_OTHER_PREVALENCE.search(s) for s in sentences):
        return None
    found = set()
    for sentence in sentences:
        for pattern in _CLASS_SIZES:
            for match in pattern.finditer(sentence):
                pos, neg = (int(match.group(k).replace(",", "")) for k in ("pos", "neg"))
                if pos and neg:
                    found.add(Cases(pos + neg, pos, match.group(0)))
    return found.pop() if len({(c.n, c.positives) for c in found}) == 1 else None


OVERALL = ("acc", "nir", "kappa", "prev", "n")


def _multi_class(lines: list[Line]) -> list[tuple[dict[str, Operand], list[Line]]]:
    """Several Se/Sp blocks of one model under one set of overall figures (accuracy, NIR): a multi-class table.
    Its overall figures are not any one class's binary rates, so they move out of the class lines (returned with
    them, for the multi-class relations). A sectioned table (one overall block above the class sections of each
    population) gives one group per section."""
    by_model: dict[tuple[str, int], list[Line]] = {}
    for line in lines:
        if any(r in line.operands for r in ("se", *OVERALL)):
            row, col = min(o.pos for o in line.operands.values())
            key = ("col", col) if line.where.startswith("column") else ("row", row)
            by_model.setdefault(key, []).append(line)
    groups = []
    for model_lines in by_model.values():
        for overall, classes in _sections(model_lines):
            if len(classes) > 1 and overall:
                for line in classes:
                    line.operands = {r: o for r, o in line.operands.items() if r not in OVERALL}
                groups.append((overall, classes))
    return groups


CLASS_RATES = ("se", "sp", "ppv", "npv")


def _sections(lines: list[Line]) -> list[tuple[dict[str, Operand], list[Line]]]:
    """One model's lines, in print order, cut into (overall figures, class lines) sections. Overall figures
    printed after a class's rates (in its block, as the layout reads it) open the next section; a class line with
    overall figures of its own printed above its rates opens one too (then it is a binary line, alone)."""
    sections: list[tuple[dict[str, Operand], list[Line]]] = []
    for line in sorted(lines, key=lambda ln: min(o.pos for o in ln.operands.values())):
        ops = line.operands
        if "se" not in ops:
            if not sections or sections[-1][1]:
                sections.append(({}, []))
            sections[-1][0].update({r: o for r, o in ops.items() if r in OVERALL})
            continue
        last_rate = max(ops[r].pos for r in CLASS_RATES if r in ops)
        lead = {r: o for r, o in ops.items() if r in OVERALL and o.pos <= last_rate}
        trail = {r: o for r, o in ops.items() if r in OVERALL and o.pos > last_rate}
        if not sections or (lead and sections[-1][1]):
            sections.append(({}, []))
        sections[-1][0].update(lead)
        sections[-1][1].append(line)
        if trail:
            sections.append((trail, []))
    return sections


def _judge_classes(view: TableView, group: tuple[dict[str, Operand], list[Line]]) -> list[Issue]:
    overall, classes = group
    scale = _scale(
        [o for line in classes for r, o in line.operands.items()] + [o for r, o in overall.items() if r != "n"]
    )
    if scale is None or any("se" not in line.operands or "sp" not in line.operands for line in classes):
        return []
    hulls: list[Interval | None] = []
    loose = False
    for line in classes:
        ops = line.operands
        se, sp = (_unit(ops[r], scale) for r in ("se", "sp"))
        masks = [_feasible(r, se, sp, _unit(ops[r], scale)) for r in ("ppv", "npv", "prev") if r in ops]
        cells = [i for i in range(STEPS) if masks and all(m[i] for m in masks)]
        if not cells and masks:  # the class's own rates share no prevalence: the one each allows, taken together
            cells, loose = [i for i in range(STEPS) if any(m[i] for m in masks)], True
        hulls.append(Interval(Fraction(cells[0], STEPS), Fraction(cells[-1] + 1, STEPS)) if cells else None)
    return multiclass.check_classes(view, classes, overall, hulls, scale, loose)


def _judge_line(view: TableView, line: Line, stated: Cases | None = None) -> list[Issue]:
    ops = line.operands
    if all(r in ops for r in COUNTS):
        return _from_counts(view, line)
    if "se" not in ops or "sp" not in ops:
        return []
    scale = _scale([o for r, o in ops.items() if r != "n"])
    if scale is None:
        return []
    se, sp = (_unit(ops[r], scale) for r in ("se", "sp"))
    issues = _balanced(view, line, scale)
    roles = [r for r in FORMULAS if r in ops]
    size = _size(view, line)
    cases = stated if stated is not None and size in (None, stated.n) else Cases(size) if size else None
    if cases is not None and len(roles) >= 2:
        return issues + _integer_verdict(view, line, scale, roles, cases)
    if len(roles) < 3:
        return issues
    masks = {orient: {r: _feasible(r, se, sp, _unit(ops[_swap(r, orient)], scale)) for r in roles} for orient in (0, 1)}
    if any(_all_meet(m.values()) for m in masks.values()):
        return issues
    culprits = {orient: _culprits(m) for orient, m in masks.items()}
    found = culprits[0] if len(culprits[0]) == 1 and (not culprits[1] or culprits[1] == culprits[0]) else []
    if len(found) != 1:
        return issues
    role = found[0]
    others = [r for r in roles if r != role]
    shared = [all(masks[0][r][i] for r in others) for i in range(STEPS)]
    computed = _range(role, se, sp, shared, scale)
    subject = ops[role]
    support = ", ".join(f"{NAMES.get(r, r)} {ops[r].number.text}" for r in others)
    issue = relation_issue(
        view,
        message=(
            f"{NAMES[role]} {subject.number.text} ({line.where}) does not follow from sensitivity "
            f"{ops['se'].number.text} and specificity {ops['sp'].number.text} at the prevalence that {support} "
            f"share: they imply {NAMES[role]} in {computed.describe(3)}"
        ),
        relation=RELATIONS[role],
        operands=[subject, ops["se"], ops["sp"], *(ops[r] for r in others)],
        computed=computed,
        why=(
            "the row labels name the diagnostic rates of one classifier on one population; no prevalence "
            f"fits all of them, while {len(others)} of them share one; PPV/NPV swapped fails too"
        ),
        certainty="exact",
        subject=subject,
    )
    return [*issues, issue]


def _size(view: TableView, line: Line) -> int | None:
    """The number of cases the rates are of: an "N" line of the block, or "(n = ...)" in the line's labels."""
    number = line.operands.get("n")
    if number is not None and not number.number.decimals and number.number.value > 1:
        return int(number.number.value)
    row, col = line.operands["se"].pos
    for label in (view.col_label(col), view.row_labels.get(row, "")):
        match = _SIZE.search(label)
        if match:
            return int(match.group(1).replace(",", ""))
    return None


def _integer_verdict(view: TableView, line: Line, scale: Fraction, roles: list[str], cases: Cases) -> list[Issue]:
    """With N printed (or the class sizes stated): is there a confusion matrix of N whole cases giving every rate?
    If not, and leaving out exactly one rate makes one exist (at least two others remaining), that rate is
    flagged."""
    ops = line.operands
    size, positives = cases.n, cases.positives
    for orient in (0, 1):
        printed = {r: _unit(ops[_swap(r, orient)], scale) for r in ("se", "sp", *roles)}
        flipped = positives if positives is None or not orient else size - positives
        if matrix.matrices(size, printed, limit=1, positives=flipped):
            return []
    printed = {r: _unit(ops[r], scale) for r in ("se", "sp", *roles)}
    found = {
        r: matrix.matrices(size, {k: v for k, v in printed.items() if k != r}, positives=positives)
        for r in roles
        if len(roles) >= 3 or positives is not None
    }
    culprits = [r for r, ms in found.items() if ms]
    if len(culprits) != 1:
        return []
    role = culprits[0]
    values = [v for m in found[role] if (v := matrix.RATES[role](m)) is not None]
    computed = Interval(Fraction(min(values)), Fraction(max(values))).scaled(scale)
    subject = ops[role]
    others = [r for r in roles if r != role]
    return [
        relation_issue(
            view,
            message=(
                f"{NAMES[role]} {subject.number.text} ({line.where}): no confusion matrix of {size} cases"
                f"{_positives(cases)} gives it "
                f"together with sensitivity {ops['se'].number.text}, specificity {ops['sp'].number.text} and "
                f"{', '.join(f'{NAMES.get(r, r)} {ops[r].number.text}' for r in others)}; the matrices that give "
                f"those imply {NAMES[role]} in {computed.describe(3)}"
            ),
            relation=f"an integer confusion matrix of N = {size} cases{_positives(cases)} gives every rate",
            operands=[subject, ops["se"], ops["sp"], *(ops[r] for r in others)],
            computed=computed,
            why=(
                f"the labels name the diagnostic rates of one classifier on {size} cases; no whole-number matrix "
                "reproduces all of them (PPV/NPV swapped neither), while one does without this rate"
            ),
            certainty="exact",
            subject=subject,
        )
    ]


def _from_counts(view: TableView, line: Line) -> list[Issue]:
    """The confusion counts are printed beside the rates (TP, FN, FP, TN columns): every rate is exact."""
    ops = line.operands
    counts = [ops[r].number for r in COUNTS]
    if any(c.decimals or c.percent or c.value < 0 for c in counts):
        return []
    tp, fn, fp, tn = (int(c.value) for c in counts)
    rates = [r for r in matrix.RATES if r in ops and r != "kappa"]
    scale = _scale([ops[r] for r in rates]) if rates else None
    if scale is None:
        return []
    issues = []
    for role in rates:
        value = matrix.RATES[role]((tp, fn, fp, tn))
        if value is None or _unit(ops[role], scale).overlaps(Interval(Fraction(value), Fraction(value))):
            continue
        exact = Interval(Fraction(value), Fraction(value)).scaled(scale)
        name = "balanced accuracy" if role == "bacc" else {"se": "sensitivity", "sp": "specificity"}.get(
            role, NAMES.get(role, role))  # fmt: skip
        issues.append(
            relation_issue(
                view,
                message=(
                    f"{name} {ops[role].number.text} ({line.where}) is not what its confusion counts give "
                    f"(TP {tp}, FN {fn}, FP {fp}, TN {tn}): {exact.describe(4)}"
                ),
                relation=COUNT_RELATIONS[role],
                operands=[ops[role], *(ops[r] for r in COUNTS)],
                computed=exact,
                why="the line prints the confusion counts the rate is computed from",
                certainty="exact",
                subject=ops[role],
            )
        )
    return issues


COUNT_RELATIONS = {
    "se": "Se = TP / (TP + FN)",
    "sp": "Sp = TN / (TN + FP)",
    "ppv": "PPV = TP / (TP + FP)",
    "npv": "NPV = TN / (TN + FN)",
    "acc": "Acc = (TP + TN) / N",
    "nir": "NIR = max(TP + FN, FP + TN) / N",
    "prev": "prevalence = (TP + FN) / N",
    "bacc": "BA = (TP / (TP + FN) + TN / (TN + FP)) / 2",
}


def _positives(cases: Cases) -> str:
    return f' ({cases.positives} positive, as stated: "{cases.stated}")' if cases.positives is not None else ""


def _balanced(view: TableView, line: Line, scale: Fraction) -> list[Issue]:
    ops = line.operands
    if "bacc" not in ops:
        return []
    se, sp = (_unit(ops[r], scale) for r in ("se", "sp"))
    computed = Interval(Fraction(se.lo + sp.lo) / 2, Fraction(se.hi + sp.hi) / 2)
    printed = _unit(ops["bacc"], scale)
    if computed.overlaps(printed):
        return []
    shown = computed.scaled(scale)
    return [
        relation_issue(
            view,
            message=(
                f"balanced accuracy {ops['bacc'].number.text} ({line.where}) is not (Se + Sp) / 2 = "
                f"{shown.describe(4)} from sensitivity {ops['se'].number.text} and specificity {ops['sp'].number.text}"
            ),
            relation="BA = (Se + Sp) / 2",
            operands=[ops["bacc"], ops["se"], ops["sp"]],
            computed=shown,
            why="balanced accuracy is defined as the mean of sensitivity and specificity",
            certainty="exact",
            subject=ops["bacc"],
        )
    ]


def _swap(role: str, orientation: int) -> str:
    return {"ppv": "npv", "npv": "ppv"}.get(role, role) if orientation else role


def _scale(ops: list[Operand]) -> Fraction | None:
    """1 when every rate is printed as a fraction, 100 when every one is a percentage; None when mixed."""
    values = [o.number.value for o in ops if o.role != "kappa"]
    if all(0 <= v <= 1 for v in values) and not any(o.number.percent for o in ops):
        return Fraction(1)
    if all(0 <= v <= 100 for v in values) and any(v > 1 or o.number.percent for v, o in zip(values, ops, strict=False)):
        return Fraction(100)
    return None


def _unit(op: Operand, scale: Fraction) -> Interval:
    interval = op.number.interval
    if op.role == "kappa" and abs(op.number.value) <= 1:
        return interval
    return interval.scaled(1 / scale)


def _feasible(role: str, se: Interval, sp: Interval, printed: Interval) -> list[bool]:
    lo, hi = float(printed.lo) - _EPS, float(printed.hi) + _EPS
    mask = []
    for i in range(STEPS):
        a, b = Fraction(i, STEPS), Fraction(i + 1, STEPS)
        cell = _cell_range(role, se, sp, Interval(a, b))
        mask.append(cell[0] <= hi and cell[1] >= lo)
    return mask


def _cell_range(role: str, se: Interval, sp: Interval, pi: Interval) -> tuple[float, float]:
    fn = FORMULAS[role]
    box = [(float(se.lo), float(se.hi)), (float(sp.lo), float(sp.hi)), (float(pi.lo), float(pi.hi))]
    if role == "kappa":  # not monotone in pi: sample the cell too, and widen
        box[2] = (float(pi.lo), (float(pi.lo) + float(pi.hi)) / 2, float(pi.hi))  # type: ignore[assignment]
    values = [fn(a, b, c) for a in box[0] for b in box[1] for c in box[2]]
    slack = 2e-3 if role == "kappa" else 0.0
    return min(values) - slack, max(values) + slack


def _all_meet(masks: object) -> bool:
    columns = list(masks)  # type: ignore[call-overload]
    return any(all(m[i] for m in columns) for i in range(STEPS))


def _culprits(masks: dict[str, list[bool]]) -> list[str]:
    """Quantities whose removal leaves a shared prevalence that at least two other flaggable ones pin."""
    found = []
    for role in masks:
        if role in SUPPORT_ONLY:
            continue
        others = {r: m for r, m in masks.items() if r != role}
        if len([r for r in others if r not in SUPPORT_ONLY]) >= 2 and _all_meet(others.values()):
            found.append(role)
    return found


def _range(role: str, se: Interval, sp: Interval, cells: list[bool], scale: Fraction) -> Interval:
    fn = FORMULAS[role]
    lows, highs = [], []
    for i, keep in enumerate(cells):
        if keep:
            image = monotone_image(
                lambda a, b, c: Fraction(fn(float(a), float(b), float(c))),
                se,
                sp,
                Interval(Fraction(i, STEPS), Fraction(i + 1, STEPS)),
            )
            lows.append(image.lo)
            highs.append(image.hi)
    return Interval(min(lows), max(highs)).scaled(scale)
