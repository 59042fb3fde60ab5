"""Subsets: largest-remainder quotas, hash ranking, determinism, overlap removal and holdout splits."""

from __future__ import annotations

import random

from pipeline.probe.subsets import (
    draw,
    drop_test_duplicates,
    holdout_split,
    largest_remainder_quotas,
    make_subset,
    subset_id,
)


def items(n: int, labels: str = "01", seed: int = 0) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    return [f"item-{i}" for i in range(n)], [rng.choice(labels) for _ in range(n)]


def test_largest_remainder_quotas() -> None:
    assert largest_remainder_quotas({"0": 4119, "1": 4915}, 500) == {"0": 228, "1": 272}
    assert largest_remainder_quotas({"a": 1, "b": 1, "c": 1}, 2) == {"a": 1, "b": 1, "c": 0}  # tie: label order
    assert largest_remainder_quotas({"a": 5, "b": 3, "c": 2}, 7) == {"a": 4, "b": 2, "c": 1}
    assert largest_remainder_quotas({"a": 2, "b": 1}, 10) == {"a": 2, "b": 1}  # never more than there is
    for total in range(0, 50, 7):
        assert sum(largest_remainder_quotas({"x": 17, "y": 29, "z": 3}, total).values()) == total


def test_same_seed_same_items_and_id_whatever_the_order() -> None:
    ids, labels = items(300)
    first = draw(range(300), ids, labels, seed=20261006, total=50)
    again = draw(range(300), ids, labels, seed=20261006, total=50)
    other = draw(range(300), ids, labels, seed=7, total=50)
    assert first == again and first != other
    shuffled = list(range(300))
    random.Random(1).shuffle(shuffled)
    ids2, labels2 = [ids[i] for i in shuffled], [labels[i] for i in shuffled]
    reordered = draw(range(300), ids2, labels2, seed=20261006, total=50)
    assert sorted(ids2[i] for i in reordered) == sorted(ids[i] for i in first)
    assert make_subset(first, ids, labels, 20261006, "r").id == make_subset(reordered, ids2, labels2, 20261006, "r").id
    assert subset_id(["a", "b"]) == subset_id(["b", "a"]) != subset_id(["a", "c"])


def test_draw_is_stratified_and_k_shot_takes_k_per_label() -> None:
    ids, labels = items(1000, labels="0001")  # about 3:1
    chosen = draw(range(1000), ids, labels, seed=1, total=100)
    subset = make_subset(chosen, ids, labels, 1, "100 stratified")
    expected = largest_remainder_quotas({"0": labels.count("0"), "1": labels.count("1")}, 100)
    assert subset.per_label == expected and len(chosen) == 100
    shots = make_subset(draw(range(1000), ids, labels, seed=1, per_label=10), ids, labels, 1, "10-shot")
    assert shots.per_label == {"0": 10, "1": 10}
    assert draw(range(1000), ids, labels, seed=1) == list(range(1000))


def test_train_items_identical_to_test_are_dropped() -> None:
    sequences = ["AAAA", "CCCC", "GGGG", "TTTT", "AAAA"]
    assert drop_test_duplicates([0, 1, 2], [3, 4], sequences) == [1, 2]


def test_holdout_split_is_disjoint_stratified_and_deterministic() -> None:
    ids, labels = items(401)
    pools = holdout_split(range(401), ids, labels, seed=20261006, train_fraction=0.5)
    assert not set(pools.train) & set(pools.test) and len(pools.train) + len(pools.test) == 401
    assert len(pools.train) == 200
    ones = sum(labels[i] == "1" for i in pools.train)
    assert abs(ones - labels.count("1") / 2) <= 1
    assert holdout_split(range(401), ids, labels, seed=20261006, train_fraction=0.5) == pools
    assert pools.split["kind"] == "holdout" and pools.split["seed"] == 20261006
