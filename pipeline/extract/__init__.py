"""The extract stage: every results table of a PDF as cells with values, styles, paths and locators.

Reading (chars, graphics, weight, frame) -> arranging a page (words, columns, minipages, layout) ->
finding tables (captions, regions, sides, uncaptioned, whitespace) -> structure (rows, straddle, grid,
spans, wrapping, headers, lattice) -> cells (values, style, assemble) -> linking parts over page breaks
(continued). ``document`` runs it for one PDF, ``stage`` for a fetched source, ``commands`` for bare files.
"""
