"""A Markdown probe leaderboard of GUE human transcription factor 0 (MCC): rows naming registry models by
alias ("4-mer spectrum", "null embedding") become records though the catalogue lists neither configuration,
the catalogue dataset reaches the protocol's data through the protocol's one link, and `probe reproduce`
gives each its verdict. The data are generated (a planted motif) in GUE's file shape, so no ../shared."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Invoke, json_out
from hyena import hyena_checkpoint
from papers.probe_leaderboard import ABSENT_ENTRY, ABSENT_MODEL, DATASET, PROTOCOL_DATASET, leaderboard

from pipeline.probe.synthetic import planted_motif, write_sequences
from pipeline.shipped import SHIPPED_CONFIG
from pipeline.store import Workspace

SID = "local:tf0"


@pytest.fixture
def data_root(workspace: Workspace, tmp_path: Path) -> Path:
    """GUE human TF 0 where the shipped protocol looks for it, generated; a model entry whose weights are absent."""
    sequences, labels = planted_motif(600, length=101, copies=3, seed=3)
    splits = ["train"] * 400 + ["test"] * 200
    write_sequences(tmp_path / "dna" / "gue" / "GUE_human_tf_0.csv.gz", sequences, labels, splits)
    registry = (SHIPPED_CONFIG / "models.yaml").read_text()
    registry += ABSENT_ENTRY
    (workspace.config_dir / "models.yaml").write_text(registry)
    return tmp_path / "dna"


def _mcc(invoke: Invoke, root: Path, model: str, *options: str) -> float:
    args = ("probe", "run", "--protocol", "geneb-probe", "--dataset", PROTOCOL_DATASET, *options)
    out = json_out(invoke(*args, "--model", model, "--data-root", str(root), "--json"))
    return float(out["aggregate"]["mcc"]["value"])


def test_a_probe_leaderboard_gets_a_verdict_per_row(
    invoke: Invoke, workspace: Workspace, data_root: Path, tmp_path: Path
) -> None:
    kmer, null = _mcc(invoke, data_root, "kmer:4"), _mcc(invoke, data_root, "null")
    assert kmer > 0.5 and abs(null) < 0.3
    inflated = f"{min(kmer + 0.2, 0.999):.3f}" if kmer < 0.8 else f"{kmer - 0.3:.3f}"
    rows = {"4-mer spectrum": f"{kmer:.3f}", "null embedding": f"{null:.3f}", ABSENT_MODEL: "0.650"}
    for sid, board in ((SID, rows), ("local:inflated", {**rows, "4-mer spectrum": inflated})):
        path = tmp_path / f"{sid.partition(':')[2]}.md"
        path.write_text(leaderboard(board))
        assert invoke("fetch", "--file", str(path), "--id", sid).exit_code == 0
        assert invoke("run", sid).exit_code in (0, 1)

    code, out = _reproduce(invoke, SID, data_root)
    verdicts = {e["locator_readable"].split("row '")[1].split("'")[0]: e for e in out["entries"]}
    assert set(verdicts) == set(rows)
    assert {e.get("dataset", DATASET) for e in out["entries"]} == {DATASET}
    assert verdicts["4-mer spectrum"]["verdict"] == "reproduced"
    assert verdicts["null embedding"]["verdict"] == "reproduced"
    caduceus = verdicts[ABSENT_MODEL]
    assert caduceus["verdict"] == "not-reproducible" and caduceus["reason"].startswith("no weights here (")
    assert code == 0

    code, out = _reproduce(invoke, "local:inflated", data_root)
    verdicts = {e["locator_readable"].split("row '")[1].split("'")[0]: e["verdict"] for e in out["entries"]}
    assert code == 1 and verdicts["4-mer spectrum"] == "differs" and verdicts["null embedding"] == "reproduced"


def _reproduce(invoke: Invoke, sid: str, root: Path) -> tuple[int, dict]:
    result = invoke("probe", "reproduce", sid, "--data-root", str(root), "--json")
    assert result.exit_code in (0, 1), result.stderr
    return result.exit_code, json_out(result)


def test_the_catalogue_check_refuses_a_protocol_link_to_no_dataset(invoke: Invoke, workspace: Workspace) -> None:
    protocols = workspace.config_dir / "protocols"
    protocols.mkdir(parents=True)
    text = (SHIPPED_CONFIG / "protocols" / "geneb-probe.yaml").read_text()
    (protocols / "geneb-probe.yaml").write_text(text.replace(f'"{DATASET}"', '"GUE human tf zero"'))
    other = (SHIPPED_CONFIG / "protocols" / "genomic-benchmarks-probe.yaml").read_text()
    twice = other + '  "GUE Transcription Factor Prediction (Human), dataset 1": [gue_human_tf_1]\n'
    (protocols / "genomic-benchmarks-probe.yaml").write_text(twice)
    result = invoke("catalogue", "check")
    assert result.exit_code == 1
    assert "protocol 'geneb-probe': catalogue dataset 'GUE human tf zero' is not in the catalogue" in result.output
    assert "(Human), dataset 1': linked to the data of several protocols (geneb-probe, genomic-benchmarks-probe)" in (
        result.output
    )
    assert invoke("catalogue", "check", "--dir", str(SHIPPED_CONFIG / "catalogue")).exit_code == 1


@pytest.mark.models
@pytest.mark.slow
def test_a_real_model_row_is_reproduced_through_its_pinned_registry_entry(
    invoke: Invoke, workspace: Workspace, data_root: Path, tmp_path: Path
) -> None:
    """HyenaDNA-tiny (tests/hyena.py) as a registry entry, local-only and hash-pinned: its printed MCC comes
    back `reproduced`, the same row inflated `differs`."""
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    folder = hyena_checkpoint(tmp_path / "anticapt")
    entry = f"- configuration: HyenaDNA-tiny\n  embedder: hf:{folder}\n  trust_remote_code: true\n"
    registry = workspace.config_dir / "models.yaml"
    registry.write_text(registry.read_text() + entry)
    listed = json_out(invoke("probe", "models", "--json"))
    [hyena] = [m for m in listed["models"] if m["configuration"] == "HyenaDNA-tiny"]
    registry.write_text(registry.read_text() + f"  weights_sha256: {hyena['found_sha256']}\n")
    args = ("--trust-remote-code", "--cache-dir", str(tmp_path / "cache"))
    mcc = _mcc(invoke, data_root, f"hf:{folder}", *args)
    for sid, value in (("local:hyena", f"{mcc:.3f}"), ("local:hyena-inflated", f"{min(mcc + 0.25, 0.999):.3f}")):
        path = tmp_path / f"{sid.partition(':')[2]}.md"
        path.write_text(leaderboard({"HyenaDNA-tiny": value}))
        assert invoke("fetch", "--file", str(path), "--id", sid).exit_code == 0
        assert invoke("run", sid).exit_code in (0, 1)
    _, out = _reproduce(invoke, "local:hyena", data_root)
    [entry_out] = out["entries"]
    assert entry_out["verdict"] == "reproduced" and entry_out["model"]["embedder"] == f"hf:{folder}"
    assert _reproduce(invoke, "local:hyena-inflated", data_root)[1]["entries"][0]["verdict"] == "differs"
