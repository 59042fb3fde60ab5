"""The results catalogue litaudit maps printed tables onto (config/catalogue/*.yaml)."""

from pipeline.catalogue.check import check_catalogue
from pipeline.catalogue.load import load_catalogue, resolve_catalogue_dir
from pipeline.catalogue.model import (
    DIRECTIONS,
    UNITS,
    BenchmarkDef,
    Catalogue,
    ConfigurationDef,
    DatasetDef,
    MetricDef,
    ProtocolDef,
    QuantityDef,
    Range,
    compact_label,
    normalize_label,
    slug,
    without_count,
)

__all__ = [
    "DIRECTIONS",
    "UNITS",
    "BenchmarkDef",
    "Catalogue",
    "ConfigurationDef",
    "DatasetDef",
    "MetricDef",
    "ProtocolDef",
    "QuantityDef",
    "Range",
    "check_catalogue",
    "compact_label",
    "load_catalogue",
    "normalize_label",
    "resolve_catalogue_dir",
    "slug",
    "without_count",
]
