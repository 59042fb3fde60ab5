"""Mapping one table: its orientation and benchmark, then a dataset, a configuration and a metric per value cell."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from pipeline.catalogue import DatasetDef, MetricDef, Range
from pipeline.mapping.aggregates import aggregation_note, table_name
from pipeline.mapping.benchmark import choose_benchmark
from pipeline.mapping.links import LabelPath, Linker, manual_link
from pipeline.mapping.metric_link import link_metric
from pipeline.mapping.metrics import percent_mark
from pipeline.mapping.model import MODELS_IN_COLUMNS, CatalogueFacts, CellMapping, Link, TableMapping, UnmappedCell
from pipeline.mapping.orientation import AxisEvidence, decide_orientation
from pipeline.mapping.overrides import SourcePins, TablePins
from pipeline.mapping.paths import ValueCell, value_cells
from pipeline.mapping.regime import regime_of
from pipeline.mapping.scale import percent_share, scale_for
from pipeline.model import Table


@dataclass
class _Linked:
    """A value cell with its three links, before scales are decided for the whole table."""

    value: ValueCell
    dataset: Link
    configuration: Link
    metric: Link
    dataset_path: LabelPath
    model_path: LabelPath

    @property
    def links(self) -> tuple[Link, Link, Link]:
        return self.dataset, self.configuration, self.metric

    @property
    def complete(self) -> bool:
        return all(link.id is not None for link in self.links)


_WORD = re.compile(r"[^\W\d_]{2,}")


def prose_columns(table: Table) -> dict[int, str]:
    """Body columns most of whose cells are phrases ("full, 10-shot, 1-shot", "5 random seeds"): the values of a
    fact sheet ("Genomic foundation models | 40"), whose few numbers are counts and settings. Short marks
    ("OOM", "N/A", "-") in a results column are not phrases."""
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    for cell in table.cells:
        if cell.kind == "body" and cell.text.strip():
            counts[cell.col][0] += 1
            counts[cell.col][1] += len(_WORD.findall(cell.text)) >= 2
    return {col: f"{phrases} of {n}" for col, (n, phrases) in counts.items() if phrases * 2 >= n}


def _titled(title: str, path: tuple[str, ...]) -> tuple[str, ...]:
    """A panel title before a label path, unless the path already prints it."""
    return path if any(title.casefold() == p.casefold() for p in path) else (title, *path)


class TableMapper:
    """Maps the value cells of one table; links for a label are made once and shared by its cells."""

    def __init__(
        self, table: Table, linker: Linker, pins: SourcePins, document: str | None = None, own: str | None = None
    ) -> None:
        self.table = table
        self.document = document  # the benchmark most of the paper's other tables report
        self.own = own  # the benchmark the paper introduces
        self.linker = linker
        self.pins = pins
        self.key = table.label or f"table-{table.index}"
        self.name = table_name(table.label, table.index, table.page, table.artifact)
        self._datasets: dict[tuple[str, ...], Link] = {}
        self._configurations: dict[tuple[tuple[str, ...], str | None], Link] = {}
        self.context: tuple[str, ...] = ()  # tasks the caption names
        self.prose_columns = prose_columns(table)
        # The header of the stub column ("Dataset (Top-1 %)"): it may name the metric of the whole table.
        self.corner = " ".join(
            c.text.strip() for c in table.cells if c.row < table.header_rows and c.col < max(table.stub_cols, 1)
        ).strip()

    def map(self, source_sha256: str) -> TableMapping:
        table = self.table
        result = TableMapping(table.index, table.label, table.page, "mapped")
        cells = value_cells(table, source_sha256)
        if not cells:
            result.status = "no values"
            return result
        table_pins = self.pins.table(table.label, table.index) or TablePins()
        if table_pins.ignore:
            result.status = "ignored"
            result.orientation_reason = "ignored by a pin in config/overrides.yaml"
            return result
        rows = {(vc.row_path, vc.row_texts): self.linker.clean(vc.row_path, vc.row_texts) for vc in cells}
        columns = {vc.col_path: self.linker.clean(vc.col_path) for vc in cells}
        threshold = self.linker.settings.threshold
        result.orientation, result.orientation_reason = decide_orientation(
            AxisEvidence.of([self.linker.best_scores(p) for p in rows.values()], threshold),
            AxisEvidence.of([self.linker.best_scores(p) for p in columns.values()], threshold),
        )
        by_columns = result.orientation == MODELS_IN_COLUMNS
        if table.panel_title:  # the panel's sub-caption heads its dataset labels, as a group row would
            if by_columns:
                rows = {k: self.linker.clean(_titled(table.panel_title, k[0]), k[1]) for k in rows}
            else:
                columns = {k: self.linker.clean(_titled(table.panel_title, k)) for k in columns}
        dataset_axis, model_axis = (rows, columns) if by_columns else (columns, rows)
        self.context = self.linker.caption_tasks(table.caption)
        if table_pins.benchmark:
            name = self.linker.catalogue.benchmark(table_pins.benchmark).name
            result.benchmark = manual_link("benchmark", table_pins.benchmark, name, self.key, f"table '{self.key}'")
        else:
            where = "row" if by_columns else "column"
            paths = list(dataset_axis.values()), list(model_axis.values())
            result.benchmark = choose_benchmark(
                self.linker, *paths, table.caption, where, self.context, self.document, self.own
            )
        linked = []
        for vc in cells:
            row, column = rows[(vc.row_path, vc.row_texts)], columns[vc.col_path]
            pinned = table_pins.metric or self.pins.cells.get(vc.locator.id)
            reason = None if pinned else self._not_a_result(row, column, vc.cell.col)
            if reason:
                cell = vc.cell
                result.skipped.append(
                    UnmappedCell(cell.row, cell.col, vc.locator.id, vc.locator.readable, cell.text, [reason])
                )
                continue
            dataset_path, model_path = (row, column) if by_columns else (column, row)
            linked.append(self._link_cell(vc, dataset_path, model_path, by_columns, result.benchmark.id, table_pins))
        self._finish(result, linked)
        return result

    def _not_a_result(self, row: LabelPath, column: LabelPath, col: int) -> str | None:
        """Why the numbers under a label are settings or statistics rather than scores (None when they are not)."""
        for where, path, label in (("row", row, row.text), ("column", column, " ".join(column.printed))):
            if path.quantities:
                return f"the {where} label '{label}' names {path.quantities[0].name}: not a result"
        if col in self.prose_columns and not (row.metrics or column.metrics):
            return f"column {col + 1} prints mostly phrases ({self.prose_columns[col]} cells): facts, not results"
        caption = self.table.caption
        quantities = self.linker.quantities.find(caption)
        if quantities and not (row.metrics or column.metrics or self.linker.metrics.find(caption)):
            return f"the caption names {quantities[0].name} and no metric is printed: not a result"
        return None

    def _link_cell(
        self,
        vc: ValueCell,
        dataset_path: LabelPath,
        model_path: LabelPath,
        by_columns: bool,
        benchmark: str | None,
        table_pins: TablePins,
    ) -> _Linked:
        catalogue = self.linker.catalogue
        dataset_where, model_where = ("row", "column") if by_columns else ("column", "row")
        cell_pins = self.pins.cell(vc.locator.id)
        where = f"cell '{vc.locator.id}'"
        if cell_pins and cell_pins.dataset:
            dataset = manual_link(
                "dataset", cell_pins.dataset, catalogue.dataset(cell_pins.dataset).name, vc.cell.text, where
            )
        else:
            dataset = self._dataset_link(dataset_path, dataset_where, benchmark, table_pins)
        dataset_def = catalogue.dataset(dataset.id) if dataset.id else None
        config_benchmark = dataset_def.benchmark if dataset_def else benchmark
        if cell_pins and cell_pins.configuration:
            name = catalogue.configuration(cell_pins.configuration).name
            configuration = manual_link("configuration", cell_pins.configuration, name, vc.cell.text, where)
        else:
            configuration = self._configuration_link(model_path, model_where, config_benchmark, table_pins)
        metric_id = (cell_pins.metric if cell_pins else None) or table_pins.metric
        if metric_id:
            pin_where = where if cell_pins and cell_pins.metric else f"table '{self.key}'"
            metric = manual_link("metric", metric_id, catalogue.metric(metric_id).name, vc.cell.text, pin_where)
        else:
            row_path = dataset_path if by_columns else model_path
            column_path = model_path if by_columns else dataset_path
            metric = link_metric(
                self.linker, row_path, column_path, self.table.caption, dataset_def, self.corner, self.table.context
            )
        return _Linked(vc, dataset, configuration, metric, dataset_path, model_path)

    def _dataset_link(self, path: LabelPath, where: str, benchmark: str | None, pins: TablePins) -> Link:
        pinned = self.pins.label(self.key, "datasets", pins.datasets, path.printed)
        if pinned:
            name = self.linker.catalogue.dataset(pinned[1]).name
            return manual_link("dataset", pinned[1], name, pinned[0], f"table '{self.key}' datasets")
        if path.printed not in self._datasets:
            link = self.linker.link_dataset(path, where, benchmark, self.context)
            if link.id is None and not path.names:
                link = self.linker.dataset_in_caption(self.table.caption, benchmark) or link
            self._datasets[path.printed] = link
        return self._datasets[path.printed]

    def _configuration_link(self, path: LabelPath, where: str, benchmark: str | None, pins: TablePins) -> Link:
        pinned = self.pins.label(self.key, "configurations", pins.configurations, path.printed)
        if pinned:
            name = self.linker.catalogue.configuration(pinned[1]).name
            return manual_link("configuration", pinned[1], name, pinned[0], f"table '{self.key}' configurations")
        key = (path.printed, benchmark)
        if key not in self._configurations:
            self._configurations[key] = self.linker.link_configuration(path, where, benchmark)
        return self._configurations[key]

    def _finish(self, result: TableMapping, linked: list[_Linked]) -> None:
        """Scales per metric over the whole table, aggregation notes, and the list of unmapped cells."""
        catalogue = self.linker.catalogue
        values: dict[str, list[float]] = defaultdict(list)
        for item in linked:
            if item.complete:
                values[str(item.metric.id)].append(float(item.value.cell.value or 0.0))
        for item in linked:
            vc = item.value
            if not item.complete:
                reasons = [f"{link.kind}: {link.reason}" for link in item.links if link.id is None]
                result.unmapped.append(
                    UnmappedCell(
                        vc.cell.row,
                        vc.cell.col,
                        vc.locator.id,
                        vc.locator.readable,
                        vc.cell.text,
                        reasons,
                        [*item.links],
                    )
                )
                continue
            dataset = catalogue.dataset(str(item.dataset.id))
            metric = catalogue.metric(str(item.metric.id))
            percent, why = self._percent(item, values[metric.id], catalogue.valid_range(dataset, metric), metric)
            result.cells.append(
                CellMapping(
                    row=vc.cell.row,
                    col=vc.cell.col,
                    locator=vc.locator.id,
                    locator_readable=vc.locator.readable,
                    text=vc.cell.text,
                    dataset=item.dataset,
                    configuration=item.configuration,
                    metric=item.metric,
                    scale=scale_for(float(vc.cell.value or 0.0), metric, percent, why),
                    facts=self._facts(dataset, str(item.configuration.id), metric, item.metric.printed_as),
                    aggregation=aggregation_note(catalogue, dataset, item.dataset_path.aggregate_word, self.name),
                    regime=regime_of(vc.row_path, vc.col_path, self.table.caption, self.table.context)[0],
                )
            )

    def _facts(
        self, dataset: DatasetDef, configuration_id: str, metric: MetricDef, printed_as: str | None
    ) -> CatalogueFacts:
        catalogue = self.linker.catalogue
        return CatalogueFacts(
            benchmark=dataset.benchmark,
            benchmark_name=catalogue.benchmark(dataset.benchmark).name,
            protocol=dataset.protocol,
            protocol_name=catalogue.protocol(dataset.protocol).name,
            model=catalogue.configuration(configuration_id).model,
            unit=metric.unit,
            direction=metric.direction,
            metric_standard=catalogue.metric(printed_as).standard if printed_as else metric.standard,
            valid_range=catalogue.valid_range(dataset, metric),
            also_published_in=dataset.also_published_in,
        )

    def _percent(self, item: _Linked, values: list[float], bounds: Range, metric: MetricDef) -> tuple[bool, str]:
        """Whether the cell is printed in percent, and the evidence."""
        vc = item.value
        if vc.cell.percent:
            return True, f"'%' printed in the cell '{vc.cell.text}'"
        for path in (item.dataset_path, item.model_path):
            if path.percent:
                return True, f"'%' in the label '{' '.join(path.printed)}'"
        share = percent_share(values, metric, bounds)
        marks = [
            (where, percent_mark(text))
            for where, text in (("caption", self.table.caption), ("table corner", self.corner))
        ]
        printed = [(where, mark) for where, mark in marks if mark]
        settings = self.linker.settings
        if share >= settings.infer_share or (printed and share > settings.caption_share):
            count = round(share * len(values))
            why = f"{count} of {len(values)} {metric.name} values in this table lie between {bounds[1]:g} and 100"
            return True, why + "".join(f"; the {where} prints '{mark}'" for where, mark in printed)
        return False, ""
