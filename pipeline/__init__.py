"""litaudit: turn the results tables of published papers into audited, citable records."""

__version__ = "0.1.0"
