"""Results the catalogue does not know yet become candidate records with their labels as printed, and
`catalogue suggest` turns them into proposals; counts are never values of a metric."""

from __future__ import annotations

import pytest

from pipeline.catalogue import Catalogue, load_catalogue
from pipeline.catalogue.suggest import propose
from pipeline.emit.candidates import build_candidates
from pipeline.mapping.document import map_tables
from pipeline.model import Table, TablesFile


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Catalogue:
    return load_catalogue(tmp_path_factory.mktemp("config"))  # the bundled catalogue


def _candidates(catalogue: Catalogue, *tables) -> list[dict]:
    found = TablesFile({"id": "local:t", "sha256": "ab" * 32}, {}, list(tables))
    return build_candidates(found, map_tables(found, catalogue))


def test_unknown_models_and_datasets_become_candidates_with_the_caption_metric(catalogue: Catalogue) -> None:
    grid = [
        ["Model", "Large DNA", "Small DNA", "+ssRNA"],
        ["Evo2(1B)", "20.0 ± 17.9", "20.0 ± 40.0", "13.3 ± 8.3"],
        ["Evo2 (7B)", "48.0 ± 9.8", "46.7 ± 26.7", "28.8 ± 11.3"],
    ]
    caption = "Attack success rate (%) of jailbreak attempts across 3 viral categories."
    candidates = _candidates(catalogue, Table.from_grid(grid, 1, 1, label="Table 1", caption=caption))
    assert len(candidates) == 6 and {c["status"] for c in candidates} == {"unlinked"}
    first = candidates[0]
    assert first["printed"] == "20.0 ± 17.9" and first["locator_readable"].startswith("Table 1, row 'Evo2(1B)'")
    assert first["printed_labels"] == {
        "dataset": "Large DNA",
        "configuration": "Evo2(1B)",
        "metric": "Attack success rate (%)",
    }


def test_a_model_column_and_counts_beside_the_metrics(catalogue: Catalogue) -> None:
    grid = [
        ["Model", "Data", "Feature", "N_pos", "N_neg", "AUROC", "AUPRC"],
        ["AlphaMissense", "ClinVar", "coding", "9387", "4932", "0.958", "0.977"],
        ["CADD", "ClinVar", "coding", "9387", "4932", "0.927", "0.952"],
    ]
    candidates = _candidates(catalogue, Table.from_grid(grid, 1, 1, label="Table S7", caption="Variant effects."))
    assert [c["printed"] for c in candidates] == ["0.958", "0.977", "0.927", "0.952"]  # N_pos, N_neg: counts
    assert candidates[1]["printed_labels"] == {
        "dataset": "ClinVar / coding",
        "configuration": "AlphaMissense",
        "metric": "AUPRC",
    }
    assert candidates[1]["linked"] == {"metric": "Area under the precision-recall curve"}


def test_suggest_proposes_aliases_for_near_names_and_new_entries_for_the_rest() -> None:
    near = {"id": "bulk", "name": "GenBench Bulk RNA expression", "score": 88.0}
    candidates = [
        {"source_id": "s", "table_label": "Table 3", "printed_labels": {"dataset": "Bulk RNA expr."},
         "suggestions": {"dataset": [near]}},
        {"source_id": "s", "table_label": "Table 1", "printed_labels": {"configuration": "Evo 2 7B"},
         "suggestions": {"configuration": [{"id": "evo", "name": "Evo (GUE)", "score": 55.0}]}},
        {"source_id": "s", "table_label": "Table 1", "printed_labels": {"configuration": "Evo 2 7B"},
         "suggestions": {"configuration": []}},
    ]  # fmt: skip
    proposals = propose(candidates)
    assert proposals["aliases"] == [
        {"dataset": "bulk", "name": "GenBench Bulk RNA expression", "add_alias": "Bulk RNA expr.", "score": 88.0,
         "values": 1}
    ]  # fmt: skip
    [model] = proposals["new"]["configuration"]
    assert model == {"name": "Evo 2 7B", "values": 2, "seen_in": ["s Table 1"], "nearest": ["Evo (GUE) (55)"]}


def test_a_measurement_column_is_the_metric_and_the_caption_names_the_model(catalogue: Catalogue) -> None:
    grid = [["Annotation", "Sequence ID %", "Nearest Species"], ["mt-Co1", "86.94", "Muntiacus reevesi"]]
    caption = "BLASTp results for genes from Evo 2 generated mitochondria."
    [candidate] = _candidates(catalogue, Table.from_grid(grid, 1, 1, label="Table S6", caption=caption))
    assert candidate["printed_labels"] == {"dataset": "mt-Co1", "configuration": "Evo 2", "metric": "Sequence ID %"}
