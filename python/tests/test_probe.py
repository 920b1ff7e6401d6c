"""Probing: every method of Tablebase, the board argument, the context manager."""

import pathlib
import re

import pytest

import feerie
from positions import (FenOnly, KBK, KQK_LOSS, KQK_MATE_IN_ONE, KQK_MATED, KQK_STALEMATE, KQK_WIN,
                       KRK_CAPTURE)


def test_version():
    assert re.fullmatch(r"\d+\.\d+\.\d+", feerie.__version__)


def test_probe_wdl_is_for_the_side_to_move(tb):
    assert tb.probe_wdl(KQK_WIN) == 1
    assert tb.probe_wdl(KQK_LOSS) == -1
    assert tb.probe_wdl(KRK_CAPTURE) == 0
    assert tb.probe_wdl(KQK_STALEMATE) == 0


def test_probe_dtm_is_signed_plies(tb):
    assert tb.probe_dtm(KQK_WIN) == 19
    assert tb.probe_dtm(KQK_LOSS) == -20
    assert tb.probe_dtm(KQK_MATE_IN_ONE) == 1
    assert tb.probe_dtm(KRK_CAPTURE) == 0


def test_checkmated_now_is_a_loss_at_distance_zero(tb):
    assert tb.probe_wdl(KQK_MATED) == -1
    assert tb.probe_dtm(KQK_MATED) == 0
    assert tb.best_moves(KQK_MATED) == []
    assert tb.principal_variation(KQK_MATED) == []
    assert tb.move_values(KQK_MATED) == []


def test_stalemate_is_a_draw_without_moves(tb):
    assert tb.probe_dtm(KQK_STALEMATE) == 0
    assert tb.best_moves(KQK_STALEMATE) == []
    assert tb.move_values(KQK_STALEMATE) == []


def test_colours_exchanged_give_the_same_value(tb):
    black_has_the_queen = "8/8/8/5K2/8/8/1q6/k7 b - - 0 1"
    assert tb.probe_wdl(black_has_the_queen) == 1
    assert tb.probe_dtm(black_has_the_queen) == 19


def test_get_returns_the_probe_when_the_table_is_there(tb):
    assert tb.get_wdl(KQK_WIN) == 1
    assert tb.get_dtm(KQK_LOSS, default=99) == -20


def test_get_returns_the_default_for_a_missing_table(tb):
    assert tb.get_wdl(KBK) is None
    assert tb.get_dtm(KBK) is None
    assert tb.get_wdl(KBK, default=7) == 7
    assert tb.get_dtm(KBK, "unknown") == "unknown"


def test_best_moves_keep_the_value(tb):
    best = tb.best_moves(KQK_MATE_IN_ONE)
    assert best == ["f2f8"]
    assert tb.best_moves(KRK_CAPTURE) == ["b3b2"]
    moves = tb.best_moves(KQK_WIN)
    assert moves == sorted(moves) and "a1a2" in moves
    values = {v.move: v for v in tb.move_values(KQK_WIN)}
    assert all(values[m].dtm == 19 for m in moves)


def test_principal_variation_plays_out_the_mate(tb):
    pv = tb.principal_variation(KQK_WIN)
    assert len(pv) == 19
    assert pv[0] in tb.best_moves(KQK_WIN)
    assert len(tb.principal_variation(KQK_LOSS)) == 20
    assert tb.principal_variation(KQK_MATE_IN_ONE) == ["f2f8"]
    assert tb.principal_variation(KRK_CAPTURE) == []


def test_move_values_are_for_the_mover_best_first(tb):
    values = tb.move_values(KQK_MATE_IN_ONE)
    assert len(values) == 29
    first = values[0]
    assert (first.move, first.wdl, first.dtm, first.checkmate, first.stalemate) == ("f2f8", 1, 1, True, False)
    assert first.fen_after == "5Q1k/8/6K1/8/8/8/8/8 b - - 0 1"
    stalemating = {v.move for v in values if v.stalemate}
    assert stalemating == {"f2a2", "f2f7"}
    assert all(v.wdl == 0 and v.dtm == 0 and not v.checkmate for v in values if v.stalemate)
    assert [v.dtm for v in values[:-2]] == sorted(v.dtm for v in values[:-2])
    # Every value after a move is the probe of the position after it, seen from the mover.
    for v in values:
        if not v.checkmate:
            assert v.wdl == -tb.probe_wdl(v.fen_after)
    assert "MoveValue(move='f2f8', wdl=1, dtm=1, checkmate=True" in repr(first)


def test_move_values_of_a_losing_side_count_plies_to_being_mated(tb):
    values = tb.move_values(KRK_CAPTURE)
    assert [(v.move, v.wdl, v.dtm) for v in values][:2] == [("b3b2", 0, 0), ("b3c3", -1, -32)]
    assert values[0].fen_after == "8/8/8/8/8/8/1k6/7K w - - 0 1"  # the capture leads into KvK
    assert all(v.dtm < 0 for v in values[1:])


def test_board_may_be_any_object_with_fen(tb):
    board = FenOnly(KQK_WIN)
    assert tb.probe_wdl(board) == 1
    assert tb.probe_dtm(board) == 19
    assert tb.get_wdl(board) == 1
    assert tb.get_dtm(board) == 19
    assert tb.best_moves(board) == tb.best_moves(KQK_WIN)
    assert tb.principal_variation(board) == tb.principal_variation(KQK_WIN)
    assert tb.move_values(board) == tb.move_values(KQK_WIN)


def test_python_chess_board(tb):
    chess = pytest.importorskip("chess")  # not packaged by Debian: skipped unless installed
    board = chess.Board(KQK_WIN)
    assert tb.probe_dtm(board) == 19
    for move in tb.principal_variation(board):
        board.push_uci(move)
    assert board.is_checkmate()
    assert tb.probe_wdl(board) == -1


def test_a_board_without_fen_is_a_type_error(tb):
    with pytest.raises(TypeError):
        tb.probe_wdl(42)
    with pytest.raises(TypeError):
        tb.probe_dtm(FenOnly(None))


def test_context_manager_closes(tables_dir):
    with feerie.open_tablebase(tables_dir) as tb:
        assert not tb.closed
        assert tb.probe_wdl(KQK_WIN) == 1
    assert tb.closed
    assert "closed" in repr(tb)
    with pytest.raises(ValueError):
        tb.probe_wdl(KQK_WIN)
    with pytest.raises(ValueError):
        tb.get_wdl(KBK)


def test_close_and_properties(tables_dir):
    tb = feerie.open_tablebase(str(tables_dir), condition="orthodox")
    assert tb.condition == "orthodox"
    assert tb.directory == str(tables_dir)
    assert repr(tb) == f"<feerie.Tablebase directory='{tables_dir}' condition='orthodox'>"
    tb.close()
    tb.close()  # closing twice is harmless
    assert tb.closed


def test_tablebase_constructor_and_path_directory(tables_dir):
    assert isinstance(tables_dir, pathlib.Path)
    tb = feerie.Tablebase(tables_dir)
    assert tb.probe_dtm(KQK_LOSS) == -20


def test_tables_lists_the_files(tb):
    assert tb.tables() == ["KQvK", "KRvK", "KvK"]


def test_tables_of_an_empty_directory(tmp_path):
    assert feerie.open_tablebase(tmp_path).tables() == []


def test_tables_lists_only_files_a_probe_reads(tmp_path):
    # A name in other letters, a directory and a dangling link are no tables to probe.
    (tmp_path / "orthodox").mkdir()
    (tmp_path / "orthodox" / "kpvk.ftb").write_bytes(b"")
    (tmp_path / "orthodox" / "KBvKB.ftb").mkdir()
    (tmp_path / "orthodox" / "KNvKN.ftb").symlink_to(tmp_path / "nowhere")
    (tmp_path / "orthodox" / "KRvK.ftb").write_bytes(b"")
    assert feerie.open_tablebase(tmp_path).tables() == ["KRvK"]


def test_a_file_where_the_tables_should_be_is_named(tmp_path):
    # The same error from a probe and from tables(), for the root and for the condition's
    # directory.
    (tmp_path / "root").write_bytes(b"")
    (tmp_path / "cond").mkdir()
    (tmp_path / "cond" / "orthodox").write_bytes(b"")
    for directory in (tmp_path / "root", tmp_path / "cond"):
        tb = feerie.open_tablebase(directory)
        for call in (tb.tables, lambda: tb.probe_dtm("8/8/8/8/8/2k5/8/KR6 w - - 0 1")):
            with pytest.raises(feerie.FeerieError, match="is not a directory") as raised:
                call()
            assert raised.value.kind == "invalid argument"


def test_every_function_has_a_docstring_with_its_units():
    for method in ("probe_wdl", "probe_dtm", "get_wdl", "get_dtm", "best_moves", "principal_variation",
                   "move_values"):
        doc = getattr(feerie.Tablebase, method).__doc__
        assert "side to move" in doc or "side that plays" in doc, method
    assert "plies" in feerie.Tablebase.probe_dtm.__doc__
    assert "plies" in feerie.MoveValue.dtm.__doc__
    for function in (feerie.open_tablebase, feerie.generate, feerie.Tablebase.tables, feerie.Tablebase.close):
        assert len(function.__doc__) > 80
