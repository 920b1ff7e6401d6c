"""Helpmate and selfmate tables from Python: generate(stipulation=...), probe_helpmate(),
probe_selfmate(), helpmate_solutions(). The counts are checked against a search of the
module's own direct-mate probes (move_values() to walk, "mated now" to end)."""

import pytest

import feerie

# Black to move; White mates with the rook after one black move (docs/stipulations.md).
KRK_H1 = "k7/2K5/8/8/8/8/8/1R6 b - - 0 1"


@pytest.fixture(scope="module")
def help_dir(tables_dir):
    helpmates = feerie.generate(tables_dir, "KRvK", threads=1, stipulation="h#")
    assert [t["material"] for t in helpmates] == ["KvK", "KRvK"]
    krk = helpmates[-1]
    assert set(krk["paths"]) == {"white", "black"}
    assert krk["paths"]["black"].endswith("KRvK.help-black.ftb")
    # A lone black king never mates White.
    assert krk["longest_plies"]["white"] is None
    assert krk["longest_plies"]["black"] == 14  # as `feerie gen --stipulation h#` says
    feerie.generate(tables_dir, "KQvK", condition="madrasi-ri", stipulation="s#")
    feerie.generate(tables_dir, "KQvK", condition="madrasi-ri")
    return tables_dir


def mated_now(tb, fen):
    return tb.probe_wdl(fen) == -1 and tb.probe_dtm(fen) == 0


def helpmates_by_search(tb, fen, plies):
    """Every sequence of `plies` legal moves from `fen` that ends with the side to move then
    mated (Black at an even count from a Black move), none mated before."""
    if plies == 0:
        return [[]] if mated_now(tb, fen) else []
    if mated_now(tb, fen):
        return []
    lines = []
    for m in tb.move_values(fen):
        lines += [[m.move] + rest for rest in helpmates_by_search(tb, m.fen_after, plies - 1)]
    return lines


def test_a_reused_table_says_its_longest_mates(help_dir):
    again = feerie.generate(help_dir, "KRvK", threads=1, stipulation="h#")[-1]
    assert again["reused"]
    # (They read None, "no mate", before.)
    assert again["longest_plies"] == {"white": None, "black": 14}
    assert again["entries"] > 0


def test_probe_helpmate_against_a_search(help_dir):
    with feerie.open_tablebase(help_dir) as tb:
        r = tb.probe_helpmate(KRK_H1)
        assert r.mated == "black"
        assert r.plies == 2
        assert r.problem == "h#1"
        assert not r.solutions_capped
        assert helpmates_by_search(tb, KRK_H1, 1) == []  # no shorter one
        found = helpmates_by_search(tb, KRK_H1, 2)
        assert r.solutions == len(found)
        assert sorted(tb.helpmate_solutions(KRK_H1, limit=100)) == sorted(found)
        assert tb.helpmate_solutions(KRK_H1, limit=1) == tb.helpmate_solutions(KRK_H1)[:1]
        assert tb.probe_helpmate(KRK_H1, mated="black") == r
        assert "plies=2" in repr(r) and "problem='h#1'" in repr(r)


def test_white_to_move_helpmates_have_half_moves(help_dir):
    with feerie.open_tablebase(help_dir) as tb:
        fen = "k7/8/1K6/8/8/8/8/1R6 w - - 0 1"
        r = tb.probe_helpmate(fen)
        assert r.plies % 2 == 1
        assert r.problem == "h#%d.5" % (r.plies // 2)
        assert r.solutions == len(helpmates_by_search(tb, fen, r.plies))


def test_no_mate_and_mated_now(help_dir):
    with feerie.open_tablebase(help_dir) as tb:
        none = tb.probe_helpmate(KRK_H1, mated="white")
        assert none == tb.probe_helpmate(KRK_H1, "white")
        assert (none.mated, none.plies, none.solutions, none.problem) == ("white", None, None, None)
        assert tb.helpmate_solutions(KRK_H1, mated="white") == []
        mated = "k7/2K5/8/8/8/8/8/R7 b - - 0 1"
        now = tb.probe_helpmate(mated)
        assert (now.plies, now.solutions, now.problem) == (0, 1, "h#0")
        assert tb.helpmate_solutions(mated) == []


def test_probe_selfmate(help_dir):
    with feerie.open_tablebase(help_dir, "madrasi-ri") as tb:
        # The kings touch: under Madrasi RI each paralyses the other, so Black is mated now.
        mated = tb.probe_selfmate("8/8/8/8/4k1Q1/5K2/8/8 b - - 0 1", mated="black")
        assert (mated.mated, mated.plies, mated.solutions, mated.problem) == ("black", 0, None, "s#0")
        # White mated is the default; a lone black king never mates.
        none = tb.probe_selfmate("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1")
        assert (none.mated, none.plies, none.problem) == ("white", None, None)


def test_bad_arguments_and_missing_tables(help_dir, tables_dir):
    with feerie.open_tablebase(help_dir) as tb:
        with pytest.raises(ValueError, match="mated must be 'white', 'black' or None, not 'red'"):
            tb.probe_helpmate(KRK_H1, mated="red")
        with pytest.raises(ValueError, match="not ''"):
            tb.probe_helpmate(KRK_H1, mated="")
        with pytest.raises(ValueError, match="limit must be 1 to 10000"):
            tb.helpmate_solutions(KRK_H1, limit=0)
        with pytest.raises(feerie.IllegalPositionError):
            tb.probe_helpmate("not a fen")
        # KQvK has direct-mate tables here, no selfmate or helpmate ones.
        with pytest.raises(feerie.MissingTableError, match="KQvK"):
            tb.probe_selfmate("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1")
        with pytest.raises(feerie.MissingTableError):
            tb.probe_helpmate("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1")
    closed = feerie.open_tablebase(help_dir)
    closed.close()
    with pytest.raises(ValueError, match="closed"):
        closed.probe_helpmate(KRK_H1)
    with pytest.raises(ValueError, match="unknown stipulation 'x#'"):
        feerie.generate(tables_dir, "KRvK", stipulation="x#")
