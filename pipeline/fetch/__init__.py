"""The fetch stage: get each paper's PDF (arXiv or a local file), check it, hash it, record its provenance.

Public API (used by ``litaudit fetch`` and ``litaudit run``): :func:`load_source_entries`,
:func:`fetch_entry`, :func:`ingest_file`, :class:`SourceEntry`, :class:`FetchOutcome`.
"""

from pipeline.fetch.ids import SourceRef, parse_source_id
from pipeline.fetch.retrieve import (
    FETCHED,
    MISMATCH,
    PRESENT,
    VERIFIED,
    FetchOutcome,
    SourceMismatchError,
    fetch_entry,
    ingest_file,
)
from pipeline.fetch.sources import SourceEntry, load_source_entries

__all__ = [
    "FETCHED",
    "MISMATCH",
    "PRESENT",
    "VERIFIED",
    "FetchOutcome",
    "SourceEntry",
    "SourceMismatchError",
    "SourceRef",
    "fetch_entry",
    "ingest_file",
    "load_source_entries",
    "parse_source_id",
]
