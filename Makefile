# The two commands a fresh machine needs: `make demo` and `make test` (each sets up .venv first).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
SHARED ?= ../shared

.PHONY: setup demo test lint bench-tables bench-map bench-genbench bench-audit bench-audit-real bench-release bench-probe bench-reproduce bench-faults bench-scale bench-audit-scale bench-extract-speed bench-sources bench-report-size bench-journals bench-calibration clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

setup: $(VENV)/.installed

# The demo paper has planted problems, so the audit exits 1 ("problems found"): that is success here.
demo: $(VENV)/.installed
	$(VENV)/bin/litaudit run --demo; status=$$?; [ $$status -le 1 ] || exit $$status

# pytest's exit 5 means it collected no test: a broken setup, never a pass
test: $(VENV)/.installed
	$(PY) -m pytest -q; status=$$?; [ $$status -ne 5 ] || echo "make test: pytest collected no tests" >&2; exit $$status

lint: $(VENV)/.installed
	$(VENV)/bin/ruff check pipeline tests benchmarks
	$(VENV)/bin/ruff format --check pipeline tests benchmarks

bench-tables: $(VENV)/.installed
	PATH=$(abspath $(VENV))/bin:$$PATH $(PY) $(SHARED)/bench/score_tables.py --gold $(SHARED)/corpus/gold --icdar \
		--systems project,camelot-stream,camelot-lattice,pdfplumber
	PATH=$(abspath $(VENV))/bin:$$PATH $(PY) $(SHARED)/bench/score_tables.py --gold benchmarks/gold_dev2 \
		--systems project,camelot-stream

bench-map: $(VENV)/.installed
	$(PY) benchmarks/bench_map.py

bench-genbench: $(VENV)/.installed
	$(PY) benchmarks/bench_genbench.py

bench-audit: $(VENV)/.installed
	$(PY) benchmarks/bench_audit.py --shared $(SHARED)

# Audit precision on the real papers of ../shared against benchmarks/realpapers/*.jsonl (work in .bench/realpapers/).
bench-audit-real: $(VENV)/.installed
	$(PY) benchmarks/bench_audit_real.py --shared $(SHARED)

bench-probe: $(VENV)/.installed
	$(PY) benchmarks/bench_probe.py

bench-reproduce: $(VENV)/.installed
	$(PY) benchmarks/bench_reproduce.py

# Journal layouts: label recall, tables over non-table regions, cell F1 beside camelot-stream, per paper and overall (../shared/corpus/journals and journals2).
bench-journals: $(VENV)/.installed
	PATH=$(abspath $(VENV))/bin:$$PATH $(PY) benchmarks/bench_journals.py --shared $(SHARED)

# Does confidence tell the truth? Bins against cell F1 and exact share, ECE, misread tables, a reliability plot.
bench-calibration: $(VENV)/.installed
	$(PY) benchmarks/bench_calibration.py --shared $(SHARED) --plot .bench/calibration.png

bench-extract-speed: $(VENV)/.installed
	$(PY) benchmarks/bench_extract_speed.py

bench-scale: $(VENV)/.installed
	$(PY) benchmarks/bench_scale.py

bench-audit-scale: $(VENV)/.installed
	$(PY) benchmarks/bench_audit_scale.py

bench-report-size: $(VENV)/.installed
	$(PY) benchmarks/bench_report_size.py

bench-faults: $(VENV)/.installed
	$(PY) benchmarks/bench_faults.py

# The LaTeX, HTML and Markdown readers on tables with exact truth, and PDF-vs-LaTeX agreement.
bench-sources: $(VENV)/.installed
	$(PY) benchmarks/bench_sources.py --shared $(SHARED)

bench-release: $(VENV)/.installed
	$(PY) benchmarks/bench_release.py

clean:
	rm -rf sources/*/ extracted/*/ audits/*/ releases/ .pytest_cache
