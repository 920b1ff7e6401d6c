#!/usr/bin/env python3
"""Classic endgame positions probed in orthodox chess and under a fairy condition (issue 23:
docs/results/madrasi-ri-classics.md).

Probes each textbook position (embedded below with its source and its textbook verdict)
with `feerie probe --json --moves`, once in orthodox chess and once under the condition,
checks that every orthodox value equals the textbook verdict and the Syzygy probe recorded
by scripts/syzygy_classics.py (docs/results/published/syzygy-classics.json: the verdict and
the set of winning, drawing and losing moves), and writes a Markdown page.

Usage:
  scripts/classics_results.py [--feerie build/tools/feerie] --tables DIR --condition madrasi-ri --out FILE
      [--syzygy docs/results/published/syzygy-classics.json] [--verify] [--threads T]
      [--verify-record FILE]

--verify runs `feerie verify` on every table the page reads (KRPvKR, KBPvKB, KPvKP, KPvK,
orthodox and under the condition) and records the times on the page; a verification that
passed is kept in --verify-record FILE (default TABLES/verify-record.json, shared with
pawn_results.py) and not run again while the table file is unchanged.

Exit status: 0 when the page was written; 1 when an orthodox value differs from its
textbook verdict or from Syzygy's, or when a table fails to verify (nothing is written,
the mismatches are listed on stderr); 2 when a probe fails (for example a missing table) or the Syzygy file is missing.
"""

import argparse
import datetime
import json
import os
import shlex
import subprocess
import sys

from results_common import numbered_line, verify_timed

# ---------------------------------------------------------------------------------------
# The positions. "textbook" is the orthodox verdict for the side to move, as the source
# gives it (these verdicts are the tablebase ones: Nalimov/Syzygy); the script stops if
# our orthodox tables say otherwise.
# ---------------------------------------------------------------------------------------

WIKI_PHILIDOR = ("https://en.wikipedia.org/wiki/Philidor_position",
                 "https://iiab.me/kiwix/content/wikipedia_en_all_maxi_2023-10/A/Philidor_position")
LOGICAL_PHILIDOR = "http://www.logicalchess.com/director/E_0068.html"
LOGICAL_LUCENA = "http://www.logicalchess.com/director/E_0078.html"
VANCURA = "http://angelfire.com/games4/lifemasteraj/endgames/eg_1_rpg0.html"
SHORT_SIDE = "http://chesspals.com/study_group/2003/february_20/endgame_r_8.htm"
WIKI_CENTURINI = ("https://en.wikipedia.org/wiki/Luigi_Centurini", None)
BLOG_CENTURINI = "https://tatanzak.blogspot.com/2014/01/la-posizione-di-centurini.html"
TREBUCHET = "http://exeterchessclub.org.uk/content/trebuchet"
KEY_SQUARE = "https://roichessacademy.com/the-pawn-endings-key-square/"
KING_SIXTH = "http://georgiachessnews.com/2016/09/01/endgame-fundamentals-king-on-the-6th/"
STAUNTON = ("https://en.wikisource.org/wiki/Page:The_chess-player%27s_text_book.djvu/59",
            "https://kiwi.stefenauris.com/content/wikisource_en_all_maxi_2025-11/"
            "Page%3AThe_chess-player's_text_book.djvu/59")

POSITIONS = [
    # --- K+R+P v K+R -------------------------------------------------------------------
    dict(name="Philidor position", group="K+R+P v K+R",
         fen="8/8/8/8/4pk2/R7/7r/4K3 b - - 0 1", textbook="draw",
         claim="Philidor 1777, third-rank defence: the defending rook holds its third rank "
               "until the pawn steps onto it, then checks from behind; drawn.",
         sources=[("Wikipedia, Philidor position (diagram)", WIKI_PHILIDOR),
                  ("logicalchess.com, Philidor's position (FEN)", LOGICAL_PHILIDOR)]),
    dict(name="Lucena position", group="K+R+P v K+R",
         fen="3K4/3P1k2/8/8/8/8/4R3/2r5 w - - 0 1", textbook="win",
         claim="Building a bridge: 1.Rf2+ Kg7 2.Rf4! and the rook shields the king from "
               "the side checks; White wins.",
         sources=[("logicalchess.com, Lucena's position (FEN)", LOGICAL_LUCENA)]),
    dict(name="Vancura position", group="K+R+P v K+R",
         fen="R7/6k1/P4r2/8/2K5/8/8/8 w - - 0 1", textbook="draw",
         claim="Vancura 1924: the rook attacks the a-pawn from the side along the sixth "
               "rank and checks the king from the side when it approaches; drawn.",
         sources=[("angelfire.com, The Vancura Position (position check given in words)",
                   VANCURA)]),
    dict(name="Short side, the starting position", group="K+R+P v K+R",
         fen="5k2/1R6/6K1/5P2/8/8/r7/8 b - - 0 1", textbook="draw",
         claim="Near-Philidor position with an f-pawn: only the active defence 1...Rf2 "
               "draws; the passive 1...Ra8? loses.",
         sources=[("chesspals.com study group, Endgame # R-8", SHORT_SIDE)]),
    dict(name="Short-side defence (2...Kg8!)", group="K+R+P v K+R",
         fen="5k2/1R6/5K2/5P2/8/8/5r2/8 b - - 0 2", textbook="draw",
         claim="After 1...Rf2 2.Kf6 the black king goes to the short side, 2...Kg8!, "
               "leaving the long side to the rook; drawn.",
         sources=[("chesspals.com study group, Endgame # R-8", SHORT_SIDE)]),
    dict(name="King on the long side (2...Ke8?)", group="K+R+P v K+R",
         fen="4k3/1R6/5K2/5P2/8/8/5r2/8 w - - 0 3", textbook="win",
         claim="2...Ke8? (king to the long side) loses to 3.Rb8+ Kd7 4.Rf8.",
         sources=[("chesspals.com study group, Endgame # R-8", SHORT_SIDE)]),
    dict(name="Long-side defence (rook checks from the long side)", group="K+R+P v K+R",
         fen="5R2/7k/5K2/5P2/8/8/r7/8 w - - 0 5", textbook="draw",
         claim="After 2...Kg8 3.Rb8+ Kh7 4.Rf8 Ra2 the rook stands on the long side, "
               "ready to check from the side; drawn (5.Re8 Rf2 6.Re5 Kg8 7.Ke7 Kg7).",
         sources=[("chesspals.com study group, Endgame # R-8", SHORT_SIDE)]),
    # --- K+B+P v K+B -------------------------------------------------------------------
    dict(name="Centurini position, White to move", group="K+B+P v K+B",
         fen="2KB4/1P6/2k5/8/8/8/7b/8 w - - 0 1", textbook="win",
         claim="Centurini 1856: White brings the bishop to b8 (via a7) and then deflects "
               "the black bishop from the short diagonal a7-b8; White wins.",
         sources=[("Wikipedia, Luigi Centurini (diagram)", WIKI_CENTURINI),
                  ("tatanzak.blogspot.com, La posizione di Centurini (FEN and solution)",
                   BLOG_CENTURINI)]),
    dict(name="Centurini position, Black to move", group="K+B+P v K+B",
         fen="2KB4/1P6/2k5/8/8/8/7b/8 b - - 0 1", textbook="loss",
         claim="White also wins with Black to move.",
         sources=[("Wikipedia, Luigi Centurini (diagram)", WIKI_CENTURINI)]),
    # --- K+P v K+P ---------------------------------------------------------------------
    dict(name="Trebuchet, White to move", group="K+P v K+P",
         fen="8/8/8/8/8/4Kp2/5Pk1/8 w - - 0 1", textbook="loss",
         claim="Mutual zugzwang: whoever moves must abandon his pawn and loses.",
         sources=[("Exeter Chess Club, The Trebuchet", TREBUCHET)]),
    dict(name="Trebuchet, Black to move", group="K+P v K+P",
         fen="8/8/8/8/8/4Kp2/5Pk1/8 b - - 0 1", textbook="loss",
         claim="Mutual zugzwang: whoever moves must abandon his pawn and loses.",
         sources=[("Exeter Chess Club, The Trebuchet", TREBUCHET)]),
    # --- K+P v K -----------------------------------------------------------------------
    dict(name="King on the sixth in front of the pawn, White to move", group="K+P v K",
         fen="2k5/8/2K5/2P5/8/8/8/8 w - - 0 1", textbook="win",
         claim="King on the sixth rank in front of its pawn wins whoever moves "
               "(1.Kd6 Kd8 2.c6 Kc8 3.c7 Kb7 4.Kd7).",
         sources=[("Georgia Chess News, Endgame Fundamentals: King on the 6th, diagram 1",
                   KING_SIXTH)]),
    dict(name="King on the sixth in front of the pawn, Black to move", group="K+P v K",
         fen="2k5/8/2K5/2P5/8/8/8/8 b - - 0 1", textbook="loss",
         claim="King on the sixth rank in front of its pawn wins whoever moves "
               "(1...Kd8 2.Kb7, 1...Kb8 2.Kd7).",
         sources=[("Georgia Chess News, Endgame Fundamentals: King on the 6th, diagram 1",
                   KING_SIXTH)]),
    dict(name="Opposition, White to move", group="K+P v K",
         fen="8/8/2k5/8/2K5/2P5/8/8 w - - 0 1", textbook="draw",
         claim="The same position two ranks lower: with White to move Black keeps the "
               "opposition and draws.",
         sources=[("Georgia Chess News, Endgame Fundamentals: King on the 6th, diagram 2",
                   KING_SIXTH)]),
    dict(name="Opposition, Black to move", group="K+P v K",
         fen="8/8/2k5/8/2K5/2P5/8/8 b - - 0 1", textbook="loss",
         claim="With Black to move White has the opposition and wins (1...Kd6 2.Kb5).",
         sources=[("Georgia Chess News, Endgame Fundamentals: King on the 6th, diagram 2",
                   KING_SIXTH)]),
    dict(name="Key square with a spare tempo, White to move", group="K+P v K",
         fen="8/4k3/8/4K3/8/4P3/8/8 w - - 0 1", textbook="win",
         claim="The king stands on a key square (e5) of the e3-pawn: White wins whoever "
               "moves; with White to move the spare tempo 1.e4 hands the move over.",
         sources=[("ROI Chess Academy, The Pawn Endings: Key Square", KEY_SQUARE)]),
    dict(name="Key square with a spare tempo, Black to move", group="K+P v K",
         fen="8/4k3/8/4K3/8/4P3/8/8 b - - 0 1", textbook="loss",
         claim="Black must give way: 1...Kf7 2.Kd6 (not 2.e4? Ke7) and White wins.",
         sources=[("ROI Chess Academy, The Pawn Endings: Key Square", KEY_SQUARE)]),
    dict(name="Rook pawn, White to move", group="K+P v K",
         fen="K1k5/8/8/8/8/8/P7/8 w - - 0 1", textbook="draw",
         claim="Staunton's diagram 15: the white king is shut in the corner in front of "
               "its rook pawn; drawn whichever moves first.",
         sources=[("Staunton, The Chess-Player's Text Book, diagram 15 (Wikisource)",
                   STAUNTON)]),
    dict(name="Rook pawn, Black to move", group="K+P v K",
         fen="K1k5/8/8/8/8/8/P7/8 b - - 0 1", textbook="draw",
         claim="Drawn whichever moves first.",
         sources=[("Staunton, The Chess-Player's Text Book, diagram 15 (Wikisource)",
                   STAUNTON)]),
]

# What changed under the condition and why, keyed by condition and position name. Only
# what the probes show; "Tentative:" marks a reading not checked move by move.
EXPLANATIONS = {"madrasi-ri": {
    "Philidor position":
        "The third-rank defence still draws, and two black moves that lose in orthodox "
        "chess now draw too: 1...Ra2 and 1...Rh3, which hang the rook to 2.Rxa2 or 2.Rxh3 "
        "in orthodox chess, put the black rook on the file or rank of the white rook, so "
        "the two rooks paralyse each other and neither can take. The rook moves that the "
        "white king can take (1...Rd2, 1...Re2, 1...Rf2) still lose: a king is not "
        "paralysed by a rook.",
    "Lucena position":
        "Still a win, but not by building a bridge: after the textbook 1.Rf2+ Black draws "
        "with 1...Rc2 or 1...Rf1, putting his rook on the rank or file of the checking rook "
        "so that both rooks are paralysed and the check is void (1...Ke7, next to the white "
        "king, paralysing both kings, also draws). The only win is 1.Ke7!, stepping next to "
        "the black king: both kings are paralysed, so the black king can no longer move, "
        "and 1...Rc7 2.Rf2+ Rc2 (the only answer, paralysing the checking rook) 3.d8=N is "
        "mate, the black rook being paralysed too (3.d8=Q would be stalemate).",
    "Vancura position":
        "The Vancura defence fails: White gives up the pawn, 1.Rb8 Rxa6, and 2.Ra8! puts "
        "his rook on the a-file facing the black rook, so both rooks are paralysed; the "
        "frozen black rook cannot run away and the white king walks over and takes it "
        "(2...Kf6 3.Kb5 Ke5 4.Kxa6), leaving a won K+R v K. 1.Rc8 and 1.Rd8 win the same "
        "way, 1.Re8 too, a move slower.",
    "Short side, the starting position":
        "Every black move draws. The orthodox refutations no longer work: after 1...Kg8 "
        "the mate 2.Rb8+ is met by 2...Ra8, which paralyses the checking rook; after the "
        "passive 1...Ra8 2.f6 Kg8 3.Rg7+ Kf8 4.Rh7 Kg8 5.f7+ Kf8 6.Rh8+ the skewer does not "
        "win the rook, because 6...Kxf7 is legal: the pawn is guarded only by the white "
        "king, and a king that arrives next to the enemy king paralyses it and is "
        "paralysed by it.",
    "Short-side defence (2...Kg8!)":
        "The verdict stays a draw but the defence is reversed: the textbook 2...Kg8 now "
        "loses, to 3.Ke5! Ra2 4.Ra7 Kf7 5.Kd4 Ke7 6.Kc3 Kd6 7.Kb2 Ke5 8.Kxa2: the white "
        "rook lines up with the black rook, both are paralysed, and the white king collects "
        "the frozen rook. The drawing moves are now the rook moves, e.g. 2...Ra2 3.Ra7 "
        "Ke7: the black king steps next to the white king, and White, with his king and "
        "rook paralysed and his pawn blocked by his own king, has no move (stalemate). "
        "Tentative: that every drawing rook move holds for this reason was not checked "
        "move by move.",
    "King on the long side (2...Ke8?)":
        "Still a win, by another method: the textbook 3.Rb8+ Kd7 4.Rf8 only draws now; the "
        "one win is 3.Ke5!, and after 3...Ra2 4.Ra7 Kd7 5.Kd4 Kc6 6.Kc3 Kd5 7.Kb2 Ke5 "
        "8.Kxa2 the rooks paralyse each other on the a-file and the white king takes the "
        "frozen black rook.",
    "Long-side defence (rook checks from the long side)":
        "Still a draw, with other moves: 5.Ra8, which loses the rook in orthodox chess "
        "(5...Rxa8), draws because the rooks on the a-file paralyse each other, and Black's "
        "only answer is 5...Kg7, next to the white king, which leaves White (king and rook "
        "paralysed, pawn blocked by his own king) stalemated. 5.Kg6 and 5.Kg7, which draw "
        "in orthodox chess, lose at once: the white king next to the black king is "
        "paralysed and cannot step out of 5...Rg2 mate.",
    "Centurini position, White to move":
        "Every white move draws: the pawn on b7 is guarded only by the white king (the "
        "bishop runs on the dark squares), and in Madrasi RI that guard is void, because "
        "the black king may take on b7 next to the white king, both kings being then "
        "paralysed; e.g. 1.Bg5 Kxb7. Centurini's manoeuvre never gets started.",
    "Centurini position, Black to move":
        "1...Kxb7 (next to the white king, which is paralysed and cannot retake) draws at "
        "once; so do 1...Kd7, which paralyses the white king, and several bishop moves.",
    "Trebuchet, White to move":
        "No zugzwang any more: 1.Kxf3 is legal, since the black king that guarded f3 is "
        "paralysed by the white king arriving next to it, and Black, whose only unit is his "
        "paralysed king, is stalemated. Every other king move draws as well.",
    "Trebuchet, Black to move":
        "Mirror image: 1...Kxf2 next to the white king stalemates White, and every other "
        "king move also draws.",
    "King on the sixth in front of the pawn, White to move":
        "Draw: a lone king can always step next to the attacking king, and then both kings "
        "are paralysed. After 1.Kd6 Kc7 White's only move is 2.c6, and Black, whose "
        "paralysed king is his only unit, is stalemated (1...Kd7?? would lose to 2.c6, "
        "mate, as the paralysed king cannot step out of the pawn's check).",
    "King on the sixth in front of the pawn, Black to move":
        "Draw: 1...Kb7, 1...Kc7 or 1...Kd7 puts the black king next to the white king; "
        "both are paralysed and White, whose pawn is blocked by his own king, is "
        "stalemated.",
    "Opposition, White to move":
        "Still a draw; White may now also step next to the black king, 1.Kb5, 1.Kc5 or "
        "1.Kd5, which paralyses both kings and stalemates Black at once.",
    "Opposition, Black to move":
        "Draw instead of a loss: 1...Kb5, 1...Kc5 or 1...Kd5 puts the black king next to "
        "the white king; both are paralysed and White, whose pawn is blocked by his own "
        "king, is stalemated. The opposition no longer decides.",
    "Key square with a spare tempo, White to move":
        "Draw: the spare tempo 1.e4 no longer helps, because Black answers 1...Kd6, 1...Ke6 "
        "or 1...Kf6, next to the white king, and White (king paralysed, pawn blocked by his "
        "own king) is stalemated; every other white move draws too.",
    "Key square with a spare tempo, Black to move":
        "Draw: 1...Kd6, 1...Ke6 or 1...Kf6 paralyses both kings, White can only play 2.e4, "
        "and then Black, with only his paralysed king, is stalemated. Standing on a key "
        "square is no longer enough.",
    "Rook pawn, White to move":
        "Still a draw; the extra moves 1.Kb7 and 1.Kb8 put the white king next to the black "
        "king and stalemate Black at once.",
    "Rook pawn, Black to move":
        "Still a draw, and now every black move draws: 1...Kb7 or 1...Kb8 (illegal in "
        "orthodox chess) paralyses both kings, and after either pawn move (a3 or a4) Black "
        "is stalemated; 1...Kd7 and 1...Kd8, which lose in orthodox chess because the "
        "white king gets out via b7, draw. Tentative: presumably because the black king can "
        "come back next to the white king whenever it leaves the corner.",
}}

INTRO = {
    "madrasi-ri": (
        "Under Madrasi Rex Inclusive (`madrasi-ri`) a unit observed by an enemy unit of "
        "the same type, kings included, is paralysed: it cannot move, capture or give "
        "check and guards nothing, though it still paralyses, so the kings may stand side "
        "by side, and then both are paralysed ([rules](../conditions/madrasi.md), "
        "[paralysis](../conditions/paralysis.md))."
    ),
}

TITLE = {"madrasi-ri": "Madrasi RI"}

PV_PLIES = 14
# The tables the positions are in (stored names).
TABLES = ["KPvK", "KPvKP", "KBPvKB", "KRPvKR"]

# ---------------------------------------------------------------------------------------


class ProbeError(Exception):
    pass


def probe(feerie, tables, condition, fen):
    cmd = [feerie, "probe", "--tables", tables, "--json", "--moves"]
    if condition != "orthodox":
        cmd += ["--condition", condition]
    cmd.append(fen)
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise ProbeError(f"{' '.join(shlex.quote(c) for c in cmd)}: exit {res.returncode}: "
                         f"{res.stderr.strip() or res.stdout.strip()}")
    return json.loads(res.stdout)


def value_text(d):
    if d["wdl"] == "draw":
        return "draw"
    if d["wdl"] == "win":
        return f"win, mates in {d['mate_in']}"
    return f"loss, mated in {-d['mate_in']}"


def side_result(fen, d):
    """The verdict in words: who wins."""
    stm = fen.split()[1]
    mover, other = ("White", "Black") if stm == "w" else ("Black", "White")
    if d["wdl"] == "draw":
        return "draw"
    if d["wdl"] == "win":
        return f"{mover} wins (mate in {d['mate_in']})"
    return f"{other} wins (mate in {-d['mate_in']})"


def keeping_moves(d):
    return [m["move"] for m in d["moves"] if m["wdl"] == d["wdl"]]


def move_tag(m):
    """A move in SAN (its `#` included), a stalemate said."""
    return m["san"] + (" (stalemate)" if m.get("stalemate") else "")


def numbered(fen, plies, limit=PV_PLIES):
    return numbered_line(fen, plies, limit) if plies else "—"


def moves_cell(d):
    """Best moves: the probe's best moves (fastest win, longest loss, every drawing move),
    then, for a win, every other move that still wins."""
    by_name = {m["move"]: m for m in d["moves"]}
    best = [move_tag(by_name[x]) if x in by_name else x for x in d["best_moves"]]
    n = len(d["moves"])
    if d["wdl"] == "draw":
        return f"{', '.join(best)} ({len(best)} of {n} moves draw)"
    if d["wdl"] == "loss":
        return f"{', '.join(best)} (longest; every one of the {n} moves loses)"
    keep = keeping_moves(d)
    others = [move_tag(by_name[x]) for x in keep if x not in d["best_moves"]]
    if not others:
        if len(keep) == 1:
            return f"{', '.join(best)} (the only winning move of {n})"
        return f"{', '.join(best)} ({len(keep)} of {n} moves win, all equally fast)"
    return (f"{', '.join(best)} (fastest); also winning: {', '.join(others)} "
            f"({len(keep)} of {n} moves win)")


def change_kind(o, c):
    if o["wdl"] != c["wdl"]:
        return "verdict"
    if sorted(keeping_moves(o)) != sorted(keeping_moves(c)):
        return "moves"
    if o["mate_in"] != c["mate_in"]:
        return "length"
    return "none"


# --- Syzygy, as Fathom probed it (scripts/syzygy_classics.py) ---------------------------
# Syzygy follows the 50-move rule, distance to mate does not (SPEC 1): a cursed win is a
# win here and a blessed loss a loss, and Fathom lists such moves among its drawing moves.
SYZYGY_VERDICT = {"Win": "win", "CursedWin": "win", "Draw": "draw", "BlessedLoss": "loss",
                  "Loss": "loss"}


def plain(san):
    return san.rstrip("+#")


def syzygy_check(o, z):
    """Compares our orthodox probe with Syzygy's. Returns (problems, agreement text)."""
    ours = {k: {plain(m["san"]) for m in o["moves"] if m["wdl"] == k} for k in ("win", "draw", "loss")}
    win, draw, loss = set(z["winning"]), set(z["drawing"]), set(z["losing"])
    problems = []
    if SYZYGY_VERDICT[z["wdl"]] != o["wdl"]:
        problems.append(f"value {o['wdl']}, Syzygy {z['wdl']}")
    # The 50-move rule only moves wins and losses to Syzygy's drawing list.
    cursed = (ours["win"] - win) | (ours["loss"] - loss)
    if not (win <= ours["win"] and loss <= ours["loss"] and draw == ours["draw"] | cursed):
        problems.append(f"moves: ours win {sorted(ours['win'])} draw {sorted(ours['draw'])} "
                        f"loss {sorted(ours['loss'])}; Syzygy win {sorted(win)} draw "
                        f"{sorted(draw)} loss {sorted(loss)}")
    n = len(win) + len(draw) + len(loss)
    text = f"{z['wdl']}, DTZ {z['dtz']}; the same winning, drawing and losing moves as ours ({n} moves)"
    if cursed:
        text = (f"{z['wdl']}, DTZ {z['dtz']}; the same moves as ours but {', '.join(sorted(cursed))}, "
                f"which the 50-move rule draws")
    return problems, text


def load_syzygy(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    return doc, {p["fen"]: p for p in doc["positions"]}


CHANGE_WORDS = {
    "verdict": "**verdict changes**",
    "moves": "same verdict, other moves",
    "length": "same verdict and moves, other length",
    "none": "no change",
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--feerie", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                     "build", "tools", "feerie"), help="the feerie binary")
    ap.add_argument("--tables", required=True, help="tables directory (with orthodox/ and "
                    "the condition's subdirectory)")
    ap.add_argument("--condition", default="madrasi-ri")
    ap.add_argument("--out", required=True, help="the Markdown page to write")
    ap.add_argument("--syzygy", default=os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "results",
        "published", "syzygy-classics.json"), help="the Syzygy probes (scripts/syzygy_classics.py)")
    ap.add_argument("--verify", action="store_true", help="verify every table the page reads")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--verify-record", help="the record of verifications (default TABLES/verify-record.json)")
    args = ap.parse_args()
    try:
        syz_doc, syz = load_syzygy(args.syzygy)
    except (OSError, ValueError, KeyError) as e:
        print(f"classics_results.py: cannot read the Syzygy probes {args.syzygy}: {e} "
              f"(scripts/syzygy_classics.py makes them)", file=sys.stderr)
        return 2
    missing = [p["fen"] for p in POSITIONS if p["fen"] not in syz]
    if missing:
        print(f"classics_results.py: {args.syzygy} has no probe of {', '.join(missing)} "
              f"(rerun scripts/syzygy_classics.py)", file=sys.stderr)
        return 2

    results = []
    try:
        for p in POSITIONS:
            o = probe(args.feerie, args.tables, "orthodox", p["fen"])
            c = probe(args.feerie, args.tables, args.condition, p["fen"])
            results.append((p, o, c))
    except ProbeError as e:
        print(f"classics_results.py: probe failed: {e}", file=sys.stderr)
        return 2

    bad = [f"{p['name']} ({p['fen']}): orthodox value {o['wdl']}, textbook verdict {p['textbook']}"
           for p, o, _ in results if o["wdl"] != p["textbook"]]
    agreement = {}
    for p, o, _ in results:
        problems, agreement[p["fen"]] = syzygy_check(o, syz[p["fen"]])
        bad += [f"{p['name']} ({p['fen']}): Syzygy: {x}" for x in problems]
    verified = []  # (condition, material, result, seconds, date)
    if args.verify:
        failures = []
        record = args.verify_record or os.path.join(args.tables, "verify-record.json")
        for cond in ("orthodox", args.condition):
            for m in TABLES:
                verified.append((cond, m) + verify_timed(args.feerie, args.tables, m, failures, cond,
                                                         args.threads, record))
        bad += [f"verify: {x}" for x in failures]
    if bad:
        for x in bad:
            print(f"classics_results.py: {x}", file=sys.stderr)
        print(f"classics_results.py: {len(bad)} difference(s) from the textbook or Syzygy; "
              f"page not written", file=sys.stderr)
        return 1

    cond = args.condition
    expl = EXPLANATIONS.get(cond, {})
    # The command for a reader: the tables directory is theirs.
    cmd = (f"scripts/classics_results.py --condition {cond} --tables TABLES"
           + (" --verify" if args.verify else "") + " "
           f"--out docs/results/{cond}-classics.md")
    today = datetime.date.today().isoformat()
    L = []
    L.append(f"# Classic endgame positions under {TITLE.get(cond, cond)}")
    L.append("")
    if cond in INTRO:
        L.append(INTRO[cond])
        L.append("")
    L.append(
        "Each position below is a textbook position, taken with its source, probed in "
        f"orthodox chess and under `{cond}` with `feerie probe --json --moves`. Values are "
        "for the side to move (win: it mates in N moves; loss: it is mated in N moves). "
        "Best moves: for a win the fastest mates first, then every other move that still "
        "wins; for a draw every drawing move; for a loss the moves that last longest. "
        "Moves are in SAN (docs/notation.md); `(stalemate)` marks a move that stalemates. Principal variations are the probe's, "
        f"cut after {PV_PLIES} plies; a draw has none.")
    L.append("")
    L.append(
        "Every orthodox value below was checked against the verdict of its textbook source "
        "and against **Syzygy**: Syzygy tables of KPvK, KPvKP, KRPvKR and KBPvKB, generated "
        f"with syzygy1/tb (commit {syz_doc['syzygy1_tb_commit'][:12]}) and probed with Fathom "
        f"(commit {syz_doc['fathom_commit'][:12]}) on {syz_doc['date']} by "
        "`scripts/syzygy_classics.py`, which records the probes in "
        "[published/syzygy-classics.json](published/syzygy-classics.json). For every "
        "position the verdict and the sets of winning, drawing and losing moves are equal "
        "to ours (Syzygy follows the 50-move rule and distance to mate does not: a move "
        "that rule draws would be said); the script stops without writing this page if "
        "one differs. Stalemate is a "
        "draw, and it decides many positions below: a king next to the enemy king is "
        "paralysed, so a side with nothing else to move is stalemated.")
    L.append("")
    L.append("## Summary")
    L.append("")
    L.append(f"| position | FEN | textbook | Syzygy | orthodox | {cond} | change |")
    L.append("|---|---|---|---|---|---|---|")
    for p, o, c in results:
        L.append(f"| [{p['name']}](#{anchor(p['name'])}) | `{p['fen']}` | {p['textbook']} | "
                 f"{syz[p['fen']]['wdl']} | {side_result(p['fen'], o)} | {side_result(p['fen'], c)} | "
                 f"{CHANGE_WORDS[change_kind(o, c)]} |")
    L.append("")
    group = None
    for p, o, c in results:
        if p["group"] != group:
            group = p["group"]
            L.append(f"## {group}")
            L.append("")
        L.append(f"### {p['name']}")
        L.append("")
        srcs = "; ".join(source_text(t, u) for t, u in p["sources"])
        L.append(f"Source: {srcs}. Textbook: {p['claim']}")
        L.append("")
        stm = "White" if p["fen"].split()[1] == "w" else "Black"
        L.append(f"| `{p['fen']}` ({stm} to move) | orthodox | {cond} |")
        L.append("|---|---|---|")
        L.append(f"| value | {value_text(o)} | {value_text(c)} |")
        L.append(f"| verdict | {side_result(p['fen'], o)} | {side_result(p['fen'], c)} |")
        L.append(f"| best moves | {moves_cell(o)} | {moves_cell(c)} |")
        L.append(f"| principal variation | {numbered(p['fen'], o['pv_san'])} | "
                 f"{numbered(p['fen'], c['pv_san'])} |")
        L.append(f"| Syzygy (Fathom) | {agreement[p['fen']]} | — |")
        L.append("")
        para = f"Change: {CHANGE_WORDS[change_kind(o, c)]}."
        if p["name"] in expl:
            para += " " + expl[p["name"]]
        L.append(para)
        L.append("")
    if verified:
        L.append("## Verification")
        L.append("")
        L.append(f"Every table this page reads passed `feerie verify` (`--threads {args.threads}`; seconds, "
                 "and the day it ran: a table verified before and unchanged since is not verified again).")
        L.append("")
        L.append("| table | condition | result | seconds | day |")
        L.append("|---|---|---|---|---|")
        for cond, m, result, seconds, day in verified:
            L.append(f"| {m} | {cond} | {result} | {seconds:.1f} | {day} |")
        L.append("")
    L.append("---")
    L.append("")
    L.append(f"Regenerated by `{cmd}` on {today}, TABLES holding the orthodox and {cond} tables "
             "of KRPvKR, KBPvKB, KPvKP and KPvK (`feerie gen` each), and "
             "`scripts/syzygy_classics.py --tb TB_SOURCE --fathom FATHOM_SOURCE` before it "
             "(TB_SOURCE, FATHOM_SOURCE: syzygy1/tb's and jdart1/Fathom's sources).")
    L.append("")
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("\n".join(L))
    print(f"classics_results.py: wrote {args.out} ({len(results)} positions)")
    return 0


def source_text(title, url):
    """A source link; a (canonical, copy) pair names the copy that was read."""
    if isinstance(url, tuple):
        return f"[{title}]({url[0]})" + (f" (read in [this copy]({url[1]}))" if url[1] else "")
    return f"[{title}]({url})"


def anchor(title):
    """GitHub-style heading anchor."""
    out = []
    for ch in title.lower():
        if ch.isalnum() or ch in "-_":
            out.append(ch)
        elif ch == " ":
            out.append("-")
    return "".join(out)


if __name__ == "__main__":
    sys.exit(main())
