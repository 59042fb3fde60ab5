"""The map stage: printed table cells linked to the catalogue (extracted/<source>/mapping.json)."""
