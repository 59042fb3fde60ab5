"""``litaudit probe reproduce``: from records to verdicts (reproduced, differs, not-reproducible), and the
verdicts back into the audit, the release and the diff. The paper tests typeset a probe leaderboard
(tests/papers/reproduce_paper.py) and run it through fetch, extract, map and emit first."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from conftest import SHARED, Invoke, json_out, needs_shared
from papers.reproduce_paper import MOTIF, REAL_DATASETS, reproduce_paper, write_board_workspace

from pipeline.audit.checks.reproduction import check_reproductions
from pipeline.audit.context import AuditInput
from pipeline.errors import ConfigError
from pipeline.fixtures.render import typeset
from pipeline.model import Record
from pipeline.probe.cells import SelectError, parse_select, select_records
from pipeline.probe.devices import resolve_device
from pipeline.probe.models import load_models
from pipeline.probe.reproduce import judge, printed_rounding
from pipeline.release.diff import record_changes
from pipeline.shipped import SHIPPED_CONFIG
from pipeline.store import Workspace, read_jsonl, sha256_file, write_jsonl


def record(**fields: object) -> Record:
    base: dict[str, object] = dict(
        id="rec:x",
        source_id="local:board",
        source_sha256="ab" * 32,
        table_label="Table 1",
        page=1,
        bbox=None,
        locator="abababababab:p1:Table1:r1:c1",
        locator_readable="Table 1, row 'Planted Motif', column '4-mer'",
        printed="85.3",
        value=85.3,
        plus_minus=None,
        percent=True,
        metric="accuracy",
        unit="fraction",
        direction="higher",
        configuration="4-mer (GenBench)",
        model="4-mer",
        protocol=None,
        dataset="GenBench Planted Motif",
        benchmark="GenBench",
        catalogue_value=0.853,
        mapping={"configuration": {"label": "4-mer"}, "metric_printed": "Acc."},
    )
    return Record(**{**base, **fields})  # type: ignore[arg-type]


# --- the verdict ------------------------------------------------------------------------------------------


def test_a_printed_value_is_judged_within_its_printed_rounding() -> None:
    assert printed_rounding(record()) == pytest.approx(0.0005)  # "85.3" (%) is 0.853 +- 0.0005
    assert printed_rounding(record(printed="0.85", value=0.85, percent=False, catalogue_value=0.85)) == 0.005
    assert judge(0.853, 0.0005, (0.8534, 0.9)).verdict == "reproduced"  # 0.8535 meets the interval
    assert judge(0.853, 0.0, (0.8534, 0.9)).verdict == "differs"
    far = judge(0.84, 0.005, (0.8534, 0.9))
    assert far.verdict == "differs" and far.distance_widths == pytest.approx((0.8534 - 0.845) / 0.0466, abs=1e-3)
    above = judge(0.99, 0.0005, (0.80, 0.90))
    assert above.distance_widths == pytest.approx((0.9895 - 0.90) / 0.10, abs=1e-3)


def test_select_expressions_match_fields_as_globs_and_alternatives() -> None:
    records = [
        record(id="rec:a"),
        record(id="rec:b", dataset="GenBench Human Nontata Promoters", configuration="Null control (GenBench)",
               mapping={"configuration": {"label": "Null control"}}),
        record(id="rec:c", metric="mcc", table_label="Table 2", mapping={"configuration": {"label": "4-mer"}}),
    ]  # fmt: skip
    ids = lambda *exprs: [r.id for r in select_records(records, exprs)]  # noqa: E731
    assert ids() == ["rec:a", "rec:b", "rec:c"]
    assert ids("dataset=*motif*") == ["rec:a", "rec:c"]
    assert ids("configuration=null control") == ["rec:b"]  # the printed name, any case
    assert ids("configuration=4-mer,metric=ACC.") == ["rec:a"]  # the metric as printed
    assert ids("table=Table 2", "id=rec:b") == ["rec:b", "rec:c"]
    for bad, message in [("colour=red", "unknown field 'colour'"), ("dataset", "expected field=pattern")]:
        with pytest.raises(SelectError, match=message):
            parse_select(bad)


def test_cuda_falls_back_to_the_cpu_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    assert resolve_device("cpu", "hf") == ("cpu", "")
    device, note = resolve_device("cuda", "kmer")
    assert device == "cpu" and "numpy on the CPU" in note
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    device, note = resolve_device("cuda", "hf")
    assert device == "cpu" and "torch is not installed" in note


# --- the model registry -----------------------------------------------------------------------------------


def test_the_shipped_registry_names_the_reference_embedders(invoke: Invoke) -> None:
    registry = load_models(Path("/nonexistent"))
    assert [e.embedder for e in registry.entries] == ["kmer:4", "kmer:6", "null"]
    assert registry.find(["DNABERT-2", "K-MER (k=4)"]).embedder == "kmer:4"  # type: ignore[union-attr]
    out = json_out(invoke("probe", "models", "--json"))
    assert out["file"] == str(SHIPPED_CONFIG / "models.yaml")
    assert [m["present"] for m in out["models"]] == [True, True, True]


def test_hf_entries_report_missing_or_mismatched_weights(invoke: Invoke, workspace: Workspace) -> None:
    (workspace.root / "models" / "tiny").mkdir(parents=True)
    (workspace.root / "models" / "tiny" / "config.json").write_text("{}")
    (workspace.config_dir / "models.yaml").write_text(
        "models:\n"
        "- {configuration: Tiny, embedder: 'hf:models/tiny'}\n"
        "- {configuration: Gone, embedder: 'hf:models/gone'}\n"
        f"- {{configuration: Other, embedder: 'hf:models/tiny', weights_sha256: '{'0' * 64}'}}\n"
    )
    result = invoke("probe", "models")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[1] == "Tiny: hf:models/tiny: ready" and lines[2].startswith("    weights_sha256 ")
    assert f"Gone: hf:models/gone: no weights here ({workspace.root}/models/gone has no config.json)" in lines
    assert any(line.startswith("Other: hf:models/tiny: weights at ") and "not the registered 000000000000" in line
               for line in lines)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("models:\n- {configuration: X}\n", "models/0: 'embedder' is a required property"),
        ("models:\n- {configuration: X, embedder: 'gpu:9'}\n", "does not match"),
        ("models:\n- {configuration: X, embedder: 'kmer:4', aliases: [Y]}\n- {configuration: Y, embedder: 'null'}\n",
         "the name 'Y' belongs to 'X' and 'Y'"),
        ("models:\n- {configuration: X, embedder: 'kmer:4', trust_remote_code: true}\n", "for hf: only"),
        ("", "empty file"),
    ],
)  # fmt: skip
def test_a_bad_registry_is_one_line_naming_the_file(
    invoke: Invoke, workspace: Workspace, text: str, message: str
) -> None:
    (workspace.config_dir / "models.yaml").write_text(text)
    with pytest.raises(ConfigError, match=r"models\.yaml: "):
        load_models(workspace.config_dir)
    result = invoke("probe", "models")
    assert result.exit_code == 2 and message in result.stderr and len(result.stderr.splitlines()) == 1
    assert str(workspace.config_dir / "models.yaml") in result.stderr


# --- the paper, end to end ------------------------------------------------------------------------------


@pytest.fixture
def board_workspace(workspace: Workspace, tmp_path: Path) -> Path:
    """The workspace files the paper needs and the generated data; returns the data file."""
    data = tmp_path / "data" / "planted_motif.csv.gz"
    write_board_workspace(workspace.config_dir, data)
    return data


def publish(invoke: Invoke, tmp_path: Path, sid: str, values: dict[str, list[str]]) -> None:
    data, _ = typeset(reproduce_paper(values))
    pdf = tmp_path / f"{sid.partition(':')[2]}.pdf"
    pdf.write_bytes(data)
    assert invoke("fetch", "--file", str(pdf), "--id", sid).exit_code == 0
    for stage in ("extract", "map", "emit"):
        result = invoke(stage, sid)
        assert result.exit_code in (0, 1), result.stderr


def motif_accuracy(invoke: Invoke, model: str) -> str:
    """The honest value as a paper prints it: the probe's accuracy in percent, one decimal."""
    out = json_out(invoke("probe", "run", "--protocol", "motif-probe", "--model", model, "--json"))
    return f"{out['aggregate']['accuracy']['value'] * 100:.1f}"


def reproduce(invoke: Invoke, sid: str, *args: str) -> tuple[int, dict]:
    result = invoke("probe", "reproduce", sid, *args, "--json")
    assert result.exit_code in (0, 1), result.stderr
    return result.exit_code, json_out(result)


def test_the_leaderboard_reproduces_on_generated_data_and_its_verdicts_reach_the_release(
    invoke: Invoke, workspace: Workspace, board_workspace: Path, tmp_path: Path
) -> None:
    honest = {MOTIF: [motif_accuracy(invoke, "kmer:4"), motif_accuracy(invoke, "null"), "99.0"]}
    assert float(honest[MOTIF][0]) > 80 and 35 < float(honest[MOTIF][1]) < 65
    publish(invoke, tmp_path, "local:board", honest)
    invoke("audit", "local:board")
    before = invoke("freeze", "--date", "2026-12-01", "--json")
    assert before.exit_code == 0, before.stderr

    code, out = reproduce(invoke, "local:board")
    assert code == 0 and out["counts"] == {"reproduced": 2, "differs": 0, "not-reproducible": 1}
    by_column = {e["locator_readable"].rsplit("'", 2)[-2]: e for e in out["entries"]}
    kmer, null, huge = by_column["4-mer"], by_column["Null control"], by_column["DNAHuge-7B"]
    assert kmer["printed"] == pytest.approx(float(honest[MOTIF][0]) / 100)
    assert kmer["interval"][0] <= kmer["reproduced"] <= kmer["interval"][1] and kmer["distance_widths"] == 0
    assert kmer["data"][0]["sha256"] == sha256_file(board_workspace)
    assert kmer["data"][0]["test_subset"].startswith("sub-") and kmer["protocol"]["seeds"] == [7]
    assert kmer["protocol"]["version"] == sha256_file(workspace.config_dir / "protocols" / "motif-probe.yaml")
    assert kmer["model"]["embedder"] == "kmer:4" and kmer["model"]["device"] == "cpu"
    assert null["model"]["embedder"] == "null" and null["verdict"] == "reproduced"
    assert huge["verdict"] == "not-reproducible" and huge["reason"].startswith("no weights here (")
    path = workspace.audits_dir("local:board") / "reproductions.jsonl"
    first = path.read_bytes()
    assert reproduce(invoke, "local:board", "--device", "cuda")[1]["notes"][0].startswith("kmer embeddings")
    assert path.read_bytes() == first  # the same subsets, seeds, data and weights: the same bytes

    status = json_out(invoke("status", "local:board", "--json"))["sources"][0]
    assert status["stages"]["audit"] == "stale"  # reproductions.jsonl is an audit input
    assert invoke("freeze", "--date", "2026-12-02").exit_code == 1  # not until the audit has read them
    assert invoke("audit", "local:board").exit_code in (0, 1)
    audited = {r["id"]: r for r in read_jsonl(workspace.audits_dir("local:board") / "records.jsonl")}
    assert audited[kmer["record_id"]]["reproduction"]["verdict"] == "reproduced"
    assert audited[huge["record_id"]]["reproduction"]["reason"] == huge["reason"]
    report = (workspace.audits_dir("local:board") / "report.md").read_text()
    assert "## Reproductions" in report and f"| reproduced: {kmer['reproduced']:.3f} [" in report
    assert "Reproductions</h2>" in (workspace.audits_dir("local:board") / "report.html").read_text()

    after = invoke("freeze", "--date", "2026-12-02", "--json")
    assert after.exit_code == 0, after.stderr
    release = Path(json_out(after)["path"])
    frozen = release / "data" / "sources" / "local_board" / "reproductions.jsonl"
    assert frozen.read_bytes() == first
    assert (
        f"{sha256_file(frozen)}  data/sources/local_board/reproductions.jsonl"
        in (release / "manifest-sha256.txt").read_text()
    )
    info = json.loads((release / "release.json").read_text())
    assert info["counts"]["reproductions"] == {"reproduced": 2, "differs": 0, "not-reproducible": 1}
    diff = invoke("diff", json_out(before)["path"], str(release))
    assert "reproduction.verdict None -> 'reproduced'" in diff.stdout
    assert diff.stdout.count("reproduction.verdict None ->") == 3


def test_an_inflated_value_differs_and_is_a_finding(
    invoke: Invoke, workspace: Workspace, board_workspace: Path, tmp_path: Path
) -> None:
    honest_kmer = float(motif_accuracy(invoke, "kmer:4"))
    inflated = f"{min(honest_kmer + 12, 99.9):.1f}" if honest_kmer < 90 else f"{honest_kmer - 25:.1f}"
    publish(invoke, tmp_path, "local:inflated", {MOTIF: [inflated, "50.0", "99.0"]})
    code, out = reproduce(invoke, "local:inflated", "--select", "configuration=4-mer")
    assert code == 1 and out["counts"] == {"reproduced": 0, "differs": 1, "not-reproducible": 0}
    entry = out["entries"][0]
    assert entry["verdict"] == "differs" and entry["distance_widths"] > 0
    invoke("audit", "local:inflated")
    findings = json.loads((workspace.audits_dir("local:inflated") / "findings.json").read_text())["findings"]
    differs = [f for f in findings if f["check"] == "reproduction-differs"]
    assert len(differs) == 1 and differs[0]["severity"] == "warning"
    assert differs[0]["locators"] == [entry["locator"]] and differs[0]["record_ids"] == [entry["record_id"]]
    assert f"printed {inflated} " in differs[0]["message"]

    result = invoke("probe", "reproduce", "local:inflated", "--select", "dataset=nothing*")
    assert result.exit_code == 2 and "no record matches dataset=nothing*" in result.stderr


def test_every_selected_record_gets_an_entry_with_its_reason(
    invoke: Invoke, workspace: Workspace, board_workspace: Path
) -> None:
    """No silent skip: each cell that cannot be re-run here says why."""
    (workspace.root / "models" / "dnahuge-7b").mkdir(parents=True)
    (workspace.root / "models" / "dnahuge-7b" / "config.json").write_text("{}")
    huge = {"configuration": {"label": "DNAHuge-7B"}}
    rows = [
        record(id="rec:auroc", metric="auroc"),
        record(id="rec:unmapped", dataset="GenBench Bulk RNA expression"),
        record(
            id="rec:nomodel", configuration="NT (GenBench)", model="NT", mapping={"configuration": {"label": "NT-v2"}}
        ),
        record(id="rec:huge", configuration="DNAHuge-7B (GenBench)", model="DNAHuge-7B", mapping=huge),
    ]
    write_jsonl(workspace.extracted_dir("local:board") / "records.jsonl", [r.to_dict() for r in rows])
    code, out = reproduce(invoke, "local:board", "--device", "cuda")
    reasons = {e["record_id"]: e["reason"] for e in out["entries"]}
    assert code == 0 and out["counts"] == {"reproduced": 0, "differs": 0, "not-reproducible": 4}
    assert reasons["rec:auroc"] == "metric not probe-computable: 'auroc'"
    assert reasons["rec:unmapped"].startswith("protocol unknown: no protocol under config/protocols maps")
    assert reasons["rec:nomodel"].startswith("no model: no entry of ") and "NT-v2" in reasons["rec:nomodel"]
    if importlib.util.find_spec("torch") is None:  # the weights are there, the library to run them is not
        assert reasons["rec:huge"].startswith("run failed: hf: models needs torch")
        assert out["notes"] == [
            "--device cuda: torch is not installed (pip install 'litaudit[models]'); ran on the CPU"
        ]


def test_a_stale_verdict_is_declined_not_reported(workspace: Workspace) -> None:
    entry = {"id": "rep-1", "record_id": "rec:x", "verdict": "differs", "printed_text": "85.3"}
    issues = check_reproductions(AuditInput("local:board", "ab" * 32, [], records=[], reproductions=[entry]))
    assert len(issues) == 1 and issues[0].certainty == "declined" and issues[0].table is None


def test_diff_reads_the_verdict_inside_the_reproduction() -> None:
    before = {"reproduction": {"verdict": "reproduced", "value": 0.8}}
    after = {"reproduction": {"verdict": "differs", "value": 0.8}}
    assert record_changes(before, after) == {"reproduction": {"reproduction.verdict": ["reproduced", "differs"]}}


@needs_shared
def test_the_leaderboard_on_gue_and_genomic_benchmarks(
    invoke: Invoke, workspace: Workspace, board_workspace: Path, tmp_path: Path
) -> None:
    """Honest 4-mer and null values (printed from a probe run of the n100 variant) are reproduced; the null
    control printed as if it had learnt something differs; the model without weights is not reproducible."""
    nontata, mouse = REAL_DATASETS
    values = {nontata: ["82.0", "54.0", "90.0"], mouse: ["67.0", "78.0", "88.0"]}  # 78.0: honest is 45.0
    publish(invoke, tmp_path, "local:real-board", values)
    args = ("--variant", "n100", "--data-root", str(SHARED / "dna"), "--select", "configuration=4-mer")
    code, out = reproduce(invoke, "local:real-board", *args, "--select", "configuration=null*", "--select", "id=*c3")
    assert code == 1 and out["counts"] == {"reproduced": 3, "differs": 1, "not-reproducible": 2}
    verdicts = {(e["dataset"], e["locator_readable"].rsplit("'", 2)[-2]): e for e in out["entries"]}
    planted = verdicts[REAL_DATASETS[mouse], "Null control"]
    assert planted["verdict"] == "differs" and planted["distance_widths"] > 1
    assert {e["data"][0]["path"].rsplit("/", 2)[-2] for e in out["entries"] if e.get("data")} == {
        "gue",
        "genomic_benchmarks_test",
    }
    assert all(e["reason"].startswith("no weights here") for e in out["entries"] if e["verdict"] == "not-reproducible")
