"""A text source is read under a size limit (the extract setting max_text_bytes): one line naming the file and
the limit when it is larger, a setting to raise it, and the limit checked before the file is read whole."""

from __future__ import annotations

import gzip
import io
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from papers.geneb_readme import readme

from pipeline.extract.settings import MAX_TEXT_BYTES, ExtractionSettings
from pipeline.readers import read_artifact
from pipeline.readers.limits import TextTooLargeError

SHA = "0" * 64
TABLE = "| Model | MCC |\n|---|---|\n| A | 0.81 |\n| B | 0.77 |\n"


def cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pipeline", "--root", str(root), *args]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _latex(tmp_path: Path, size: int) -> dict[str, Path]:
    body = "\\begin{table}\\caption{MCC.}\\begin{tabular}{ll}Model & MCC \\\\ A & 0.81 \\\\\\end{tabular}\\end{table}\n"
    text = (body + "%" * max(size - len(body) - 1, 0) + "\n").encode()
    tex, gz, tarball = tmp_path / "main.tex", tmp_path / "main.tex.gz", tmp_path / "source.tar.gz"
    tex.write_bytes(text)
    gz.write_bytes(gzip.compress(text))
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name in ("ms.tex", "appendix.tex"):  # together over the limit, each under it
            info = tarfile.TarInfo(name)
            info.size = len(text)
            archive.addfile(info, io.BytesIO(text))
    tarball.write_bytes(out.getvalue())
    return {"tex": tex, "tex.gz": gz, "tarball": tarball}


def test_the_default_limit_refuses_a_larger_markdown_file_before_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "README.md"
    with big.open("w") as handle:  # a real Markdown leaderboard just over the limit
        while handle.tell() <= MAX_TEXT_BYTES:
            handle.write(TABLE * 200 + "\n")
    with pytest.raises(TextTooLargeError) as raised:
        read_artifact("markdown", big, SHA)
    message = str(raised.value)
    assert message.startswith(f"{big}: {big.stat().st_size} bytes of text, over the limit of {MAX_TEXT_BYTES} bytes")
    assert "--set extract.max_text_bytes=N" in message and "\n" not in message
    assert ExtractionSettings().max_text_bytes == MAX_TEXT_BYTES


@pytest.mark.parametrize("form", ["tex", "tex.gz", "tarball"])
def test_a_latex_source_is_held_to_the_limit_in_every_form(tmp_path: Path, form: str) -> None:
    path = _latex(tmp_path, 3000)[form]
    limit = 4000 if form == "tarball" else 2000  # the tarball's two files are over it together, not alone
    with pytest.raises(TextTooLargeError, match=f"over the limit of {limit} bytes"):
        read_artifact("latex", path, SHA, limit=limit)
    tables, _ = read_artifact("latex", path, SHA, limit=10_000)
    assert [c.text for c in tables[0].cells if c.row == 1] == ["A", "0.81"]


def test_an_html_page_over_the_limit_is_named(tmp_path: Path) -> None:
    page = tmp_path / "paper.html"
    page.write_text("<html><body><table><tr><td>A</td><td>0.81</td></tr></table>" + "<p>x</p>" * 500 + "</body></html>")
    with pytest.raises(TextTooLargeError, match=f"^{page}: "):
        read_artifact("html", page, SHA, limit=1000)
    assert read_artifact("html", page, SHA, limit=100_000)[0]


def test_extract_refuses_in_one_line_and_a_setting_raises_the_limit(tmp_path: Path) -> None:
    root, source = tmp_path / "ws", tmp_path / "README.md"
    source.write_text(readme())
    size = source.stat().st_size
    assert cli(root, "fetch", "--file", str(source), "--id", "local:board").returncode == 0
    refused = cli(root, "extract", "--set", f"max_text_bytes={size - 1}", "--json")
    assert refused.returncode == 2
    [line] = refused.stderr.splitlines()
    stored = root / "sources" / "local_board" / "source.md"
    assert line == (
        f"litaudit: error: extract local:board: {stored}: {size} bytes of text, over the limit of {size - 1} bytes "
        "for a text source (raise it with --set extract.max_text_bytes=N or in config/extract.yaml)"
    )
    assert not (root / "extracted" / "local_board" / "tables.json").exists()
    (root / "config").mkdir(exist_ok=True)
    (root / "config" / "extract.yaml").write_text(f"max_text_bytes: {size}\n")
    done = cli(root, "extract", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["results"][0]["summary"]["tables"] >= 2
