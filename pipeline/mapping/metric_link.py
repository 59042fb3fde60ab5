"""Which metric a value cell reports: printed with it, else in the caption, else the dataset's only one."""

from __future__ import annotations

from pipeline.catalogue import DatasetDef, MetricDef
from pipeline.mapping.links import LabelPath, Linker, no_link
from pipeline.mapping.model import Link


def _one(found: tuple[MetricDef, ...], dataset: DatasetDef | None) -> MetricDef | None:
    """The metric meant when several are named: the one the dataset is scored with."""
    if len(found) == 1:
        return found[0]
    fitting = [m for m in found if dataset is not None and m.id in dataset.metrics]
    return fitting[0] if len(fitting) == 1 else None


def link_metric(
    linker: Linker,
    row: LabelPath,
    column: LabelPath,
    caption: str,
    dataset: DatasetDef | None,
    corner: str = "",
    context: str = "",
) -> Link:
    """The column header first, then the row (its label and other words printed in it), then the header of the
    stub column (the table's corner, "Dataset (MCC)"), then the caption, then the text of the table's section
    (a README prints "Full-shot, MCC." once above two tables)."""
    label = " ".join(column.printed) or row.text
    row_text = " / ".join((*row.printed, *row.extra))
    for where, printed, found in (
        ("column", " ".join(column.printed), column.metrics),
        ("row", row_text, row.metrics),
        ("table corner", corner, tuple(linker.metrics.find(corner))),
        ("caption", caption, tuple(linker.metrics.find(caption))),
        ("section", context, tuple(linker.metrics.find(context))),
    ):
        if not found:
            continue
        metric = _one(found, dataset)
        if metric is None:
            names = ", ".join(m.name for m in found)
            return no_link("metric", printed[:80], where, f"the {where} names several metrics ({names})")
        reason = f"the {where} '{printed[:80]}' names {metric.name}"
        if dataset is not None and metric.same_as in dataset.metrics:
            recorded = linker.catalogue.metric(str(metric.same_as))
            reason += f", a name the catalogue records as {recorded.name} for this dataset"
            link = Link("metric", recorded.id, recorded.name, printed[:80], where, 100.0, "printed", reason)
            link.printed_as = metric.id
            return link
        if dataset is not None and metric.id not in dataset.metrics:
            reason += f" (the catalogue lists {', '.join(dataset.metrics)} for this dataset)"
        return Link("metric", metric.id, metric.name, printed[:80], where, 100.0, "printed", reason)
    if dataset is not None and len(dataset.metrics) == 1:
        metric = linker.catalogue.metric(dataset.metrics[0])
        reason = f"no metric printed; the catalogue's only metric for '{dataset.name}'"
        return Link("metric", metric.id, metric.name, label, "catalogue", 100.0, "default", reason)
    return no_link("metric", label, "column", "no metric printed in the headers, row labels or caption")
