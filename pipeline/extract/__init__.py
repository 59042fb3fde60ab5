"""The extract stage: every results table of a PDF as cells with values, styles, paths and locators.

Reading (chars, frame) -> arranging a page (words, columns, layout) -> finding tables (captions,
regions, uncaptioned, whitespace) -> structure (rows, grid, spans, wrapping, headers, lattice) ->
cells (values, style, assemble) -> linking parts over page breaks (continued). ``document`` runs it
for one PDF, ``stage`` for a fetched source, ``commands`` for bare files.
"""
