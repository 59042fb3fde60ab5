"""The audit stage: checks that flag inconsistencies in a paper's tables, and the reviewer's reports.

The checks work on data (Tables, the paper's text, the catalogue, the records) so that a benchmark
can seed errors into Table objects directly; ``stage.run`` is the thin I/O layer around them.
"""
