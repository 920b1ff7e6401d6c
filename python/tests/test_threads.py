"""Probes from several threads at once give the results of the same probes made one by one.

The module releases the GIL during each probe, so the threads really run together in the
library (one Tablebase shared by all, its tables opened lazily under a lock).
"""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import feerie
from positions import KQK_LOSS, KQK_MATE_IN_ONE, KQK_WIN, KRK_CAPTURE

THREADS = 8


def positions(tb):
    """About 150 positions of KQvK, KRvK and KvK, both sides to move: the starting
    positions and every position one and two moves after them."""
    found = [KQK_WIN, KQK_LOSS, KQK_MATE_IN_ONE, KRK_CAPTURE]
    for fen in list(found):
        for after in tb.move_values(fen):
            found.append(after.fen_after)
            found.extend(v.fen_after for v in tb.move_values(after.fen_after)[:3])
    return sorted(set(found))


def everything(tb, fen):
    return (tb.probe_wdl(fen), tb.probe_dtm(fen), tb.best_moves(fen), tb.principal_variation(fen),
            tb.move_values(fen))


def test_concurrent_probes_equal_single_threaded_ones(tables_dir):
    with feerie.open_tablebase(tables_dir) as tb:
        fens = positions(tb)
    assert len(fens) > 100
    with feerie.open_tablebase(tables_dir) as tb:
        expected = {fen: everything(tb, fen) for fen in fens}

    # A fresh Tablebase, so that the threads also race to open the tables.
    with feerie.open_tablebase(tables_dir) as tb:
        start = threading.Barrier(THREADS)

        def probe_all(shift):
            start.wait()
            order = fens[shift:] + fens[:shift]  # each thread in its own order
            return {fen: everything(tb, fen) for fen in order}

        with ThreadPoolExecutor(THREADS) as pool:
            results = list(pool.map(probe_all, range(0, THREADS * 13, 13)))
    for result in results:
        assert result == expected


def test_generation_lets_other_threads_run(tables_dir, tmp_path):
    worker = threading.Thread(target=feerie.generate, args=(tmp_path, "KQvKR"), kwargs={"threads": 1})
    worker.start()
    # generate() creates the condition's directory when it begins. Had it kept the GIL, this
    # thread could not run again, and so not probe, before the whole job (a second or so) ends.
    while not (tmp_path / "orthodox").exists():
        time.sleep(0.001)
    with feerie.open_tablebase(tables_dir) as tb:
        assert [tb.probe_dtm(KQK_WIN) for _ in range(20)] == [19] * 20
    still_running = worker.is_alive()
    worker.join()
    assert still_running
    assert (tmp_path / "orthodox" / "KQvKR.ftb").exists()


def test_close_while_other_threads_probe(tables_dir):
    tb = feerie.open_tablebase(tables_dir)
    errors = []

    def probe_until_closed():
        while True:
            try:
                tb.probe_dtm(KQK_WIN)
            except ValueError:  # closed: the only error allowed
                return
            except Exception as e:  # pragma: no cover (reported below)
                errors.append(e)
                return

    threads = [threading.Thread(target=probe_until_closed) for _ in range(4)]
    for t in threads:
        t.start()
    tb.close()
    for t in threads:
        t.join(timeout=30)
    assert not errors
    assert not any(t.is_alive() for t in threads)
