"""Seeded-error benchmark for the audit checks (a validity study, like statcheck's).

Clean tables (generated GenBench-style tables with consistent text, and the real gold tables of
../shared/corpus/gold with their papers' text) are audited as they are, then with one error seeded at a
time: a broken mean, a moved bold, an error-bar claim, a wrong model count, a value out of range, an
undefined metric, a duplicated row, a contradicting citation, a dataset presented as new, a sentence
misquoting a cell. Per check it prints precision and recall, and the false alarms (error or warning
findings) on the untouched tables and on realistic negatives: clean tables laid out as real papers lay them
out (bold scoped by the caption or by rules, settings rows, "a/b" parts of an average, complementary vote
shares, ties, emphasis rows), where a naive check would raise one.

A finding detects a seeded error when it is an error or warning of that check on the seeded table (and
row, where the seed has one). Precision counts, per check, the findings of that check in the runs that
seeded it plus those on the clean tables; side effects on other checks (a pushed value may also break a
mean) are not counted against them. Targets: precision >= 0.95 and recall >= 0.90 per check, at most one
false alarm per 20 clean real tables.

    python benchmarks/bench_audit.py [--shared ../shared] [--papers 40] [--seeds 3] [--json]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

from pipeline.audit.checks import CHECKS, run_checks
from pipeline.audit.checks.aggregates import evaluate, labelled_aggregates
from pipeline.audit.checks.captions import COUNT_CLAIM
from pipeline.audit.checks.contradiction import OPPOSITIONS, sides
from pipeline.audit.checks.uncertainty import claim_sentences, prints_uncertainty
from pipeline.audit.context import AuditInput, locator_position
from pipeline.audit.labels import aggregate_kind
from pipeline.audit.metrics import cell_metric
from pipeline.audit.tableview import TableView, view_table
from pipeline.audit.text import PaperText, Sentence, paper_text_from_string, read_paper_text, table_key
from pipeline.catalogue import Catalogue, load_catalogue
from pipeline.model import Finding, Table
from pipeline.numbers import parse_number

ROOT = Path(__file__).resolve().parents[1]
# How bold marks the best value in each real gold table (read off the printed tables).
GOLD_BOLD_AXIS = {"Table 4": "col", "Table S1": "row", "Table 2": "row", "Table 3": "col", "Table 1": "row"}
WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
MODELS = ("NT", "DNABERT2", "HyenaDNA", "GENA-LM", "Caduceus")
CLAIMS = ("Error bars: yes.", "Error bars show the standard deviation over five seeds.",
          "We report standard deviations over three independent runs.",
          "Did you report error bars (e.g., with respect to the random seed)? [Yes]",
          "Confidence intervals are given in parentheses.")  # fmt: skip


@dataclass
class Case:
    """One table of one paper, as a grid, with the paper's text: what a seed mutates."""

    paper: str
    label: str
    grid: list[list[str | None]]
    header_rows: int
    stub_cols: int
    caption: str
    text: PaperText
    bold: set[tuple[int, int]] = field(default_factory=set)
    spans: list[dict[str, int]] = field(default_factory=list)
    real: bool = False

    def table(self) -> Table:
        return Table.from_grid(self.grid, header_rows=self.header_rows, stub_cols=self.stub_cols, bold=self.bold,
                               spans=self.spans, label=self.label, caption=self.caption)  # fmt: skip

    def view(self) -> TableView:
        return view_table(self.table())

    def audit(self, catalogue: Catalogue) -> list[Finding]:
        inp = AuditInput(self.paper, "0" * 64, [self.table()], text=self.text, catalogue=catalogue)
        return [f for f in run_checks(inp).findings if f.severity in ("error", "warning")]


@dataclass(frozen=True)
class Seed:
    check: str
    rows: tuple[int, ...] = ()  # rows the seeded error sits in (empty: the table or the paper as a whole)


# ---- clean generated tables -------------------------------------------------------------------------------

# GenBench datasets the catalogue knows from no other benchmark: clean to report as GenBench's
_TASKS = ("Long-range Promoters Prediction", "Long-range Species Classification", "Bulk RNA expression",
          "Genomic structure prediction (H1-ESC)", "Genomic structure prediction (HFF)",
          "Long-range splice site prediction (Splice acceptor)")  # fmt: skip
# name as printed, higher is better, typical range
_METRICS = (
    ("Accuracy", True, 0.55, 0.95),
    ("AUROC", True, 0.7, 0.98),
    ("MCC", True, 0.2, 0.8),
    ("MSE", False, 0.1, 0.9),
)


def generated_case(rng: random.Random, paper: str, label: str) -> Case:
    """A clean GenBench-style table: models in columns (bold best per row, a Mean row) or in rows (bold best
    per column, an Avg. column); fractions or percentages; with or without ± spreads; text that agrees."""
    side = rng.choice(("long-range", "short-range"))
    metric, higher, lo, hi = rng.choice(_METRICS)
    models = rng.sample(MODELS, rng.randint(3, 5))
    tasks = rng.sample(_TASKS, rng.randint(3, len(_TASKS)))
    percent = metric == "Accuracy" and rng.random() < 0.4
    scale, digits = (100, rng.choice((1, 2))) if percent else (1, rng.choice((2, 3)))
    spread = rng.random() < 0.3
    values = [[round(rng.uniform(lo, hi) * scale, digits) for _ in models] for _ in tasks]  # [task][model]
    pick = max if higher else min

    def printed(v: float) -> str:
        return f"{v:.{digits}f}" + (f" ± {rng.uniform(0.1, 2.0) * scale / 100:.{digits}f}" if spread else "")

    by_rows = rng.random() < 0.5  # models in rows
    lines = [[values[t][m] for t in range(len(tasks))] for m in range(len(models))] if by_rows else values
    names, heads = (models, tasks) if by_rows else (tasks, models)
    grid: list[list[str | None]] = [["Model" if by_rows else "Task", *heads]]
    grid += [[name, *(printed(v) for v in line)] for name, line in zip(names, lines, strict=True)]
    bold = set()
    for t in range(len(tasks)):
        scores = [values[t][m] for m in range(len(models))]
        if scores.count(pick(scores)) == 1:
            m = scores.index(pick(scores))
            bold.add((m + 1, t + 1) if by_rows else (t + 1, m + 1))
    if rng.random() < 0.6 and not spread:
        if by_rows:
            grid[0].append("Avg.")
            for m, row in enumerate(grid[1:]):
                row.append(f"{sum(lines[m]) / len(lines[m]):.{digits}f}")
        else:
            grid.append(
                ["Mean", *(f"{sum(v[m] for v in values) / len(values):.{digits}f}" for m in range(len(models)))]
            )
    split = rng.choice(("test set", "validation set"))
    unit = " (%)" if percent else ""
    caption = f"{metric}{unit} of the {WORDS[len(models)]} models on the {side} tasks ({split}). Best values in bold."
    extra = " Standard deviations over five seeds follow the ± sign." if spread else ""
    t, m = rng.randrange(len(tasks)), rng.randrange(len(models))
    quote = f" {models[m]} reaches {values[t][m]:.{digits}f}{'%' if percent else ''} on {tasks[t]}."
    text = paper_text_from_string(
        f"{label} reports {metric} on the {side} tasks, measured on the {split}.{extra} "
        f"All models were fine-tuned with the same recipe. The strongest model differs between tasks.{quote}"
    )
    return Case(paper, label, grid, 1, 1, caption, text, bold)


# ---- clean real tables ------------------------------------------------------------------------------------


def gold_cases(shared: Path) -> list[Case]:
    cases, texts = [], {}
    for path in sorted((shared / "corpus" / "gold").glob("*.json")):
        gold = json.loads(path.read_text(encoding="utf-8"))
        pdf = shared / "corpus" / "papers" / gold["pdf"]
        if gold["pdf"] not in texts:
            texts[gold["pdf"]] = read_paper_text(pdf)
        text = texts[gold["pdf"]]
        caption = text.captions.get(table_key(gold["label"]) or "", gold["caption_start"])
        grid, bold, spans = [list(row) for row in gold["cells"]], {tuple(p) for p in gold["bold"]}, gold["spans"]
        shape = gold["header_rows"], gold["stub_cols"]
        cases.append(Case(gold["pdf"], gold["label"], grid, *shape, caption, text, bold, spans, real=True))
    return cases


# ---- seeds ------------------------------------------------------------------------------------------------


def _shift(text: str, units: int) -> str:
    """The printed number moved by ``units`` of its last digit, in the same format."""
    number = parse_number(text)
    assert number is not None
    new = number.value + 2 * number.half_unit * units
    shown = f"{float(new):,.{number.decimals}f}" if "," in text else f"{float(new):.{number.decimals}f}"
    return text.replace(number.text, shown, 1)


def seed_mean(case: Case, rng: random.Random, catalogue: Catalogue) -> tuple[Case, Seed] | None:
    view = case.view()
    cells = [v for a in labelled_aggregates(view) if a.clear for v in evaluate(view, a) if v.consistent]
    if not cells:
        return None
    verdict = rng.choice(cells)
    out = copy.deepcopy(case)
    out.grid[verdict.pos[0]][verdict.pos[1]] = _shift(
        case.grid[verdict.pos[0]][verdict.pos[1]] or "", rng.choice((-1, 1)) * rng.randint(4, 40)
    )
    return out, Seed("aggregate-row", (verdict.pos[0],))


def seed_bold(case: Case, rng: random.Random, catalogue: Catalogue) -> tuple[Case, Seed] | None:
    view = case.view()
    axis = GOLD_BOLD_AXIS.get(case.label, "row") if case.real else ("col" if case.grid[0][0] == "Model" else "row")
    moves = []
    for pos in sorted(case.bold & set(view.numbers)):
        same = [p for p in view.numbers if (p[0] == pos[0] if axis == "row" else p[1] == pos[1]) and p != pos]
        same = [p for p in same if view.col_groups.get(p[1]) == view.col_groups.get(pos[1]) or axis == "col"]
        same = [p for p in same if view.numbers[p].percent == view.numbers[pos].percent]
        values = [view.numbers[p].value for p in same]
        if len(same) < 2 or any(p in case.bold for p in same):
            continue
        best = view.numbers[pos].value
        worse = (
            [p for p in same if view.numbers[p].interval.below(view.numbers[pos].interval)]
            if best >= max(values)
            else [p for p in same if view.numbers[pos].interval.below(view.numbers[p].interval)]
        )
        moves += [(pos, target) for target in worse]
    if not moves:
        return None
    source, target = rng.choice(moves)
    out = copy.deepcopy(case)
    out.bold = (case.bold - {source}) | {target}
    return out, Seed("bold-not-best", (target[0],))


def seed_error_bars(case: Case, rng: random.Random, catalogue: Catalogue) -> tuple[Case, Seed] | None:
    clean = AuditInput(case.paper, "0" * 64, [case.table()], text=case.text)
    if prints_uncertainty(clean) or claim_sentences(case.text.sentences):
        return None
    out = replace(case, text=case.text.with_sentences([Sentence(1, rng.choice(CLAIMS))]))
    return out, Seed("error-bars-claimed")


def seed_count(case: Case, rng: random.Random, catalogue: Catalogue) -> tuple[Case, Seed] | None:
    view = case.view()
    match = COUNT_CLAIM.search(case.caption)
    wrong = len(view.value_cols) + rng.choice((1, 2, 3))
    if match:
        word = match.group("n")
        replacement = WORDS.get(wrong, str(wrong)) if not word.isdigit() else str(wrong)
        caption = case.caption[: match.start("n")] + replacement + case.caption[match.end("n") :]
    else:
        caption = f"{case.caption} We compare {wrong} models."
    if len({len(view.body_rows), len(view.value_cols)} & {wrong}):
        return None
    return replace(case, caption=caption), Seed("caption-column-count")


def seed_range(case: Case, rng: random.Random, catalogue: Catalogue) -> tuple[Case, Seed] | None:
    view = case.view()
    inp = AuditInput(case.paper, "0" * 64, [view.table], catalogue=catalogue)
    cells = []
    for pos, number in view.numbers.items():
        metric = cell_metric(inp, view, pos)
        if metric is not None and metric.metric is not None and metric.metric.range[1] is not None:
            cells.append((pos, number, metric.metric.range[1]))
    if not cells:
        return None
    pos, number, hi = rng.choice(cells)
    scale = 100 if abs(number.value) > 1.5 else 1
    value = Fraction(hi) * scale * Fraction(rng.choice((103, 107, 112, 135)), 100)
    out = copy.deepcopy(case)
    out.grid[pos[0]][pos[1]] = (case.grid[pos[0]][pos[1]] or "").replace(
        number.text, f"{float(value):.{max(number.decimals, 2)}f}", 1
    )
    return out, Seed("value-out-of-range", (pos[0],))


def seed_metric(case: Case, rng: random.Random, catalogue: Catalogue) -> tuple[Case, Seed] | None:
    view = case.view()
    term = rng.choice(("Top-1", "Top-5", "Top-3 score"))
    if any(re.search(r"top[- ]?\d", s.text, re.I) for s in case.text.sentences):
        return None
    out = copy.deepcopy(case)
    if case.header_rows and view.value_cols and rng.random() < 0.5:
        col = rng.choice(view.value_cols)
        row = case.header_rows - 1
        while out.grid[row][col] is None and row > 0:
            row -= 1
        out.grid[row][col] = term
        return out, Seed("undefined-metric")
    out.caption = f"{case.caption} Values are {term}."
    return out, Seed("undefined-metric")


def seed_duplicate(case: Case, rng: random.Random, catalogue: Catalogue) -> tuple[Case, Seed] | None:
    view = case.view()
    pairs = []
    rows = [r for r in view.body_rows if len(view.row_numbers(r)) >= 2]
    for a in rows:
        unique = [c for c, n in view.row_numbers(a).items() if _unique_in_column(view, a, c)]
        if len(unique) < min(3, len(view.value_cols)):
            continue  # rows sharing most values with others (hyper-parameters, counts) are not result rows
        for b in rows:
            if a != b and set(view.row_numbers(a)) == set(view.row_numbers(b)):
                pairs.append((a, b))
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    out = copy.deepcopy(case)
    for col in view.row_numbers(a):
        out.grid[b][col] = case.grid[a][col]
        out.bold.discard((b, col))
    return out, Seed("duplicate-values", (b,))


def _unique_in_column(view: TableView, row: int, col: int) -> bool:
    value = view.numbers[(row, col)].value
    return sum(n.value == value for (r, c), n in view.numbers.items() if c == col) == 1


def seed_contradiction(case: Case, rng: random.Random, catalogue: Catalogue) -> tuple[Case, Seed] | None:
    said = {axis: values for axis, values in sides(case.caption).items() if len(values) == 1}
    if not said:
        return None
    axis = rng.choice(sorted(said))
    other = next(s for s in OPPOSITIONS[axis] if s not in said[axis])
    phrase = {"test": "on the test set", "validation": "on the validation set"}.get(other, f"{other} results")
    sentence = Sentence(1, f"{case.label} reports {phrase} for every model.")
    return replace(case, text=case.text.with_sentences([sentence])), Seed("caption-text-contradiction")


def seed_dataset(case: Case, rng: random.Random, catalogue: Catalogue) -> tuple[Case, Seed] | None:
    view = case.view()
    covered = {(s["row"] + i, s["col"]) for s in case.spans for i in range(1, s.get("row_span", 1))}
    rows = [r for r in view.body_rows if case.stub_cols and case.grid[r][0] is not None and (r, 0) not in covered]
    if not rows:
        return None
    row = rng.choice(rows)
    span = next((s for s in case.spans if (s["row"], s["col"]) == (row, 0)), {"row_span": 1})
    name = rng.choice(("Human Enhancers Cohn", "Human Nontata Promoters", "Human OCR Ensembl"))
    out = copy.deepcopy(case)
    out.grid[row][0] = name
    claim = Sentence(1, f"We introduce a new dataset, {name}, which we collected for this study.")
    out.text = case.text.with_sentences([claim])
    return out, Seed("dataset-reused", tuple(range(row, row + span.get("row_span", 1))))


def seed_claim(case: Case, rng: random.Random, catalogue: Catalogue) -> tuple[Case, Seed] | None:
    """A sentence quoting one cell, by its row and column, with its last two digits transposed (or, for two
    significant digits, the last one slipped by a few units)."""
    view = case.view()
    labelled = [p for p in view.numbers if view.row_labels.get(p[0]) and view.leaf(p[1])]
    cells = [p for p in labelled if not aggregate_kind(view.row_labels[p[0]]) and not aggregate_kind(view.leaf(p[1]))]
    if case.real or not cells:
        return None
    pos = rng.choice(cells)
    number = view.numbers[pos]
    digits = re.sub(r"[^\d.]", "", number.text.split("±")[0])
    if len(digits.replace(".", "").lstrip("0")) >= 3 and digits[-1] != digits[-2] and digits[-2] != ".":
        shown = digits[:-2] + digits[-1] + digits[-2]  # two digits transposed: 0.652 for 0.625
    else:
        shown = _shift(digits, rng.choice((-1, 1)) * rng.randint(3, 6))  # a slip in the last digit
    shown += "%" if number.percent else ""
    sentence = Sentence(1, f"{view.row_labels[pos[0]]} reaches {shown} on {view.leaf(pos[1])} ({case.label}).")
    return replace(case, text=case.text.with_sentences([sentence])), Seed("text-claim-mismatch", (pos[0],))


SEEDERS = (seed_mean, seed_bold, seed_error_bars, seed_count, seed_range, seed_metric, seed_duplicate)
SEEDERS += (seed_contradiction, seed_dataset, seed_claim)


# ---- realistic negatives ----------------------------------------------------------------------------------


def negative_cases() -> list[Case]:
    """Clean tables laid out as real papers lay them out, where a naive check would raise a false alarm."""
    text = paper_text_from_string("Table 1 compares the methods. All runs use the same data.")

    def case(name: str, grid: list[list[str | None]], bold: set[tuple[int, int]], caption: str, **kw: int) -> Case:
        shape = kw.get("header_rows", 1), kw.get("stub_cols", 1)
        return Case(f"neg-{name}", "Table 1", grid, *shape, caption, text, bold)

    blank: list[str | None] = ["", "", "", ""]
    return [
        # bold scoped by the caption to a block below a rule; the baselines above score higher
        case("caption-scoped", [["Method", "MNLI", "SST2", "QNLI"], ["FT", "87.6", "94.8", "92.8"], blank,
             ["Prune", "84.0", "93.0", "90.1"], ["Ours", "86.4", "94.1", "91.7"]], {(4, 1), (4, 2), (4, 3)},
             "Accuracy under 60% sparsity. The best-pruned results are bold."),
        # two blocks set apart by a rule, each with its own best in bold
        case("rule-blocks", [["Method", "Sensitivity", "Specificity", "Time (s)"],
             ["A (g=6)", "0.7377", "0.6686", "224"], ["B", "0.6943", "0.6063", "62"], ["C", "0.6877", "0.5922", "8"],
             blank, ["A (g=0.75)", "0.5540", "0.7920", "224"], ["D", "0.4906", "0.7535", "22"]],
             {(1, 1), (1, 2), (3, 3), (5, 1), (5, 2), (6, 3)}, "Accuracies of the prediction methods."),
        # a settings row above the times, and a fully bold row of the paper's own method
        case("settings-row", [["Applications", "Hopper", "Walker", "Malware"],
             ["Num. of samples", "3e5", "3e5", "32349"], ["StateMask", "15393", "2240", "50775"],
             ["Ours", "12426", "1899", "41340"]],
             {(3, 1), (3, 2), (3, 3)}, "Seconds to train the mask network on a fixed number of samples."),
        # an average over parts some of which print two numbers ("a/b")
        case("a-b-parts", [["Model", "Avg", "BoolQ", "CB", "CoPA", "RTE"],
             ["X", "71.8", "76.4", "52.0/75.6", "92.0", "69.0"], ["Y", "90.4", "91.9", "94.4/96.0", "99.0", "95.9"]],
             set(), "Results on SuperGLUE."),
        # complementary vote shares in two columns
        case("vote-shares", [["Method", "Babies", "Sunglasses", "Paintings"], ["Baseline", "33.3%", "20.0%", "33.3%"],
             ["Ours", "66.7%", "80.0%", "66.7%"]], set(), "User study: share of votes."),
        # a tie within rounding, both bold
        case("tie", [["Model", "Task A", "Task B", "Task C"], ["NT", "0.613", "0.71", "0.58"],
             ["Ours", "0.613", "0.74", "0.61"], ["Base", "0.598", "0.70", "0.55"]],
             {(1, 1), (2, 1), (2, 2), (2, 3)}, "MCC; best values in bold."),
        # parameters next to scores, the paper's own row bold throughout (emphasis)
        case("emphasis-row", [["Method", "Params (M)", "Accuracy", "Params (M)", "Accuracy"],
             ["L2P", "0.123", "77.87", "0.200", "62.90"], ["CODA-P", "3.917", "86.11", "3.994", "70.02"],
             ["Ours", "0.645", "86.98", "0.617", "74.53"]], {(3, 1), (3, 2), (3, 3), (3, 4)},
             "Added parameters and accuracy; ours in bold."),
    ]  # fmt: skip


# ---- scoring ----------------------------------------------------------------------------------------------


def detects(finding: Finding, seed: Seed) -> bool:
    if finding.check != seed.check:
        return False
    if not seed.rows:
        return True
    rows = {p[1] for p in (locator_position(loc) for loc in finding.locators) if p}
    return bool(rows & set(seed.rows)) or not finding.locators


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    parser.add_argument("--papers", type=int, default=40, help="generated papers (two tables each)")
    parser.add_argument("--seeds", type=int, default=3, help="seeded errors per check per clean table")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--misses", action="store_true", help="print each seeded error that was not found")
    args = parser.parse_args()
    started = time.perf_counter()
    catalogue = load_catalogue(ROOT / "config")
    rng = random.Random(20240611)
    cases = [generated_case(rng, f"gen-{p}", f"Table {t}") for p in range(args.papers) for t in (1, 2)]
    negatives = negative_cases()
    real = gold_cases(args.shared) if (args.shared / "corpus" / "gold").is_dir() else []
    if not real:
        print(f"note: {args.shared}/corpus/gold not found; generated tables only", file=sys.stderr)
    tally = Tally()
    tp, fp, injected, detected, alarms = tally.tp, tally.fp, tally.injected, tally.detected, tally.alarms
    for case in [*cases, *real]:
        for finding in case.audit(catalogue):
            fp[finding.check] += 1
            alarms["real" if case.real else "generated"].append(f"{case.paper} {case.label}: {finding.message[:110]}")
        for seeder in SEEDERS:
            for _ in range(args.seeds):
                seeded = seeder(case, rng, catalogue)
                if seeded is None:
                    break
                mutated, seed = seeded
                findings = [f for f in mutated.audit(catalogue) if f.check == seed.check]
                injected[seed.check] += 1
                hit = [f for f in findings if detects(f, seed)]
                detected[seed.check] += bool(hit)
                if args.misses and (not hit or len(findings) > len(hit) + _baseline(case, catalogue, seed.check)):
                    print(f"{'miss' if not hit else 'extra'} {seed} in {case.paper} {case.label}: ", end="")
                    print([(f.locators_readable[:1], f.message[:90]) for f in findings if f not in hit])
                tp[seed.check] += len(hit)
                fp[seed.check] += max(0, len(findings) - len(hit) - _baseline(case, catalogue, seed.check))
    for case in negatives:
        for finding in case.audit(catalogue):
            fp[finding.check] += 1
            alarms["negatives"].append(f"{case.paper}: {finding.check}: {finding.message[:100]}")
    report(tally, len(cases), len(real), len(negatives), time.perf_counter() - started, args.json)
    return 0


_BASE: dict[int, Counter[str]] = {}


def _baseline(case: Case, catalogue: Catalogue, check: str) -> int:
    """Findings of ``check`` the clean table already had (counted once, as false alarms of the clean run)."""
    if id(case) not in _BASE:
        _BASE[id(case)] = Counter(f.check for f in case.audit(catalogue))
    return _BASE[id(case)][check]


@dataclass
class Tally:
    tp: Counter[str] = field(default_factory=Counter)  # findings that detect a seeded error
    fp: Counter[str] = field(default_factory=Counter)  # findings that do not
    injected: Counter[str] = field(default_factory=Counter)
    detected: Counter[str] = field(default_factory=Counter)
    alarms: dict[str, list[str]] = field(default_factory=lambda: {"generated": [], "real": [], "negatives": []})


def report(tally: Tally, n_gen: int, n_real: int, n_neg: int, seconds: float, as_json: bool) -> None:
    tp, fp, injected, detected, alarms = tally.tp, tally.fp, tally.injected, tally.detected, tally.alarms
    rows = []
    for check in (c.id for c in CHECKS):
        precision = tp[check] / (tp[check] + fp[check]) if tp[check] + fp[check] else float("nan")
        recall = detected[check] / injected[check] if injected[check] else float("nan")
        counts = {"seeded": injected[check], "detected": detected[check], "true_findings": tp[check]}
        rows.append({"check": check, **counts, "false_findings": fp[check], "recall": recall, "precision": precision})
    real_tables = {a.split(":")[0] for a in alarms["real"]}
    summary = {
        "checks": rows,
        "clean_generated_tables": n_gen,
        "clean_real_tables": n_real,
        "false_alarms_generated": alarms["generated"],
        "false_alarms_real": alarms["real"],
        "realistic_negatives": n_neg,
        "false_alarms_negatives": alarms["negatives"],
        "real_tables_with_false_alarms": len(real_tables),
        "false_alarms_per_20_real_tables": round(20 * len(alarms["real"]) / n_real, 2) if n_real else None,
        "seconds": round(seconds, 1),
    }
    if as_json:
        print(json.dumps(summary, indent=2))
        return
    print(f"{'check':<28}{'seeded':>7}{'found':>7}{'recall':>8}{'TP':>6}{'FP':>5}{'precision':>11}")
    for row in rows:
        print(
            f"{row['check']:<28}{row['seeded']:>7}{row['detected']:>7}{row['recall']:>8.3f}"
            f"{row['true_findings']:>6}{row['false_findings']:>5}{row['precision']:>11.3f}"
        )
    print(f"\nclean tables: {n_gen} generated, {n_real} real (gold)")
    print(f"false alarms on clean generated tables: {len(alarms['generated'])}")
    print(
        f"false alarms on clean real tables: {len(alarms['real'])} on {len(real_tables)} of {n_real} tables "
        f"({summary['false_alarms_per_20_real_tables']} per 20 tables)"
    )
    print(f"false alarms on realistic negatives: {len(alarms['negatives'])} on {n_neg} tables")
    for line in alarms["real"] + alarms["negatives"] + alarms["generated"][:10]:
        print(f"  - {line}")
    print(f"time: {seconds:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
