"""A table region's words into a grid: rows, columns, header, spans, wrapped lines, stacked panels, ruled cells."""
