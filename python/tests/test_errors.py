"""Every exception: its class hierarchy, when it is raised, and its `kind`."""

import shutil

import pytest

import feerie
from positions import KBK, KQK_WIN, KRK_CAPTURE

# A KQvK position where Black can take the queen: its moves lead into KvK.
KQK_QUEEN_HANGS = "8/8/8/8/8/8/kQ6/7K b - - 0 1"


def test_class_hierarchy():
    assert issubclass(feerie.FeerieError, Exception)
    assert issubclass(feerie.MissingTableError, feerie.FeerieError)
    assert issubclass(feerie.MissingTableError, KeyError)
    assert issubclass(feerie.CorruptTableError, feerie.FeerieError)
    assert issubclass(feerie.ConditionMismatchError, feerie.FeerieError)
    assert issubclass(feerie.ConditionMismatchError, ValueError)
    assert issubclass(feerie.UnknownConditionError, feerie.FeerieError)
    assert issubclass(feerie.UnknownConditionError, ValueError)
    assert issubclass(feerie.IllegalPositionError, feerie.FeerieError)
    assert issubclass(feerie.IllegalPositionError, ValueError)
    assert not issubclass(feerie.CorruptTableError, ValueError)


def test_missing_table(tb):
    for probe in (tb.probe_wdl, tb.probe_dtm, tb.best_moves, tb.principal_variation, tb.move_values):
        with pytest.raises(feerie.MissingTableError) as caught:
            probe(KBK)
        assert caught.value.kind == "not found"
        # A sentence, not a quoted key as KeyError's own str() would give.
        assert str(caught.value).startswith("missing table KBvK for condition orthodox")


def test_missing_directory_is_a_missing_table(tmp_path):
    tb = feerie.open_tablebase(tmp_path / "nowhere")
    with pytest.raises(KeyError):
        tb.probe_wdl(KQK_WIN)
    assert tb.get_dtm(KQK_WIN, default=-999) == -999


@pytest.mark.parametrize("fen", [
    "not a fen",
    "8/8/8/5k2/8/8/1Q6/K7 w - - 0",                # five fields
    "8/8/8/5k2/8/8/1Q6/K7 w KQ - 0 1",             # castling rights
    "8/8/8/5k2/8/8/1Q6/8 w - - 0 1",               # no white king
    "8/8/8/8/8/8/1Qk5/K7 w - - 0 1",               # Black, not to move, is in check
    "8/8/8/5k2/8/8/1\u04246/K7 w - - 0 1",         # issue 27 B: a Cyrillic letter (two bytes in UTF-8)
    "8/8/8/5k2/8/8/1\u00e96/K7 w - - 0 1",         # issue 27 B: a Latin letter outside ASCII
    "8/8/8/5k2/8/8/1\udce96/K7 w - - 0 1",         # issue 27 B: a lone surrogate (bytes read as surrogateescape)
    "8/8/8/5k2/8/8/1\ud8006/K7 w - - 0 1",         # issue 27 B: a lone surrogate no encoding takes
])
def test_illegal_position(tb, fen):
    for probe in (tb.probe_wdl, tb.probe_dtm, tb.get_wdl, tb.get_dtm, tb.best_moves, tb.principal_variation,
                  tb.move_values):
        with pytest.raises(feerie.IllegalPositionError) as caught:
            probe(fen)
        assert caught.value.kind == "invalid argument"
    with pytest.raises(ValueError):
        tb.probe_wdl(fen)


def test_unknown_condition():
    # An invalid argument, not a table built for another condition (issue 22).
    with pytest.raises(feerie.UnknownConditionError) as caught:
        feerie.open_tablebase(".", "no-such-condition")
    assert "unknown condition 'no-such-condition'" in str(caught.value)
    assert caught.value.kind == "invalid argument"
    assert not isinstance(caught.value, feerie.ConditionMismatchError)
    with pytest.raises(ValueError):
        feerie.open_tablebase(".", "no-such-condition")
    with pytest.raises(feerie.UnknownConditionError) as caught:
        feerie.open_tablebase(".", "madr\u00e4si")
    assert "unknown condition 'madr\u00e4si'" in str(caught.value)


def copy_tables(source, target, condition):
    (target / condition).mkdir(parents=True)
    for table in (source / "orthodox").glob("*.ftb"):
        shutil.copy(table, target / condition / table.name)


def test_table_built_for_another_condition(tables_dir, tmp_path):
    copy_tables(tables_dir, tmp_path, "madrasi")
    tb = feerie.open_tablebase(tmp_path, "madrasi")
    for probe in (tb.probe_wdl, tb.get_dtm, tb.best_moves, tb.move_values):
        with pytest.raises(feerie.ConditionMismatchError) as caught:
            probe(KQK_WIN)
        assert "built for condition 'orthodox'" in str(caught.value)
        assert caught.value.kind == "condition mismatch"
        assert not isinstance(caught.value, feerie.CorruptTableError)


def test_table_of_another_condition_met_after_a_capture(tmp_path):
    feerie.generate(tmp_path, "KQvK", condition="madrasi", threads=1)
    other = tmp_path / "other"
    feerie.generate(other, "KQvK", threads=1)
    shutil.copy(other / "orthodox" / "KvK.ftb", tmp_path / "madrasi" / "KvK.ftb")
    tb = feerie.open_tablebase(tmp_path, "madrasi")
    assert tb.probe_wdl(KQK_QUEEN_HANGS) == 0  # its own table is sound
    with pytest.raises(feerie.ConditionMismatchError):
        tb.move_values(KQK_QUEEN_HANGS)


def test_truncated_table(tables_dir, tmp_path):
    copy_tables(tables_dir, tmp_path, "orthodox")
    table = tmp_path / "orthodox" / "KQvK.ftb"
    table.write_bytes(table.read_bytes()[:1000])
    tb = feerie.open_tablebase(tmp_path)
    for probe in (tb.probe_wdl, tb.probe_dtm, tb.get_wdl, tb.get_dtm):  # get_* return a default only when missing
        with pytest.raises(feerie.CorruptTableError) as caught:
            probe(KQK_WIN)
        assert "is truncated" in str(caught.value)
        assert caught.value.kind == "corrupt"
    assert tb.probe_wdl(KRK_CAPTURE) == 0  # the other tables still answer


def test_damaged_blocks(tables_dir, tmp_path):
    copy_tables(tables_dir, tmp_path, "orthodox")
    table = tmp_path / "orthodox" / "KQvK.ftb"
    data = bytearray(table.read_bytes())
    # Every byte of the second half of the file (compressed blocks) flipped: the header still reads.
    for i in range(len(data) // 2, len(data)):
        data[i] ^= 0xFF
    table.write_bytes(bytes(data))
    tb = feerie.open_tablebase(tmp_path)
    with pytest.raises(feerie.CorruptTableError) as caught:
        tb.probe_wdl(KQK_WIN.replace(" w ", " b "))  # Black to move: the second side, at the end of the file
    assert "corrupt" in str(caught.value)


def test_not_a_table(tables_dir, tmp_path):
    (tmp_path / "orthodox").mkdir()
    (tmp_path / "orthodox" / "KQvK.ftb").write_text("hello")
    tb = feerie.open_tablebase(tmp_path)
    with pytest.raises(feerie.CorruptTableError):
        tb.probe_dtm(KQK_WIN)
