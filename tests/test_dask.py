"""The Dask executor: the same outputs as a serial run, byte for byte, from workers that never see the
workspace; a worker lost mid-job is retried and leaves no partial file; a cluster that cannot be reached is
one line."""

from __future__ import annotations

import hashlib
import logging
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing, suppress
from pathlib import Path

import pytest
from conftest import interrupt, litaudit, start_litaudit
from stage_doubles import add_source_file

from pipeline.executor import DaskExecutor
from pipeline.remote import run_detached
from pipeline.runner import Job
from pipeline.settings import Settings
from pipeline.stages import Stage
from pipeline.state import source_status, stage_state
from pipeline.store import Workspace

pytest.importorskip("distributed")  # the dask extra (in dev)


def digests(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in ("extracted", "audits")
        for p in sorted((root / folder).rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


@pytest.fixture(scope="module")
def fetched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two sources fetched, no stage run yet."""
    root = tmp_path_factory.mktemp("ws")
    assert litaudit(root, "run", "--demo").exit_code == 1
    pdf = root / "sources" / "local_demo" / "source.pdf"
    assert litaudit(root, "fetch", "--file", str(pdf), "--id", "local:other").exit_code == 0
    for folder in ("extracted", "audits"):
        shutil.rmtree(root / folder)
    return root


@pytest.mark.slow
@pytest.mark.parametrize("shared", [False, True], ids=["bytes-shipped", "shared-fs"])
def test_a_dask_run_writes_what_a_serial_run_writes(fetched: Path, tmp_path: Path, shared: bool) -> None:
    serial, dask = (Path(shutil.copytree(fetched, tmp_path / name)) for name in ("serial", "dask"))
    assert litaudit(serial, "run").exit_code == 1
    args = ["run", "--executor", "dask", "--jobs", "2", *(["--shared-fs"] if shared else [])]
    result = litaudit(dask, *args)
    assert result.exit_code == 1, result.output
    assert digests(dask) == digests(serial)
    for sid in ("local:demo", "local:other"):
        assert {s.state for s in source_status(Workspace(dask), sid).stages.values()} == {"done"}


FLAKY = Stage(
    "flaky", "stage_doubles:die_once_stage", inputs=("sources/{sid}/source.pdf",), outputs=("extracted/{sid}/copy.txt",)
)


@pytest.mark.slow
def test_a_worker_lost_mid_job_is_retried_and_leaves_no_partial_file(
    workspace: Workspace, settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LITAUDIT_TEST_MARKER", str(tmp_path / "died"))
    add_source_file(workspace, "local:a", "hello")
    with closing(DaskExecutor(1)) as executor:
        results = list(run_detached(workspace, executor, [Job(FLAKY, "local:a", settings)]))
    assert [(r.status, r.exit_code) for r in results] == [("done", 0)]
    assert (tmp_path / "died").read_text() == "died once"  # the first worker really died
    assert (workspace.extracted_dir("local:a") / "copy.txt").read_text() == "HELLO"
    assert stage_state(workspace, FLAKY, "local:a").state == "done"


def test_an_unreachable_scheduler_is_one_line(fetched: Path, tmp_path: Path) -> None:
    root = Path(shutil.copytree(fetched, tmp_path / "ws"))
    result = litaudit(root, "extract", "--scheduler", "tcp://127.0.0.1:9", "--json")
    assert result.exit_code == 2
    assert result.stderr.startswith("litaudit: error: dask scheduler tcp://127.0.0.1:9: cannot connect")
    assert not (root / "extracted").exists()  # nothing written


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[str]:
    """A real `dask scheduler` and `dask worker` pair on loopback, as a user would start them."""
    address = f"tcp://127.0.0.1:{_free_port()}"
    dask = str(Path(sys.executable).parent / "dask")
    logs = (tmp_path / "scheduler.log").open("w"), (tmp_path / "worker.log").open("w")
    scheduler = subprocess.Popen(
        [dask, "scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1], "--no-dashboard"],
        stdout=logs[0], stderr=subprocess.STDOUT,
    )  # fmt: skip
    worker = subprocess.Popen(
        [dask, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-dashboard", "--local-directory",
         str(tmp_path / "worker")],
        stdout=logs[1], stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield address
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait(timeout=30)
        for log in logs:
            log.close()


@pytest.mark.slow
def test_a_run_on_a_started_scheduler_and_worker_writes_what_a_serial_run_writes(
    fetched: Path, tmp_path: Path, cluster: str
) -> None:
    serial, remote = (Path(shutil.copytree(fetched, tmp_path / name)) for name in ("serial", "remote"))
    assert litaudit(serial, "run").exit_code == 1
    result = litaudit(remote, "run", "--scheduler", cluster)
    assert result.exit_code == 1, result.output
    assert digests(remote) == digests(serial)


@pytest.mark.slow
@pytest.mark.parametrize("group", [False, True], ids=["to-the-client", "in-a-terminal"])
def test_ctrl_c_cancels_the_cluster_s_jobs_exits_130_and_a_rerun_resumes(
    fetched: Path, tmp_path: Path, group: bool
) -> None:
    root = Path(shutil.copytree(fetched, tmp_path / "ws"))
    pdf = root / "sources" / "local_demo" / "source.pdf"
    for name in "abcd":
        assert litaudit(root, "fetch", "--file", str(pdf), "--id", f"local:{name}").exit_code == 0
    process = start_litaudit(root, "run", "--executor", "dask", "--jobs", "2")
    for _ in range(1200):  # the cluster is up and jobs are in flight once the first extraction is written
        if list(root.glob("extracted/*/tables.json")) or process.poll() is not None:
            break
        time.sleep(0.1)
    interrupt(process, signal.SIGINT, group)  # in a terminal every worker gets it too: each printed a traceback
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    assert stderr.endswith("litaudit: error: interrupted; stored files are intact, re-run to resume\n")
    assert "Traceback" not in stderr
    assert not [p for p in root.rglob(".*") if p.name.endswith((".tmp", ".part"))]
    assert litaudit(root, "run").exit_code == 1
    for sid in ("local:demo", "local:other", "local:a", "local:b", "local:c", "local:d"):
        assert {s.state for s in source_status(Workspace(root), sid).stages.values()} == {"done"}, sid


KEEPS_PAYLOADS = """
import gc, os, tracemalloc
from pipeline.executor import DaskExecutor

def size(payload):
    return len(payload)

executor = DaskExecutor(jobs=1)
list(executor.map_unordered(size, [b"warm"]))  # the cluster and its connections exist before measuring
tracemalloc.start()
gc.collect()
before = tracemalloc.get_traced_memory()[0]
sizes = list(executor.map_unordered(size, (os.urandom(1 << 18) for _ in range(100))))
gc.collect()
print(sizes == [1 << 18] * 100, (tracemalloc.get_traced_memory()[0] - before) >> 20)
executor.close()
"""


def test_the_client_keeps_no_job_s_payload_after_it_is_done() -> None:
    """Every job carries a paper's bytes: a client that kept them (Dask's per-connection message log keeps
    the last 1,000 messages under 1 MB) grew with the number of papers: 100 jobs of 256 KB left 51 MB
    behind. They must leave the client process about as large as before. In a process of its own: a
    cluster started in the test process itself would share it with the other tests' clusters."""
    done = subprocess.run([sys.executable, "-c", KEEPS_PAYLOADS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    ran, retained_mb = done.stdout.split()
    assert ran == "True"
    assert int(retained_mb) < 8


QUIET_WORKERS = """
import logging
from pipeline.executor import DaskExecutor

executor = DaskExecutor(jobs=1)
print(*executor.map_unordered(lambda name: logging.getLogger(name).getEffectiveLevel(), ["distributed.worker"]))
executor.close()
"""


def test_a_local_cluster_prints_nothing_a_user_would_read_as_a_failure() -> None:
    """On Ctrl-C a worker's heartbeat could race its own close and log "Failed to communicate with scheduler"
    with a traceback, after ``silence_logs`` had been undone by that close (1 run in 8 under load). What a job
    does comes back as its result and a lost worker as ClusterError, so the local workers are quiet from the
    start. And a second run on the machine (port 8787 taken) warned that "Perhaps you already have a cluster
    running?". In a process of its own, like the test above."""
    with socket.socket() as taken:
        with suppress(OSError):  # taken already by something else: as good
            taken.bind(("127.0.0.1", 8787))
            taken.listen()
        done = subprocess.run([sys.executable, "-c", QUIET_WORKERS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == [str(logging.CRITICAL)]
    assert done.stderr == ""
