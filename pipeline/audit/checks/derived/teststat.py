"""derived-teststat: a p-value against the test statistic and degrees of freedom printed with it (statcheck's core).

Only a named test is recomputed: a cell reporting "t(28) = 2.20, p = .036" (t, F, z, χ²), or a row whose
columns are named by the statistic (t, F, z, χ²), "df" and "p". The statistic's interval maps onto a p-value
interval (p falls as the statistic grows). t and z are tried two- and one-sided; a column of rows is held to
the variant every other row fits, so only a row that fits no variant the others use is flagged (a warning);
a single full report that fits neither variant is an error. "p < .001" is an upper bound. Two-group
comparison tables (counts or mean ± SD under "(n = ...)" headers) are recomputed too (``twogroup``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from pipeline.audit.checks.base import Issue, scipy_stats
from pipeline.audit.checks.derived import twogroup
from pipeline.audit.checks.derived.evidence import Operand, has_token, relation_issue
from pipeline.audit.context import AuditInput
from pipeline.audit.interval import Interval, PrintedNumber, parse_printed
from pipeline.audit.tableview import TableView

_NUM = r"-?\d*\.?\d+(?:[eE]-?\d+)?"
_STAT = r"(?P<test>t|F|z|Z|χ2|χ²|chi2|X2)"
_REPORT = re.compile(
    rf"{_STAT}\s*(?:\(\s*(?P<df1>\d+(?:\.\d+)?)\s*(?:,\s*(?P<df2>\d+(?:\.\d+)?))?\s*\))?\s*=\s*(?P<stat>{_NUM})\s*[,;]\s*"
    rf"p\s*(?P<rel>[<=>≤])\s*(?P<p>{_NUM})"
)
_STAT_TOKEN = {
    "t": re.compile(r"t|t-?value|t-?stat(?:istic)?", re.I),
    "F": re.compile(r"F|F-?value|F-?stat(?:istic)?"),
    "z": re.compile(r"z|z-?value|z-?score", re.I),
    "chi2": re.compile(r"χ2|χ²|chi2|chi-?square|x2", re.I),
}
_DF = re.compile(r"df|d\.f\.", re.I)
_P = re.compile(r"p|p-?value|p\s?value", re.I)
MIN_FITS = 3


@dataclass(frozen=True)
class Report:
    test: str
    stat: Operand
    df: tuple[float, ...]
    p: Operand
    relation: str  # "=", "<", ">"
    df_alternatives: tuple[tuple[float, ...], ...] = ()  # other df the table allows (unknown covariates)


PFunction = Callable[[float, tuple[float, ...]], float]
VARIANTS: dict[str, dict[str, PFunction]] = {
    "t": {
        "two-sided": lambda s, df: 2 * scipy_stats().t.sf(abs(s), df[0]),
        "one-sided": lambda s, df: scipy_stats().t.sf(abs(s), df[0]),
    },
    "z": {
        "two-sided": lambda s, df: 2 * scipy_stats().norm.sf(abs(s)),
        "one-sided": lambda s, df: scipy_stats().norm.sf(abs(s)),
    },
    "F": {"upper tail": lambda s, df: scipy_stats().f.sf(s, df[0], df[1])},
    "chi2": {"upper tail": lambda s, df: scipy_stats().chi2.sf(s, df[0])},
}


def check_test_statistics(inp: AuditInput) -> list[Issue]:
    issues: list[Issue] = []
    for view in inp.views:
        issues.extend(_inline(view))
        issues.extend(_columns(view))
    return issues + _two_group(inp)


def _two_group(inp: AuditInput) -> list[Issue]:
    """Per kind (counts, means) and mark, the test variant every comparison but one fits; that one is flagged."""
    said = " ".join([*(s.text for s in inp.text.sentences), *(v.table.caption for v in inp.views)]) if inp.text else ""
    groups: dict[tuple[str, str], list[tuple[TableView, twogroup.Comparison, tuple[int, int]]]] = {}
    for view in inp.views:
        sizes = tuple(n for _, n in twogroup.group_columns(view)) or (0, 0)
        for comparison in twogroup.comparisons(view):
            if twogroup.NAMED[comparison.kind].search(said):
                groups.setdefault((comparison.kind, comparison.mark), []).append((view, comparison, sizes))  # type: ignore[arg-type]
    issues = []
    for (kind, mark), members in groups.items():
        verdicts = {
            v: [twogroup.fits(view, c, sizes, v) for view, c, sizes in members] for v in twogroup.VARIANTS[kind]
        }
        held = [v for v, fit in verdicts.items() if fit.count(False) == 1 and fit.count(True) >= twogroup.MIN_OTHERS]
        misfits = {next(i for i, ok in enumerate(verdicts[v]) if ok is False) for v in held}
        if len(misfits) != 1:
            continue
        index = misfits.pop()
        if any(verdicts[v][index] for v in held):
            continue
        view, comparison, sizes = members[index]
        issues.append(_two_group_issue(view, comparison, sizes, held, len(members), mark))
    return issues


def _two_group_issue(
    view: TableView, comparison: twogroup.Comparison, sizes: tuple[int, int], held: list[str], n: int, mark: str
) -> Issue:
    computed = [c for v in held if (c := twogroup.p_interval(view, comparison, sizes, v)) is not None]
    shown = Interval(min(c.lo for c in computed), max(c.hi for c in computed))
    what = "the counts" if comparison.kind == "counts" else "the means and SDs"
    test = "chi-squared / Fisher" if comparison.kind == "counts" else "t-test"
    return relation_issue(
        view,
        message=(
            f"p {comparison.relation} {comparison.p.number.text} ('{comparison.label}') does not follow from "
            f"{what} of the two groups (n = {', '.join(map(str, comparison.sizes or sizes))}): the "
            f"{' or '.join(held)} p-value is "
            f"{shown.describe(3)}, the variant the other {n - 1} comparisons{f' marked {mark}' if mark else ''} fit"
        ),
        relation=f"p = {test} p-value ({', '.join(held)}) of the two groups",
        operands=[comparison.p, *comparison.cells],
        computed=shown,
        why=(
            f"the text names the {test}; the headers give the group sizes; {n - 1} of {n} comparisons of this "
            f"kind{f' (mark {mark})' if mark else ''} fit the {' / '.join(held)} p-value"
        ),
        certainty="majority",
        subject=comparison.p,
    )


def p_interval(report: Report, variant: str) -> Interval | None:
    """The p-values the statistic's printed interval allows, over every df the table allows."""
    fn = VARIANTS[report.test][variant]
    ends: list[float] = []
    for df in (report.df, *report.df_alternatives):
        if (report.test == "F" and len(df) < 2) or (report.test in ("t", "chi2") and not df):
            return None
        lo_stat, hi_stat = report.stat.number.interval.lo, report.stat.number.interval.hi
        if report.test in ("t", "z") and lo_stat < 0 < hi_stat:
            ends += [float(fn(0.0, df)), float(fn(float(max(-lo_stat, hi_stat)), df))]
        else:
            ends += [float(fn(float(max(lo_stat, Fraction(0))), df)), float(fn(float(hi_stat), df))]
    return Interval(Fraction(min(ends)) - Fraction(1, 10**12), Fraction(max(ends)) + Fraction(1, 10**12))


def fits(report: Report, variant: str) -> bool:
    computed = p_interval(report, variant)
    return computed is None or twogroup.p_agrees(computed, report.p.number.interval, report.relation)


def _test(name: str) -> str:
    return {"Z": "z", "χ2": "chi2", "χ²": "chi2", "X2": "chi2"}.get(name, name)


def _inline(view: TableView) -> list[Issue]:
    issues = []
    for cell in view.table.cells:
        match = _REPORT.search(cell.text.replace("−", "-"))
        if not match:
            continue
        stat, p = parse_printed(match.group("stat")), parse_printed(match.group("p"))
        if stat is None or p is None:
            continue
        df = tuple(float(match.group(g)) for g in ("df1", "df2") if match.group(g))
        pos = (cell.row, cell.col)
        report = Report(_test(match.group("test")), Operand("statistic", pos, stat), df, Operand("p", pos, p),
                        match.group("rel"))  # fmt: skip
        if not any(fits(report, v) for v in VARIANTS[report.test]):
            issues.append(_issue(view, report, "exact", "the cell names the test and prints statistic, df and p"))
    return issues


def _columns(view: TableView) -> list[Issue]:
    """Statistic columns (t, F, z, χ²) each paired with the p column right of it; df from a df column, or, for a
    two-group comparison ("A vs. B (n = 175)"), from n: t(n - 2), F(1, n - 2), allowing up to 10 covariates."""
    words = {c: _column_words(view, c) for c in range(view.table.stub_cols, view.table.n_cols)}
    leaves = {c: w[-1] if w else "" for c, w in words.items()}
    df_cols = [c for c in leaves if _DF.fullmatch(leaves[c].strip())]
    reports = []
    for col, leaf in leaves.items():
        test = next((t for t, pat in _STAT_TOKEN.items() if len(leaf) <= 12 and has_token(leaf, pat)), None)
        p_col = next((c for c in leaves if c > col and c not in df_cols), -1)  # the p column after it (and its df)
        if test is None or p_col not in leaves or not _P.fullmatch(leaves[p_col].strip()):
            continue
        sizes = [int(m.group(1).replace(",", "")) for w in words[col] if (m := _GROUP_N.search(w))]
        two_groups = any(_VERSUS.search(w) for w in words[col])
        for row in _data_rows(view):
            stat = view.numbers.get((row, col))
            p_text = view.text(row, p_col).strip().replace("−", "-")
            relation = p_text[0] if p_text[:1] in ("<", ">", "≤") else "="
            p = printed_p(p_text.lstrip("<>≤= "))
            if stat is None or p is None:
                continue
            df = tuple(float(n.value) for c in df_cols if (n := view.numbers.get((row, c))) is not None)
            alternatives: tuple[tuple[float, ...], ...] = ()
            if not df and sizes and two_groups and test in ("t", "F"):
                residual = [float(max(sizes[0] - 2 - k, 1)) for k in range(11)]
                options = [(r,) if test == "t" else (1.0, r) for r in residual]
                df, alternatives = options[0], tuple(options[1:])
            reports.append(Report(test, Operand("statistic", (row, col), stat), df, Operand("p", (row, p_col), p),
                                  relation, alternatives))  # fmt: skip
    if len(reports) < MIN_FITS + 1:
        return []
    for variant in VARIANTS[reports[0].test]:
        if any(r.test != reports[0].test for r in reports):
            return []
        misfits = [r for r in reports if not fits(r, variant)]
        if len(misfits) == 1:
            why = (f"the headers name the statistic and p; {len(reports) - 1} of {len(reports)} pairs fit the "
                   f"{variant} p-value" + ("; df from the group size in the header" if misfits[0].df_alternatives
                                          else ""))  # fmt: skip
            return [_issue(view, misfits[0], "majority", why, variant)]
        if not misfits:
            return []
    return []


_GROUP_N = re.compile(r"\(?\b[nN]\s*=\s*(\d[\d,]*)\)?")
_VERSUS = re.compile(r"\bvs\.?(?!\w)|\bversus\b", re.I)
_SCIENTIFIC = re.compile(r"^(?P<a>\d*\.?\d+)\s*[×x]\s*10\s*[-−–]\s*(?P<b>\d+)$")


def printed_p(text: str) -> PrintedNumber | None:
    """A printed p-value, "3.4 × 10-5" included (the interval of its mantissa's last digit, scaled)."""
    match = _SCIENTIFIC.match(text.strip())
    if not match:
        return parse_printed(text)
    mantissa = parse_printed(match.group("a"))
    if mantissa is None:
        return None
    scale = Fraction(1, 10 ** int(match.group("b")))
    return PrintedNumber(text.strip(), mantissa.value * scale, mantissa.half_unit * scale)


def _data_rows(view: TableView) -> list[int]:
    return [r for r in range(view.table.header_rows, view.table.n_rows) if r in view.body_rows]


def _column_words(view: TableView, col: int) -> list[str]:
    """The header path of a column plus the word rows above the first row of numbers (headers the extractor
    left in the body: "(n = 175)", "F-value")."""
    first = min(view.body_rows, default=view.table.n_rows)
    texts = list(view.col_paths.get(col, []))
    for row in range(view.table.header_rows, first):
        text = view.text(row, col).strip()
        if text and (not texts or texts[-1] != text):
            texts.append(text)
    return texts


def _issue(view: TableView, report: Report, certainty: str, why: str, variant: str | None = None) -> Issue:
    variants = [variant] if variant else list(VARIANTS[report.test])
    computed = [c for v in variants if (c := p_interval(report, v)) is not None]
    shown = Interval(min(c.lo for c in computed), max(c.hi for c in computed))
    df = ", ".join(f"{d:g}" for d in report.df)
    if report.df_alternatives:  # df from a group size: the residual df less up to ten covariates
        df = ", ".join([*(f"{d:g}" for d in report.df[:-1]), f"{report.df_alternatives[-1][-1]:g}-{report.df[-1]:g}"])
    return relation_issue(
        view,
        message=(
            f"p {report.relation} {report.p.number.text} does not follow from {report.test}"
            f"{f'({df})' if df else ''} = {report.stat.number.text}: the {' or '.join(variants)} p-value is "
            f"{shown.describe(4)}"
        ),
        relation=f"p = P({report.test} >= statistic) ({', '.join(variants)})",
        operands=[report.p, report.stat],
        computed=shown,
        why=why,
        certainty=certainty,
        subject=report.p,
    )
