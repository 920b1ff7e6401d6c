"""feerie.generate(): what it writes and returns, its errors, and stopping it."""

import os
import signal
import subprocess
import sys
import threading

import pytest

import feerie
from positions import KQK_WIN


def test_generate_returns_each_table_in_solving_order(tmp_path):
    tables = feerie.generate(tmp_path, "KRvK", threads=1)
    assert [t["material"] for t in tables] == ["KvK", "KRvK"]
    krk = tables[-1]
    assert krk["path"] == str(tmp_path / "orthodox" / "KRvK.ftb")
    assert os.path.getsize(krk["path"]) == krk["file_bytes"]
    assert krk["reused"] is False and krk["replaced_because"] is None
    assert krk["entries"] > 0 and krk["seconds"] >= 0


def test_generate_reuses_tables_on_disk(tmp_path):
    feerie.generate(str(tmp_path), "KQvK")
    again = feerie.generate(str(tmp_path), "kqvk", condition="orthodox", threads=None)
    assert [(t["material"], t["reused"]) for t in again] == [("KvK", True), ("KQvK", True)]
    # Issue 24: a reused table used to report 0 bytes.
    assert all(t["file_bytes"] == os.path.getsize(t["path"]) > 0 for t in again)


def test_generate_then_probe_another_condition(tmp_path):
    feerie.generate(tmp_path, "KQvK", condition="madrasi-ri")
    with feerie.open_tablebase(tmp_path, "madrasi-ri") as tb:
        assert tb.tables() == ["KQvK", "KvK"]
        assert tb.probe_wdl(KQK_WIN) == 1


def test_generate_errors(tmp_path):
    with pytest.raises(feerie.UnknownConditionError):
        feerie.generate(tmp_path, "KQvK", condition="no-such-condition")
    with pytest.raises(feerie.FeerieError) as caught:
        feerie.generate(tmp_path, "KQvX")
    assert caught.value.kind == "invalid argument"
    with pytest.raises(ValueError):
        feerie.generate(tmp_path, "KQvK", threads=-1)
    # More threads than the program supports: an error, not OpenMP crashing the interpreter.
    for threads in (1025, 100000):
        with pytest.raises(ValueError, match="1 to 1024"):
            feerie.generate(tmp_path, "KQvK", threads=threads)
    a_file = tmp_path / "a_file"
    a_file.write_text("")
    with pytest.raises(feerie.FeerieError):
        feerie.generate(a_file, "KQvK")


def test_reliability_27a_generate_under_an_address_space_limit(tmp_path):
    """Issue 27 A: under `ulimit -v` generate() raises FeerieError of kind "resource limit"
    naming the limit (not MemoryError), in a child process so the limit stays there."""
    script = (
        "import resource, sys, feerie\n"
        "vm = [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmSize:')][0]\n"
        "resource.setrlimit(resource.RLIMIT_AS, ((vm + 65536) * 1024, resource.RLIM_INFINITY))\n"
        "try:\n"
        "    feerie.generate(sys.argv[1], 'KQRvKR', threads=1)\n"
        "except feerie.FeerieError as e:\n"
        "    print(e.kind, '|', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.stdout.startswith("resource limit |"), out.stdout + out.stderr
    assert "RLIMIT_AS" in out.stdout


class Stop(Exception):
    pass


@pytest.mark.parametrize("stipulation", ["#", "h#", "s#"])
def test_a_signal_stops_generation(tmp_path, stipulation):
    """A Python signal handler runs during generation, and the exception it raises stops the
    job and comes out of generate() (Ctrl-C gives KeyboardInterrupt the same way); helpmate
    and selfmate jobs too (they once saw it only when the whole job had ended)."""
    armed = threading.Event()
    armed.set()

    def handler(signum, frame):
        if armed.is_set():
            armed.clear()
            raise Stop()

    done = threading.Event()

    def send_signals():
        # Once the job has begun (it creates the condition's directory first), and then until
        # it reacts, so that the test needs no guess at its timing.
        while not (tmp_path / "orthodox").exists():
            done.wait(0.001)
        while not done.is_set():
            os.kill(os.getpid(), signal.SIGUSR1)
            done.wait(0.005)

    previous = signal.signal(signal.SIGUSR1, handler)
    sender = threading.Thread(target=send_signals)
    try:
        sender.start()
        with pytest.raises(Stop):
            feerie.generate(tmp_path, "KQvKR", threads=1, stipulation=stipulation)
    finally:
        done.set()
        sender.join()
        signal.signal(signal.SIGUSR1, previous)
    assert not armed.is_set()
    assert not list((tmp_path / "orthodox").glob("KQvKR.*"))
