"""Seeded, stratified, hashed subsets: the same seed and items always give the same subset and subset id.

Items are ranked by ``sha256(seed:item_id)`` within each label and each label gets a largest-remainder
quota, so a subset depends only on the seed and the item ids, never on file order or on a random
generator's version.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Subset:
    """Which items a run used: positions into the source table, and the facts a reader needs."""

    id: str
    seed: int
    indices: list[int]
    per_label: dict[str, int]
    disjoint_by: str = "sequence"
    dropped_overlap: int = 0  # train items dropped for being identical to a test sequence
    rule: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seed": self.seed,
            "n": len(self.indices),
            "per_label": self.per_label,
            "disjoint_by": self.disjoint_by,
            "dropped_overlap": self.dropped_overlap,
            "rule": self.rule,
        }


@dataclass
class Pools:
    """Train and test positions of one dataset before any draw (after a holdout split if there was one)."""

    train: list[int]
    test: list[int]
    split: dict[str, Any] = field(default_factory=dict)


def rank_key(seed: int, item_id: str) -> str:
    return hashlib.sha256(f"{seed}:{item_id}".encode()).hexdigest()


def subset_id(item_ids: Sequence[str]) -> str:
    """A short name for a set of items (order does not matter)."""
    digest = hashlib.sha256("\n".join(sorted(item_ids)).encode()).hexdigest()
    return f"sub-{digest[:16]}"


def largest_remainder_quotas(counts: dict[str, int], total: int) -> dict[str, int]:
    """Split ``total`` over labels in proportion to ``counts`` (Hamilton's method; ties: label order)."""
    available = sum(counts.values())
    if total >= available:
        return dict(counts)
    exact = {label: total * n / available for label, n in counts.items()}
    quotas = {label: int(share) for label, share in exact.items()}
    leftover = total - sum(quotas.values())
    by_remainder = sorted(counts, key=lambda label: (-(exact[label] - quotas[label]), label))
    for label in by_remainder[:leftover]:
        quotas[label] += 1
    return quotas


def _by_label(indices: Sequence[int], labels: Sequence[str]) -> dict[str, list[int]]:
    groups: dict[str, list[int]] = defaultdict(list)
    for i in indices:
        groups[labels[i]].append(i)
    return dict(sorted(groups.items()))


def _ranked(indices: list[int], ids: Sequence[str], seed: int) -> list[int]:
    return sorted(indices, key=lambda i: rank_key(seed, ids[i]))


def draw(
    indices: Sequence[int],
    ids: Sequence[str],
    labels: Sequence[str],
    seed: int,
    total: int | None = None,
    per_label: int | None = None,
) -> list[int]:
    """The first items by hash rank in each label: ``total`` split by quotas, or ``per_label`` each (k-shot)."""
    groups = _by_label(indices, labels)
    if per_label is not None:
        quotas = {label: min(per_label, len(members)) for label, members in groups.items()}
    elif total is not None:
        quotas = largest_remainder_quotas({label: len(m) for label, m in groups.items()}, total)
    else:
        quotas = {label: len(m) for label, m in groups.items()}
    chosen = [i for label, members in groups.items() for i in _ranked(members, ids, seed)[: quotas[label]]]
    return sorted(chosen)


def make_subset(
    chosen: list[int], ids: Sequence[str], labels: Sequence[str], seed: int, rule: str, dropped: int = 0
) -> Subset:
    counts = {label: len(members) for label, members in _by_label(chosen, labels).items()}
    return Subset(subset_id([ids[i] for i in chosen]), seed, chosen, counts, dropped_overlap=dropped, rule=rule)


def drop_test_duplicates(train: Sequence[int], test: Sequence[int], sequences: Sequence[str]) -> list[int]:
    """Train positions whose sequence is not identical to any test sequence."""
    test_sequences = {sequences[i] for i in test}
    return [i for i in train if sequences[i] not in test_sequences]


def holdout_split(
    indices: Sequence[int], ids: Sequence[str], labels: Sequence[str], seed: int, train_fraction: float
) -> Pools:
    """Split a test-only dataset into train and test pools, stratified and hash-ranked like every draw."""
    train = draw(indices, ids, labels, seed, total=round(train_fraction * len(indices)))
    taken = set(train)
    test = [i for i in indices if i not in taken]
    split = {"kind": "holdout", "of": "test", "train_fraction": train_fraction, "seed": seed}
    return Pools(train, test, split)
