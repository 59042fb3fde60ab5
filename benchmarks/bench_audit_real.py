"""Audit precision on real papers, against findings judged by looking at the printed page.

Runs the whole pipeline (``litaudit fetch --file PDF --id local:<stem>``, then ``litaudit run --jobs 2``) on the
32 papers of ../shared/corpus/papers, the 16 of ../shared/corpus/journals/papers and the 12 of
../shared/corpus/journals2/papers, each set in its own workspace under .bench/realpapers/ (gitignored; re-runs
skip the stages that are up to date, and the audit is always run again so that a change to the checks is
measured). Then matches every error and warning finding to the judgements in benchmarks/realpapers/*.jsonl
(key: paper, check, table, sorted readable locators) and prints precision per check, per family (``derived-*``
against the audit's own checks), per set and per check within each set (``set journals / aggregate-row``), for
errors alone and for errors and warnings together; then recall on the known problems
(benchmarks/realpapers/known_problems.json: what a careful reader found on the page), per problem, per kind
of relation and per check that found it; then the error and warning findings not judged yet.

Precision counts judged findings only; unjudged ones are listed, never guessed. ``needs-check`` findings (the
extraction was too unsure to let a check judge) are counted separately: shown to a reviewer, never an error.
A known problem counts as found only by an error or warning finding not judged false.

    python benchmarks/bench_audit_real.py [--shared ../shared] [--jobs 2] [--no-run] [--unjudged FILE] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from pipeline.audit.checks import CHECKS

ROOT = Path(__file__).resolve().parents[1]
JUDGED_DIR = ROOT / "benchmarks" / "realpapers"
WORK_DIR = ROOT / ".bench" / "realpapers"
KNOWN_PROBLEMS = JUDGED_DIR / "known_problems.json"
SETS = {
    "papers": ("corpus", "papers"),
    "journals": ("corpus", "journals", "papers"),
    "journals2": ("corpus", "journals2", "papers"),
}
JUDGED_SEVERITIES = ("error", "warning")
LISTED_SEVERITIES = (*JUDGED_SEVERITIES, "needs-check")  # needs-check findings are judged too, counted apart

Key = tuple[str, str, str, tuple[str, ...]]


@dataclass(frozen=True)
class Seen:
    """One finding of one real paper, as the bench compares it with the judgements."""

    set: str
    paper: str
    check: str
    table: str
    locators: tuple[str, ...]
    severity: str
    message: str
    certainty: str

    @property
    def key(self) -> Key:
        return (self.paper, self.check, self.table, self.locators)

    @property
    def family(self) -> str:
        return "derived" if self.check.startswith("derived-") else "audit"

    def template(self) -> dict[str, object]:
        """The judgement line to fill in (verdict and reason left empty)."""
        return {"paper": self.paper, "check": self.check, "table": self.table, "locators": list(self.locators),
                "severity": self.severity, "message": self.message, "verdict": "", "reason": ""}  # fmt: skip


def load_judgements(folder: Path = JUDGED_DIR) -> dict[Key, list[dict]]:
    """Every judged finding of every *.jsonl file, by key. A key judged more than once (the check changed what
    it says about the same cells) keeps every judgement; :func:`verdict_of` picks the one for the message."""
    judged: dict[Key, list[dict]] = {}
    for path in sorted(folder.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            item = json.loads(line)
            if item.get("verdict") not in ("genuine", "false"):
                raise SystemExit(f"{path}:{number}: verdict must be 'genuine' or 'false', not {item.get('verdict')!r}")
            key = (item["paper"], item["check"], item["table"], tuple(sorted(item["locators"])))
            judged.setdefault(key, []).append(item)
    return judged


def verdict_of(finding: Seen, judged: dict[Key, list[dict]]) -> str | None:
    """The verdict on this finding: the judgement of its very message if there is one, else the key's last."""
    items = judged.get(finding.key, [])
    same = [item for item in items if item["message"] == finding.message]
    return (same or items or [{}])[-1].get("verdict")


def code_digest() -> str:
    """The litaudit code the extractions were made with: the stages know their inputs, not the code. The audit's
    own code is left out: the audit is run again every time."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "pipeline").rglob("*.py")):
        if path.is_relative_to(ROOT / "pipeline" / "audit"):
            continue
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def run_set(name: str, pdfs: list[Path], jobs: int) -> Path:
    """Fetch the PDFs not fetched yet into the set's workspace, run the stages not up to date, audit again;
    a workspace made by other code is made again."""
    workspace = WORK_DIR / name
    made_by, code = workspace / ".code.sha256", code_digest()
    if workspace.is_dir() and (not made_by.is_file() or made_by.read_text() != code):
        shutil.rmtree(workspace)
    workspace.mkdir(parents=True, exist_ok=True)
    made_by.write_text(code)
    for pdf in pdfs:
        if not (workspace / "sources" / f"local_{pdf.stem}" / "source.json").exists():
            _litaudit(workspace, "fetch", "--file", str(pdf), "--id", f"local:{pdf.stem}")
    _litaudit(workspace, "run", "--jobs", str(jobs))
    # the stages know their inputs, not the checks' code: audit again so a changed check is measured
    _litaudit(workspace, "audit", "--force", "--jobs", str(jobs))
    return workspace


def _litaudit(workspace: Path, *args: str) -> None:
    command = [sys.executable, "-m", "pipeline", "--root", str(workspace), *args]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):  # 1: the work found problems, which is what an audit is for
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        print(f"  litaudit {' '.join(args)}: exit {done.returncode}: {' | '.join(tail)}", file=sys.stderr)


def read_findings(name: str, workspace: Path) -> tuple[list[Seen], list[str]]:
    """The findings of every audited paper of the set, and the papers audited."""
    seen, papers = [], []
    paths = sorted((workspace / "audits").glob("*/findings.json"))
    for path in paths:
        document = json.loads(path.read_text(encoding="utf-8"))
        paper = str(document["source"]["id"]).removeprefix("local:")
        papers.append(paper)
        for f in document["findings"]:
            locators = tuple(sorted(f.get("locators_readable", [])))
            table = f.get("table_label") or ""
            certainty = f.get("certainty", "")
            seen.append(Seen(name, paper, f["check"], table, locators, f["severity"], f["message"], certainty))
    return seen, papers


@dataclass
class Tally:
    genuine: int = 0
    false: int = 0
    unjudged: int = 0

    def add(self, verdict: str | None) -> None:
        if verdict == "genuine":
            self.genuine += 1
        elif verdict == "false":
            self.false += 1
        else:
            self.unjudged += 1

    def cell(self) -> str:
        judged = self.genuine + self.false
        if not judged and not self.unjudged:
            return "-"
        precision = f"{self.genuine / judged:.2f}" if judged else "n/a"
        tail = f" +{self.unjudged}?" if self.unjudged else ""
        return f"{precision} ({self.genuine}/{judged}{tail})"

    def as_dict(self) -> dict[str, object]:
        judged = self.genuine + self.false
        return {"genuine": self.genuine, "false": self.false, "unjudged": self.unjudged,
                "precision": round(self.genuine / judged, 4) if judged else None}  # fmt: skip


def tally(findings: list[Seen], judged: dict[Key, list[dict]]) -> dict[str, dict[str, Tally]]:
    """group name -> {"error": Tally, "error+warning": Tally, "needs-check": Tally} for every grouping."""
    table: dict[str, dict[str, Tally]] = defaultdict(lambda: defaultdict(Tally))
    for check in CHECKS:  # every check has a line, those that found nothing too
        table[f"check {check.id}"] = defaultdict(Tally)
    for f in findings:
        verdict = verdict_of(f, judged)
        for group in ("all", f"set {f.set}", f"family {f.family}", f"check {f.check}", f"set {f.set} / {f.check}"):
            if f.severity in JUDGED_SEVERITIES:
                table[group]["error+warning"].add(verdict)
            if f.severity == "error":
                table[group]["error"].add(verdict)
            if f.severity == "needs-check":
                table[group]["needs-check"].add(verdict)
    return table


@dataclass(frozen=True)
class KnownProblem:
    """A problem a careful reader found on the page: the audit should raise it at warning or error."""

    id: str
    source: str
    paper: str
    table: str
    kind: str
    mentions: tuple[str, ...]

    def found_by(self, finding: Seen, verdict: str | None) -> bool:
        if finding.paper != self.paper or finding.severity not in JUDGED_SEVERITIES or verdict == "false":
            return False
        if self.table and not finding.table.startswith(self.table):
            return False
        return any(re.search(rf"(?<![\w.]){re.escape(m)}(?![\w]|\.\d)", finding.message) for m in self.mentions)


def load_known(path: Path = KNOWN_PROBLEMS) -> list[KnownProblem]:
    items = json.loads(path.read_text(encoding="utf-8"))["problems"]
    return [KnownProblem(**{**item, "mentions": tuple(item["mentions"])}) for item in items]


def recall(
    findings: list[Seen], judged: dict[Key, list[dict]], known: list[KnownProblem], papers: set[str]
) -> dict[str, list[Seen]]:
    """Known problem id -> the findings that raise it (empty: missed). Problems of papers not audited are left out."""
    return {
        problem.id: [f for f in findings if problem.found_by(f, verdict_of(f, judged))]
        for problem in known
        if problem.paper in papers
    }


def print_recall(found: dict[str, list[Seen]], known: list[KnownProblem]) -> None:
    problems = [p for p in known if p.id in found]
    hits = [p for p in problems if found[p.id]]
    share = f"{len(hits) / len(problems):.2f}" if problems else "n/a"
    print(f"\nrecall on the known problems ({KNOWN_PROBLEMS.name}): {share} ({len(hits)}/{len(problems)})")
    for label, key in (("source", lambda p: p.source), ("kind", lambda p: p.kind)):
        groups: dict[str, list[KnownProblem]] = defaultdict(list)
        for problem in problems:
            groups[key(problem)].append(problem)
        for name, members in sorted(groups.items()):
            got = sum(bool(found[p.id]) for p in members)
            print(f"  {label} {name:40} {got / len(members):.2f} ({got}/{len(members)})")
    by_check = Counter(check for p in hits for check in {f.check for f in found[p.id]})
    by_family = Counter(family for p in hits for family in {f.family for f in found[p.id]})
    print("  found by check: " + (", ".join(f"{c} {n}" for c, n in sorted(by_check.items())) or "none"))
    print("  found by family: " + (", ".join(f"{c} {n}" for c, n in sorted(by_family.items())) or "none"))
    for problem in problems:
        seen = found[problem.id]
        how = "; ".join(sorted({f"{f.check} {f.severity}" for f in seen})) if seen else "MISSED"
        print(f"  {problem.id:7} {problem.paper:40} {problem.table or '(any table)':12} {how}")


def print_report(findings: list[Seen], judged: dict[Key, list[dict]], papers: list[str]) -> list[Seen]:
    table = tally(findings, judged)
    count = sum(len(items) for items in judged.values())
    print(f"{len(findings)} findings on {len(papers)} audited papers; {count} judgements in {JUDGED_DIR.name}/")
    items = [item for group in judged.values() for item in group]
    genuine = sum(item["verdict"] == "genuine" for item in items)
    print(f"on record: {genuine} genuine, {len(items) - genuine} false (findings of earlier versions included)")
    print("precision = genuine / judged (+N? = not judged yet)\n")
    print(f"{'group':42} {'errors':>18} {'errors+warnings':>20} {'needs-check':>16}")
    for group in sorted(table, key=lambda g: (g.split()[0] != "all", g.split()[0], g)):
        row = table[group]
        print(f"{group:42} {row['error'].cell():>18} {row['error+warning'].cell():>20} {row['needs-check'].cell():>16}")
    declined = Counter(f.check for f in findings if f.certainty == "declined")
    shown = ", ".join(f"{check} {n}" for check, n in sorted(declined.items())) or "none"
    print(f"\ndeclined (noted as info with the reason, so recall is not lost silently): {shown}")
    known = load_known()
    print_recall(recall(findings, judged, known, set(papers)), known)
    unjudged = [f for f in findings if f.severity in LISTED_SEVERITIES and verdict_of(f, judged) is None]
    print(f"\nunjudged error/warning/needs-check findings: {len(unjudged)}")
    for f in unjudged:
        print(f"  [{f.set}] {f.paper} | {f.check} | {f.severity} | {f.table} | {'; '.join(f.locators)[:120]}")
        print(f"      {f.message[:200]}")
    return unjudged


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=ROOT.parent / "shared", help="the shared data folder")
    parser.add_argument("--jobs", type=int, default=2, help="sources processed in parallel by litaudit run")
    parser.add_argument("--no-run", action="store_true", help="score the findings already in .bench/realpapers/")
    parser.add_argument("--unjudged", type=Path, help="also write the unjudged findings here, as judgement lines")
    parser.add_argument("--json", action="store_true", help="print the tallies as JSON instead")
    args = parser.parse_args()
    if not (args.shared / "corpus").is_dir():
        print(f"bench-audit-real: skipped, {args.shared}/corpus not found (the real papers live in ../shared)")
        return 0
    findings: list[Seen] = []
    papers: list[str] = []
    for name, parts in SETS.items():
        pdfs = sorted(args.shared.joinpath(*parts).glob("*.pdf"))
        workspace = WORK_DIR / name if args.no_run else run_set(name, pdfs, args.jobs)
        found, audited = read_findings(name, workspace)
        findings, papers = findings + found, papers + audited
    judged = load_judgements()
    if args.json:
        table = tally(findings, judged)
        shown: dict[str, object] = {g: {k: t.as_dict() for k, t in row.items()} for g, row in table.items()}
        found = recall(findings, judged, load_known(), set(papers))
        shown["recall"] = {pid: sorted({f.check for f in seen}) for pid, seen in found.items()}
        print(json.dumps(shown, indent=2))
        return 0
    unjudged = print_report(findings, judged, papers)
    if args.unjudged:
        lines = [json.dumps(f.template(), sort_keys=True) for f in unjudged]
        args.unjudged.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
