"""The shared data model: what every stage reads and writes.

Plain dataclasses; each has ``to_dict`` (JSON-ready) and ``from_dict`` (tolerant of extra keys, so
files written by a newer litaudit still load).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from pipeline.errors import BadLocatorError
from pipeline.numbers import parse_number, says_counts, trailing_marks

BBox = tuple[float, float, float, float]  # x0, top, x1, bottom in points, top-left origin (as pdfplumber)

T = TypeVar("T")


def _known(cls: type[T], data: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    return {k: v for k, v in data.items() if k in names}


def _bbox(value: Any) -> BBox | None:
    return None if value is None else tuple(float(v) for v in value)  # type: ignore[return-value]


@dataclass
class MissingMetadata:
    """A metadata field we could not fill, and why (the catalogue wants the reason, not a blank)."""

    field: str
    reason: str
    note: str = ""


@dataclass
class Verification:
    """A re-retrieval of a source whose hash was compared with the stored one."""

    method: str
    date: str
    sha256: str
    result: str  # "match" | "mismatch"
    note: str = ""


@dataclass
class SourceArtifact:
    """One stored file of a source: the PDF, a LaTeX tarball or .tex file, an HTML page or a Markdown file."""

    path: str  # relative to the workspace root
    kind: str  # "pdf" | "latex" | "html" | "markdown"
    media_type: str
    size: int
    sha256: str
    retrieved_at: str
    url: str | None = None  # where it was retrieved from (None for a local file)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SourceArtifact:
        return cls(**_known(cls, data))


@dataclass
class Source:
    """One fetched paper version: its files (the PDF and/or the authors' source) and where they came from.

    ``sha256``, ``size`` and ``media_type`` describe the primary artifact (the PDF when there is one): the
    hash every locator carries. ``artifacts`` lists every file; a record written before there could be
    several lists none, and ``files()`` reads its one PDF from the top-level fields.
    """

    id: str
    sha256: str
    size: int
    pdf_path: str | None  # relative to the workspace root; None for a source without a PDF
    retrieved_at: str
    media_type: str = "application/pdf"
    page_count: int | None = None
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    url: str | None = None
    artifact_url: str | None = None
    version: str | None = None
    published: str | None = None
    updated: str | None = None
    categories: list[str] = field(default_factory=list)
    publication_status: str | None = None
    licence: str | None = None
    notes: str | None = None
    missing_metadata: list[MissingMetadata] = field(default_factory=list)
    verifications: list[Verification] = field(default_factory=list)
    artifacts: list[SourceArtifact] = field(default_factory=list)

    def files(self) -> list[SourceArtifact]:
        """Every stored artifact, primary first (a single-PDF record of an older litaudit included)."""
        if self.artifacts or not self.pdf_path:
            return list(self.artifacts)
        pdf = SourceArtifact(self.pdf_path, "pdf", self.media_type, self.size, self.sha256, self.retrieved_at)
        return [dataclasses.replace(pdf, url=self.artifact_url)]

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Source:
        kw = _known(cls, data)
        kw["artifacts"] = [SourceArtifact.from_dict(a) for a in data.get("artifacts", [])]
        kw["missing_metadata"] = [
            MissingMetadata(**_known(MissingMetadata, m)) for m in data.get("missing_metadata", [])
        ]
        kw["verifications"] = [Verification(**_known(Verification, v)) for v in data.get("verifications", [])]
        return cls(**kw)


def panel_mark(panel: str | None) -> str:
    """The mark a sub-caption starts with: "(a) Bulk RNA expression" -> "(a)"."""
    text = (panel or "").strip()
    return text.split(" ", 1)[0] if text.startswith("(") else ""


def table_key(label: str | None, index: int, panel: str | None = None) -> str:
    """The table part of a locator id: "Table3", "Table3a" (panel (a)), "table-0" (unlabelled)."""
    return (label or f"table-{index}").replace(" ", "") + panel_mark(panel).strip("()")


def where_printed(page: int, artifact: str = "") -> str:
    """Where a table is, as a person looks it up: "page 3", or the stored file it was read from ("source.md")."""
    return artifact if artifact and not page else f"page {page}"


def _plain(obj: Any) -> dict[str, Any]:
    """A dataclass's fields by name, lists copied: the list fields of the table model hold plain values only.

    ``dataclasses.asdict`` deep-copies recursively, which made writing a tables file a tenth of extraction time.
    """
    return {f.name: list(v) if isinstance(v := getattr(obj, f.name), list) else v for f in dataclasses.fields(obj)}


# <sha>:p<page>:<table>:r<row>:c<col>, or with the stored file in place of the page for a text source's cell
_LOCATOR_ID = re.compile(
    r"(?P<source>[^:]*):(?:p(?P<page>[0-9]+)|(?P<artifact>[^:]+\.[^:]+)):(?P<table>.+):r(?P<row>[0-9]+):c(?P<col>[0-9]+)",
    re.S,
)


@dataclass(frozen=True)
class LocatorId:
    """A locator id read back (``Locator.parse``): the parts the id keeps, the labels a person reads left out."""

    source: str  # the first 12 hex digits of the source's sha256
    page: int
    table: str  # the table key: "Table3", "Table3a", "table-0"
    row: int
    col: int
    artifact: str = ""  # a text source's cell: the stored file it was read from, in place of the page

    @property
    def table_id(self) -> str:
        """The id of the cell's table: "<sha>:p<page>:<table>" (or "<sha>:<file>:<table>")."""
        return f"{self.source}:{self.artifact or f'p{self.page}'}:{self.table}"

    def __str__(self) -> str:
        return f"{self.table_id}:r{self.row}:c{self.col}"


@dataclass(frozen=True)
class Locator:
    """Where a printed number sits: stable id parts plus the labels a person reads."""

    source_sha256: str
    page: int
    table_label: str | None
    table_index: int
    row: int
    col: int
    row_label: str = ""
    col_label: str = ""
    panel: str = ""  # the panel's mark in a multi-panel table: "(a)"
    artifact: str = ""  # a cell read from a text source: the stored file ("source.md"); empty for a PDF cell
    place: str = ""  # and where in it: "main.tex:41:12", "source.md:7:3", "source.html:/html/body/table[1]/tr[2]/td[3]"

    @property
    def id(self) -> str:
        return str(self.key)

    @property
    def key(self) -> LocatorId:
        table = table_key(self.table_label, self.table_index, self.panel)
        return LocatorId(self.source_sha256[:12], self.page, table, self.row, self.col, self.artifact.replace(":", "_"))

    @classmethod
    def parse(cls, locator_id: str) -> LocatorId:
        """The parts of a locator id (``Locator.id``); the table key may hold colons, the other parts may not."""
        match = _LOCATOR_ID.fullmatch(locator_id)
        if match is None:
            raise BadLocatorError(f"locator {locator_id!r}: expected <sha>:p<page>:<table>:r<row>:c<col>")
        row, col = int(match["row"]), int(match["col"])
        page = int(match["page"]) if match["page"] else 0
        return LocatorId(match["source"], page, match["table"], row, col, match["artifact"] or "")

    @classmethod
    def of_cell(
        cls,
        source_sha256: str,
        table_label: str | None,
        table_index: int,
        row: int,
        col: int,
        row_path: Sequence[str],
        col_path: Sequence[str],
        *,
        page: int = 0,
        panel: str = "",
        artifact: str = "",
        place: str = "",
    ) -> Locator:
        """A cell's locator, its labels read off its row and column paths: one rule for every reader (a PDF
        cell has its ``page``; a text source's cell its ``artifact`` and ``place``)."""
        row_label, col_label = " / ".join(row_path), " ".join(col_path)
        return cls(
            source_sha256, page, table_label, table_index, row, col, row_label, col_label, panel, artifact, place
        )

    @property
    def readable(self) -> str:
        table = (
            self.table_label or f"Unlabelled table {self.table_index + 1} ({where_printed(self.page, self.artifact)})"
        )
        parts = [f"{table} {self.panel}" if self.panel else table]
        if self.row_label:
            parts.append(f"row '{self.row_label}'")
        else:
            parts.append(f"row {self.row}")
        if self.col_label:
            parts.append(f"column '{self.col_label}'")
        else:
            parts.append(f"column {self.col}")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {**_plain(self), "id": self.id, "readable": self.readable}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Locator:
        return cls(**_known(cls, data))


@dataclass
class SecondReading:
    """The same cell read from another artifact of the source (the LaTeX or HTML beside the PDF)."""

    text: str
    place: str  # where the other reading found it ("main.tex:41:12")
    agrees: bool  # whether it prints the same value (pipeline/readers/agreement.py)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SecondReading:
        return cls(**_known(cls, data))


@dataclass
class Cell:
    """One grid position of a table as printed (spanning cells sit at their top-left position)."""

    row: int
    col: int
    text: str
    row_span: int = 1
    col_span: int = 1
    bbox: BBox | None = None
    kind: str = "body"  # "header" | "stub" | "body"
    bold: bool = False
    italic: bool = False
    underline: bool = False
    value: float | None = None
    plus_minus: float | None = None
    percent: bool = False
    marks: list[str] = field(default_factory=list)
    row_path: list[str] = field(default_factory=list)
    col_path: list[str] = field(default_factory=list)
    locator: Locator | None = None
    second_reading: SecondReading | None = None
    reads: str = ""  # the text the number grammar read where the print hides it (a raised exponent or mark)

    @property
    def reading(self) -> str:
        """What the checks read: the text, with a raised exponent or mark set apart where it was printed so."""
        return self.reads or self.text

    @classmethod
    def printed(cls, row: int, col: int, text: str, kind: str = "body", reads: str = "", **fields: Any) -> Cell:
        """A cell whose value, spread, percent sign and marks are read from its text by the one number
        grammar (``pipeline.numbers``), a count with its share where its labels say "n (%)"; a header cell keeps
        its marks only. ``reads`` is the text to read
        where it differs from the printed one (a raised exponent marked, see ``mark_raised_tail``)."""
        labels = [*fields.get("col_path", ()), *fields.get("row_path", ())]
        number = parse_number(reads or text, counts=any(says_counts(label) for label in labels))
        marks = list(number.marks) if number is not None else trailing_marks(text)
        if number is not None and kind != "header":
            fields["value"], fields["percent"] = float(number.value), number.percent
            fields["plus_minus"] = float(number.plus_minus) if number.plus_minus is not None else None
        return cls(row, col, text, kind=kind, marks=marks, reads=reads if reads != text else "", **fields)

    def to_dict(self) -> dict[str, Any]:
        data = _plain(self)
        data["bbox"] = list(self.bbox) if self.bbox else None
        data["locator"] = self.locator.to_dict() if self.locator else None
        data["second_reading"] = dataclasses.asdict(self.second_reading) if self.second_reading else None
        if not self.reads:
            del data["reads"]  # most cells read as printed
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Cell:
        kw = _known(cls, data)
        kw["bbox"] = _bbox(data.get("bbox"))
        kw["locator"] = Locator.from_dict(data["locator"]) if data.get("locator") else None
        second = data.get("second_reading")
        kw["second_reading"] = SecondReading.from_dict(second) if second else None
        return cls(**kw)


@dataclass
class Table:
    """A table found in a PDF or read from a text source, with its caption and every cell."""

    index: int  # 0-based order of the table in its document
    page: int  # 1-based page of the table body (first page when continued)
    label: str | None
    caption: str
    bbox: BBox
    n_rows: int
    n_cols: int
    header_rows: int
    stub_cols: int
    cells: list[Cell] = field(default_factory=list)
    engine: str = ""
    confidence: float = 0.0
    caption_position: str | None = None  # "above" | "below" | None
    continued_pages: list[int] = field(default_factory=list)
    headless_pages: list[int] = field(default_factory=list)  # continued pages that print no header of their own
    notes: list[str] = field(default_factory=list)
    panel: str | None = None  # one panel of a multi-panel float: its sub-caption ("(a) Bulk RNA expression")
    artifact: str = ""  # a table read from a text source: the stored file; page is then 0 and bbox empty
    place: str = ""  # where the table starts in it ("main.tex:40:1")
    context: str = ""  # a text source's section around the table (heading, paragraphs): what its caption leaves unsaid

    @classmethod
    def from_grid(
        cls,
        grid: Sequence[Sequence[str | None]],
        header_rows: int = 1,
        stub_cols: int = 1,
        *,
        label: str | None = None,
        caption: str = "",
        page: int = 1,
        index: int = 0,
        spans: Iterable[dict[str, int]] = (),
        bold: Iterable[tuple[int, int]] = (),
    ) -> Table:
        """A table typed by hand or read from a gold file: ``grid`` holds each position's printed text, None
        where a spanning cell covers it; values are read by the one number grammar, as extraction reads them."""
        span_of = {(s["row"], s["col"]): (s.get("row_span", 1), s.get("col_span", 1)) for s in spans}
        bold_at = {tuple(p) for p in bold}
        cells = []
        for r, row in enumerate(grid):
            for c, text in enumerate(row):
                if text is None:
                    continue
                kind = "header" if r < header_rows else ("stub" if c < stub_cols else "body")
                row_span, col_span = span_of.get((r, c), (1, 1))
                cells.append(
                    Cell.printed(r, c, text, kind, row_span=row_span, col_span=col_span, bold=(r, c) in bold_at)
                )
        n_cols = max((len(row) for row in grid), default=0)
        box = (0.0, 0.0, 0.0, 0.0)
        return cls(index, page, label, caption, box, len(grid), n_cols, header_rows, stub_cols, cells, "grid", 1.0)

    @property
    def panel_mark(self) -> str:
        """The panel's mark ("(a)"), empty for a table without panels."""
        return panel_mark(self.panel)

    @property
    def panel_title(self) -> str:
        """The panel's sub-caption without its mark ("Bulk RNA expression")."""
        return (self.panel or "")[len(self.panel_mark) :].strip()

    def cell_at(self, row: int, col: int) -> Cell | None:
        """The cell covering (row, col), spans included."""
        for cell in self.cells:
            if cell.row <= row < cell.row + cell.row_span and cell.col <= col < cell.col + cell.col_span:
                return cell
        return None

    def grid(self) -> list[list[str | None]]:
        """The table as rows of text; None where a spanning cell covers the position."""
        rows: list[list[str | None]] = [[""] * self.n_cols for _ in range(self.n_rows)]
        for cell in self.cells:
            for r in range(cell.row, min(cell.row + cell.row_span, self.n_rows)):
                for c in range(cell.col, min(cell.col + cell.col_span, self.n_cols)):
                    rows[r][c] = None
            if cell.row < self.n_rows and cell.col < self.n_cols:
                rows[cell.row][cell.col] = cell.text
        return rows

    def to_dict(self) -> dict[str, Any]:
        data = _plain(self)
        data["bbox"] = list(self.bbox)
        data["cells"] = [c.to_dict() for c in self.cells]
        if not self.context:  # a PDF's tables have none: their files stay as they were
            del data["context"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Table:
        kw = _known(cls, data)
        kw["bbox"] = _bbox(data["bbox"])
        kw["cells"] = [Cell.from_dict(c) for c in data.get("cells", [])]
        return cls(**kw)


FIGURE_CONFIDENCE = 0.1  # a region that looks like a figure is no table: far below any needs-check bar


@dataclass
class Figure:
    """A region that a table search found but that looks like (part of) a figure: kept apart from the
    tables, with why, so that no stage reads, maps or audits it as one."""

    page: int
    bbox: BBox
    reason: str
    confidence: float = FIGURE_CONFIDENCE

    def to_dict(self) -> dict[str, Any]:
        return {**_plain(self), "bbox": list(self.bbox)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Figure:
        return cls(**{**_known(cls, data), "bbox": _bbox(data["bbox"])})


@dataclass
class TablesFile:
    """The extract stage's output (extracted/<source>/tables.json)."""

    source: dict[str, Any]  # at least id and sha256
    extractor: dict[str, Any]  # version and settings
    tables: list[Table] = field(default_factory=list)
    pages: int | None = None
    errors: list[str] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)  # regions set aside as figures, not tables

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "extractor": self.extractor,
            "pages": self.pages,
            "errors": self.errors,
            "tables": [t.to_dict() for t in self.tables],
            "figures": [f.to_dict() for f in self.figures],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TablesFile:
        kw = _known(cls, data)
        kw["tables"] = [Table.from_dict(t) for t in data.get("tables", [])]
        kw["figures"] = [Figure.from_dict(f) for f in data.get("figures", [])]
        return cls(**kw)


@dataclass
class Record:
    """One printed result, mapped to the catalogue, traceable to its cell (records.jsonl)."""

    id: str
    source_id: str
    source_sha256: str
    table_label: str | None
    page: int
    bbox: BBox | None
    locator: str  # Locator.id
    locator_readable: str
    printed: str  # the cell's text exactly as printed
    value: float | None
    plus_minus: float | None
    percent: bool
    metric: str | None
    unit: str | None
    direction: str | None
    configuration: str | None
    model: str | None
    protocol: str | None
    dataset: str | None
    benchmark: str | None
    catalogue_value: float | None = None  # value in the catalogue's unit (after any rescale)
    rescale: str | None = None
    uncertainty: str = "Not reported by the source"
    aggregation: str = "Not reported"
    also_published_in: list[str] = field(default_factory=list)  # where the same data appear in other benchmarks
    evidence_origin: str = "Independent external evaluation (literature extraction)"
    review_status: str = "catalogued"
    mapping: dict[str, Any] = field(default_factory=dict)  # scores, reasons, alternatives, manual pins
    limitations: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)  # Finding ids
    reproduction: dict[str, Any] | None = None  # verdict, value, interval (pipeline/reproductions.py)
    evidence: str = "one reading"  # "two readings" when the authors' source prints the same; "readings disagree"
    regime: str | None = None  # "full-shot", "10-shot": the data regime printed with the value, when it is

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["bbox"] = list(self.bbox) if self.bbox else None
        if self.regime is None:  # most papers print none: their records stay as they were
            del data["regime"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        kw = _known(cls, data)
        kw["bbox"] = _bbox(data.get("bbox"))
        return cls(**kw)


@dataclass
class Finding:
    """One inconsistency found by an audit check, pointing at the cells it concerns."""

    id: str
    check: str
    severity: str  # "error" | "warning" | "needs-check" | "info"
    message: str
    source_id: str
    table_label: str | None = None
    locators: list[str] = field(default_factory=list)  # Locator ids
    locators_readable: list[str] = field(default_factory=list)
    expected: Any = None
    found: Any = None
    tolerance: Any = None
    record_ids: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    certainty: str = ""  # "proved" | "likely" | "unsure" | "declined" (pipeline/audit/checks/base.py)
    reason: str = ""  # why the finding is no more certain than that (empty for a proof)
    confidence: float | None = None  # the extractor's confidence in the table the finding points at

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def is_limitation(self) -> bool:
        """Whether the finding limits the records it concerns: an error or warning, one marked as a limitation
        (by its check, or accepted by a reviewer), never one a reviewer dismissed (``details["review"]``)."""
        review = self.details.get("review") or {}
        if review.get("decision") == "dismiss":
            return False
        return self.severity in ("error", "warning") or bool(self.details.get("limitation"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Finding:
        return cls(**_known(cls, data))
