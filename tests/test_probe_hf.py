"""Optional: a real DNA language model (HyenaDNA-tiny from the anticapt wheel) through ``hf:``.

Skips unless torch and transformers are installed (the ``models`` extra) and the checkpoint can be had
(tests/hyena.py).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import Invoke, json_out
from hyena import hyena_checkpoint

from pipeline.probe.embedders import ModelOptions, parse_model
from pipeline.probe.hf import folder_revision
from pipeline.probe.synthetic import planted_motif, write_sequences
from pipeline.store import Workspace

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytestmark = [pytest.mark.slow, pytest.mark.models]


@pytest.fixture(scope="module")
def hyena_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return hyena_checkpoint(tmp_path_factory.mktemp("anticapt"))


def test_hyena_embeddings_are_mean_pooled_and_batching_changes_nothing(hyena_dir: Path) -> None:
    embedder = parse_model(f"hf:{hyena_dir}", ModelOptions(trust_remote_code=True, batch_size=4))
    sequences, _ = planted_motif(10, length=60, seed=1)
    sequences.append("ACGTN" * 9)  # another length: its own batch
    vectors = embedder.embed(sequences)
    assert vectors.shape == (11, 128) and np.isfinite(vectors).all()
    alone = embedder.embed([sequences[3]])[0]
    assert np.allclose(alone, vectors[3], atol=1e-5)
    described = embedder.describe()
    assert described["weights_revision"] == folder_revision(hyena_dir) and described["max_length"] == 1026
    truncated = parse_model(f"hf:{hyena_dir}", ModelOptions(trust_remote_code=True, max_length=20))
    assert truncated.revision != embedder.revision  # cached vectors of one never stand in for the other's
    assert described["kind"] == "hf" and described["model_type"] == "hyenadna" and described["trust_remote_code"]


def test_hyena_through_the_cli_with_the_cache(
    invoke: Invoke, workspace: Workspace, hyena_dir: Path, tmp_path: Path
) -> None:
    (workspace.config_dir / "protocols").mkdir(parents=True)
    (workspace.config_dir / "protocols" / "tiny.yaml").write_text(
        "name: tiny\nseeds: [3]\nprobe: {scaler: true, c_grid: [0.1, 1.0], cv_folds: 3}\nmetrics: [accuracy]\n"
        "bootstrap: {resamples: 100}\nvariants: {default: {train_size: 60}}\ndatasets: {motif: {path: m.tsv}}\n"
    )
    sequences, labels = planted_motif(160, length=80, seed=2)
    write_sequences(tmp_path / "m.tsv", sequences, labels)
    args = (
        "probe",
        "run",
        "--protocol",
        "tiny",
        "--model",
        f"hf:{hyena_dir}",
        "--data-root",
        str(tmp_path),
        "--cache-dir",
        str(tmp_path / "cache"),
        "--json",
    )
    refused = invoke(*args)
    assert refused.exit_code == 2 and "--trust-remote-code" in refused.stderr
    first = invoke(*args, "--trust-remote-code")
    assert first.exit_code == 0, first.stderr
    again = json_out(invoke(*args, "--trust-remote-code"))
    result = json_out(first)
    assert result["timing"]["sequences_embedded"] == 140 and again["timing"]["sequences_from_cache"] == 140
    assert again["datasets"][0]["embedding_hash"] == result["datasets"][0]["embedding_hash"]
    assert result["versions"]["torch"] and result["versions"]["transformers"]
    assert result["model"]["weights_revision"] == folder_revision(hyena_dir)
    assert 0.0 <= result["aggregate"]["accuracy"]["value"] <= 1.0
