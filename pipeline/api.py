"""litaudit as a library: each stage's pure core, with no workspace and no files written.

The staged commands wrap these functions with the workspace's I/O (hashes, state, atomic writes); a
Python user who wants a paper's tables, their links to the catalogue, the records or the audit's
findings calls them directly. The examples run as doctests (tests/test_api.py), one after another on
the demo paper, as in::

    >>> import tempfile
    >>> from pipeline import audit_tables, build_records, extract_tables, load_catalogue, map_tables
    >>> from pipeline import paper_text, write_demo_paper
    >>> pdf = write_demo_paper(Path(tempfile.mkdtemp()) / "demo.pdf")
    >>> tables = extract_tables(pdf)
    >>> catalogue = load_catalogue()
    >>> mapping = map_tables(tables, catalogue)
    >>> records = build_records(tables, mapping)
    >>> findings = audit_tables(tables, catalogue, paper_text(pdf, tables), records)
    >>> len(tables.tables), len(records), findings[0].check
    (7, 103, 'aggregate-row')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipeline.audit.checks import run_checks
from pipeline.audit.context import AuditInput
from pipeline.audit.settings import AuditSettings
from pipeline.audit.text import PaperText, Sentence, read_paper_text, split_sentences
from pipeline.catalogue import Catalogue
from pipeline.catalogue import load_catalogue as _load_catalogue
from pipeline.catalogue.load import BUNDLED_DIR, read_catalogue_dir
from pipeline.emit.records import build_records as _build_records
from pipeline.extract.document.tables import extract_tables as _extract_tables
from pipeline.extract.settings import ExtractionSettings
from pipeline.mapping.document import map_tables as _map_tables
from pipeline.mapping.model import MappingFile
from pipeline.mapping.settings import MapSettings
from pipeline.model import Finding, Record, TablesFile


def extract_tables(pdf: str | Path, settings: ExtractionSettings | None = None) -> TablesFile:
    """Every table of a PDF, each cell with its locator, text, parsed value and style.

    >>> tables = extract_tables(pdf)
    >>> [t.label for t in tables.tables][:3]
    ['Table 1', 'Table 2', 'Table 3']
    >>> table = tables.tables[0]
    >>> table.page, table.cell_at(1, 1).text, table.cell_at(1, 1).value
    (1, '0.912', 0.912)
    """
    return _extract_tables(Path(pdf), settings)


def load_catalogue(config_dir: str | Path | None = None) -> Catalogue:
    """The catalogue of a workspace's ``config/`` folder, or the one shipped with litaudit.

    >>> catalogue = load_catalogue()
    >>> catalogue.dataset("genbench-bulk-rna-expression").name
    'GenBench Bulk RNA expression'
    """
    if config_dir is None:
        return read_catalogue_dir(BUNDLED_DIR)
    return _load_catalogue(Path(config_dir))


def map_tables(tables: TablesFile, catalogue: Catalogue, settings: MapSettings | None = None) -> MappingFile:
    """Each value cell linked to a dataset, a configuration and a metric of the catalogue, with scores and
    reasons, or listed as unmapped with the reason.

    >>> mapping = map_tables(tables, catalogue)
    >>> first = mapping.tables[0].cells[0]
    >>> first.dataset.name
    'GenBench Long-range splice site prediction (Splice acceptor)'
    >>> first.configuration.name, first.metric.name, first.dataset.score
    ('NT (GenBench)', 'Area under the ROC curve', 100.0)
    """
    return _map_tables(tables, catalogue, settings=settings)


def build_records(tables: TablesFile, mapping: MappingFile) -> list[Record]:
    """One review-ready record per mapped cell, each traceable to its cell through its locator.

    >>> records = build_records(tables, mapping)
    >>> records[0].value, records[0].locator_readable
    (0.912, "Table 1, row 'Splice acceptor', column 'NT'")
    """
    return _build_records(tables, mapping)


def paper_text(pdf: str | Path, tables: TablesFile | None = None) -> PaperText:
    """A PDF's body text in sentences, without the contents and captions of ``tables``: what the audit's
    text checks read (where a metric is defined, what the prose claims).

    >>> text = paper_text(pdf, tables)
    >>> any("AUROC" in s.text for s in text.sentences)
    True
    """
    return read_paper_text(Path(pdf), tables.tables if tables else ())


def audit_tables(
    tables: TablesFile,
    catalogue: Catalogue | None = None,
    text: PaperText | str | None = None,
    records: Sequence[Record] | None = None,
    settings: AuditSettings | None = None,
) -> list[Finding]:
    """The audit's findings for tables, most severe first. ``text``: the paper's text (from
    :func:`paper_text`, or a plain string); the checks that need what is missing are skipped.

    >>> findings = audit_tables(tables, catalogue, paper_text(pdf, tables), records)
    >>> sorted({f.check for f in findings if f.severity == "error"})
    ['aggregate-row', 'value-out-of-range']
    >>> findings[0].check, findings[0].locators_readable[0]
    ('aggregate-row', "Table 2, row 'Mean', column 'Caduceus'")
    """
    if isinstance(text, str):
        text = PaperText([Sentence(0, s) for s in split_sentences(text)])
    sha = str(tables.source.get("sha256", ""))
    source_id = str(tables.source.get("id", ""))
    inp = AuditInput(
        source_id,
        sha,
        tables.tables,
        text,
        catalogue,
        list(records) if records is not None else None,
        settings=settings or AuditSettings(),
    )
    return run_checks(inp).findings
