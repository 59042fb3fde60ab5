"""Embedders, the probe and the cache: the probe finds a planted motif, the null control stays at chance."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from pipeline.errors import MissingExtraError
from pipeline.probe.cache import EmbeddingCache, EmbedStats, embed_all
from pipeline.probe.embedders import KmerEmbedder, ModelSpecError, NullEmbedder, parse_model
from pipeline.probe.metrics import Group, bootstrap_interval
from pipeline.probe.probe import ProbeError, ProbeSettings, fit_predict
from pipeline.probe.synthetic import planted_motif

GRID = ProbeSettings(scaler=True, c_grid=(0.01, 0.1, 1.0, 10.0), cv_folds=5)


def test_kmer_spectrum_counts_kmers_and_skips_n() -> None:
    vectors = KmerEmbedder(1).embed(["AACG", "NNTT", "A", ""])
    assert vectors[0].tolist() == [0.5, 0.25, 0.25, 0.0]
    assert vectors[1].tolist() == [0.0, 0.0, 0.0, 1.0]
    two = KmerEmbedder(2).embed(["ACGTN", "ACGTA"])
    index = {"AC": 1, "CG": 6, "GT": 11, "TA": 12}
    assert two[0][[index["AC"], index["CG"], index["GT"]]].tolist() == pytest.approx([1 / 3] * 3)
    assert two[1][index["TA"]] == pytest.approx(0.25)
    assert np.allclose(KmerEmbedder(3).embed(["ACGTACGTAC", "GGGTTTAAACC"]).sum(axis=1), 1.0)


def test_null_features_depend_only_on_seed_and_sequence() -> None:
    a = NullEmbedder(16, seed=1).embed(["ACGT", "CCCC", "ACGT"])
    assert a.shape == (3, 16) and np.array_equal(a[0], a[2]) and not np.array_equal(a[0], a[1])
    assert np.array_equal(NullEmbedder(16, seed=1).embed(["ACGT"])[0], a[0])
    assert not np.array_equal(NullEmbedder(16, seed=2).embed(["ACGT"])[0], a[0])
    assert NullEmbedder(16, 1).revision != NullEmbedder(16, 2).revision != KmerEmbedder(3).revision


def split_motif_data(n_train: int, n_test: int, seed: int = 0) -> tuple[list[str], np.ndarray, list[str], np.ndarray]:
    sequences, labels = planted_motif(n_train + n_test, length=80, seed=seed)
    y = np.array(labels)
    return sequences[:n_train], y[:n_train], sequences[n_train:], y[n_train:]


def test_probe_finds_a_planted_motif() -> None:
    train, y_train, test, y_test = split_motif_data(300, 300)
    embedder = parse_model("kmer:4")
    fit = fit_predict(embedder.embed(train), y_train, embedder.embed(test), GRID, seed=3)
    assert Group(y_test, fit.predictions, 2).metric("accuracy") > 0.85
    assert fit.c in GRID.c_grid and fit.cv_folds == 5 and fit.converged


def test_null_control_sits_at_chance() -> None:
    train, y_train, test, y_test = split_motif_data(300, 600, seed=1)
    embedder = parse_model("null")
    fit = fit_predict(embedder.embed(train), y_train, embedder.embed(test), GRID, seed=3)
    group = Group(y_test, fit.predictions, 2)
    low, high = bootstrap_interval([group], "accuracy", resamples=300, seed=0)
    assert abs(float(group.metric("accuracy")) - 0.5) < 0.08 and low <= 0.5 <= high


def test_probe_without_cv_and_with_too_few_items() -> None:
    x = np.array([[0.0], [1.0], [0.1], [0.9]])
    y = np.array([0, 1, 0, 1])
    fixed = fit_predict(x, y, x, ProbeSettings(scaler=False, c=1.0), seed=0)
    assert fixed.cv_folds is None and fixed.c == 1.0
    few = fit_predict(x[:2], y[:2], x, GRID, seed=0)  # one item per class: no CV possible
    assert few.cv_folds is None and "fewer than 2" in few.notes[0]
    with pytest.raises(ProbeError, match="single class"):
        fit_predict(x[:1], y[:1], x, GRID, seed=0)


def test_cache_returns_what_was_computed_and_computes_each_sequence_once(tmp_path: Path) -> None:
    embedder = KmerEmbedder(3, spec="kmer:3")
    cache = EmbeddingCache(tmp_path / "cache")
    sequences = ["ACGTACGTAA", "CCCCGGGGTT", "ACGTACGTAA"]
    first = EmbedStats()
    vectors = embed_all(embedder, sequences, cache, first)
    assert first.computed == 2 and first.cached == 0
    second = EmbedStats()
    again = embed_all(embedder, [*sequences, "TTTTTTTTTT"], EmbeddingCache(tmp_path / "cache"), second)
    assert second.computed == 1 and second.cached == 2
    assert np.array_equal(again[:3], vectors) and np.array_equal(again[3], embedder.embed(["TTTTTTTTTT"])[0])
    other = EmbedStats()
    embed_all(KmerEmbedder(2), sequences, EmbeddingCache(tmp_path / "cache"), other)  # another model: own entries
    assert other.computed == 2
    assert len(list((tmp_path / "cache").iterdir())) == 2


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("kmer", "whole number from 1 to 8"),
        ("kmer:12", "whole number from 1 to 8"),
        ("null:x", "whole number"),
        ("bert", "unknown kind"),
        ("hf:", "local model folder"),
    ],
)
def test_bad_model_specs(spec: str, message: str) -> None:
    with pytest.raises(ModelSpecError, match=message):
        parse_model(spec)


def test_hf_without_the_models_extra_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "config.json").write_text("{}")
    monkeypatch.setitem(sys.modules, "torch", None)  # as if torch were not installed
    with pytest.raises(
        MissingExtraError, match=r"needs torch, which is not installed: pip install 'litaudit\[models\]'"
    ) as info:
        parse_model(f"hf:{tmp_path}")
    assert "\n" not in str(info.value)
    with pytest.raises(ModelSpecError, match=r"no config\.json"):
        parse_model(f"hf:{tmp_path / 'absent'}")
