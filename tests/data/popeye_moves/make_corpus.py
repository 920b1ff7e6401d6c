#!/usr/bin/env python3
"""Records Popeye's legal moves of random positions under the paralysis family (Madrasi,
Madrasi RI, Isardam A and B, Eiffel, Leffie) and under Annan and Nanna of every type, with
grasshoppers, locusts, pawns, en passant and promotions. Run outside the suite:

    make_corpus.py --feerie ./feerie --popeye ./py --seed 17 --out moves.body \
        --disagreements disagreements.txt

Positions are placed at random: the two kings and two to five other units of either colour
from Q R B N P G L (grasshoppers and locusts weighted up), clustered: units put directly in
front of or behind another unit (Annan/Nanna lending, kings included), enemy units put on a
line (or knight jump, pawn diagonal, grasshopper landing square) from a unit of the type the
condition pairs it with (same type for Madrasi/Isardam, the Eiffel cycle P>N>B>R>Q>P for
Eiffel/Leffie), kings sometimes side by side. Pawns stand on ranks 2-7, mostly on their
starting rank or their 7th; in 40% of the positions a pawn of the side to move stands on its
7th rank (promotions, to G and L too when such a unit is on the board). In
about a third of the positions the opponent has just made a double step beside a unit that
may take en passant (the FEN has the en-passant square; Popeye is told the double step with
Option EnPassant).

Feerie decides legality: positions `feerie moves` refuses are skipped. The rest go to Popeye
with stipulation ~1 (Option NoCastling on every castling square, NoBoard). Popeye moves
White: a position with Black to move is given to it colour-reversed (mirrored top to bottom,
colours swapped; every condition here keeps its meaning under that map), and its moves are
mirrored back. Positions where both lists agree are written as condition|FEN|moves in long
algebraic notation (as `feerie moves` prints them), sorted; the others go to the
disagreements file with both lists."""
import argparse
import json
import random
import re
import subprocess
import sys

KEYWORDS = {
    "madrasi": "Madrasi",
    "madrasi-ri": "Madrasi RexInclusive",
    "isardam": "Isardam",
    "isardam-b": "Isardam TypeB",
    "eiffel": "EiffelChess",
    "leffie": "Leffie",
    "annan": "AnnanChess",
    "annan-b": "AnnanChess TypeB",
    "annan-c": "AnnanChess TypeC",
    "annan-d": "AnnanChess TypeD",
    "nanna": "NannaChess",
    "nanna-b": "NannaChess TypeB",
    "nanna-c": "NannaChess TypeC",
    "nanna-d": "NannaChess TypeD",
}
LETTER = {"K": "K", "Q": "Q", "R": "R", "B": "B", "N": "S", "P": "P", "G": "G", "L": "L"}
PROMO = {"Q": "q", "R": "r", "B": "b", "S": "n", "G": "g", "L": "l"}
TYPES, WEIGHTS = "QRBNPGL", (1.0, 1.0, 1.0, 1.0, 1.6, 1.4, 1.4)
EIFFEL = {"P": "N", "N": "B", "B": "R", "R": "Q", "Q": "P"}  # X paralyses EIFFEL[X]
EIFFEL_BACK = {v: k for k, v in EIFFEL.items()}
QUEEN_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def square(f, r):
    return "abcdefgh"[f] + str(r + 1)


def on(f, r):
    return 0 <= f < 8 and 0 <= r < 8


def white(u):
    return u.isupper()


def pawn_ok(t, r):
    return t != "P" or 1 <= r <= 6


def partner(cond, t):
    """A type the condition pairs with t (either direction), or None."""
    if cond in ("madrasi", "madrasi-ri", "isardam", "isardam-b"):
        return t if t != "K" or cond == "madrasi-ri" else None
    if cond in ("eiffel", "leffie"):
        opts = [x for x in (EIFFEL.get(t), EIFFEL_BACK.get(t)) if x]
        return None if not opts else opts[0] if len(opts) == 1 else opts[0 if random.random() < 0.5 else 1]
    return None


def line_square(rng, board, f, r, t_from, is_white):
    """A square that a unit of type t_from on (f, r) could reach or observe (roughly)."""
    if t_from == "N":
        df, dr = rng.choice(KNIGHT)
        return f + df, r + dr
    if t_from == "P":
        return f + rng.choice((-1, 1)), r + (1 if is_white else -1)
    if t_from == "K":
        df, dr = rng.choice(QUEEN_DIRS)
        return f + df, r + dr
    dirs = QUEEN_DIRS if t_from in "QGL" else QUEEN_DIRS[:4] if t_from == "R" else QUEEN_DIRS[4:]
    df, dr = rng.choice(dirs)
    if t_from == "G":  # beyond a hurdle: first unit on the line, then the next square
        x, y = f + df, r + dr
        while on(x, y) and (x, y) not in board:
            x, y = x + df, y + dr
        if on(x, y) and rng.random() < 0.7:
            return x + df, y + dr
    d = rng.randint(1, 4)
    return f + d * df, r + d * dr


def random_position(rng, cond):
    annan = cond.startswith("annan") or cond.startswith("nanna")
    board = {}

    def free(f, r):
        return on(f, r) and (f, r) not in board

    def random_free():
        while True:
            f, r = rng.randrange(8), rng.randrange(8)
            if free(f, r):
                return f, r

    board[random_free()] = "K"
    if rng.random() < 0.12:  # kings side by side (legal under RI, Isardam A, Annan A/B)
        (kf, kr), = [s for s, u in board.items()]
        df, dr = rng.choice(QUEEN_DIRS)
        if free(kf + df, kr + dr):
            board[(kf + df, kr + dr)] = "k"
    if "k" not in board.values():
        board[random_free()] = "k"

    side = rng.choice("wb")
    ep = None
    budget = rng.randint(2, 5)
    if rng.random() < 0.35:  # the opponent has just made a double step
        up = 1 if side == "w" else -1  # direction of the side to move's pawns
        r5 = 4 if side == "w" else 3  # rank of the double-stepper
        f = rng.randrange(8)
        g = f + rng.choice((-1, 1))
        if on(g, r5) and free(f, r5) and free(f, r5 + up) and free(f, r5 + 2 * up) and free(g, r5):
            mine = "P" if side == "w" else "p"
            theirs = "p" if side == "w" else "P"
            board[(f, r5)] = theirs
            if annan and rng.random() < 0.35:  # a unit lent the pawn's walk takes en passant
                t = rng.choice("QRBNGLK" if rng.random() < 0.2 else "QRBNGL")
                lender = (g, r5 - up) if cond.startswith("annan") else (g, r5 + up)
                if free(*lender):
                    board[(g, r5)] = t if side == "w" else t.lower()
                    board[lender] = mine
                    budget -= 1
            if (g, r5) not in board:
                board[(g, r5)] = mine
            ep = (f, r5 + up)
            budget -= 2
    budget = max(budget, 0)
    if budget and rng.random() < 0.4:  # a pawn of the side to move one step from promotion
        r7 = 6 if side == "w" else 1
        f = rng.randrange(8)
        if free(f, r7):
            board[(f, r7)] = "P" if side == "w" else "p"
            budget -= 1

    for _ in range(budget):
        t = rng.choices(TYPES, WEIGHTS)[0]
        colour_white = rng.random() < 0.5
        mode = rng.random()
        placed = None
        units = list(board.items())
        if annan and mode < 0.55 or not annan and mode < 0.2:
            # directly in front of or behind a unit (friendly mostly: lending)
            (f, r), u = rng.choice(units)
            r2 = r + rng.choice((-1, 1))
            colour_white = white(u) if rng.random() < 0.8 else not white(u)
            if free(f, r2) and pawn_ok(t, r2):
                placed = (f, r2)
        elif not annan and mode < 0.75:
            # an enemy unit paired with an existing one, on one of its lines
            (f, r), u = rng.choice(units)
            p = partner(cond, u.upper())
            if p and p != "K":
                t = p
                colour_white = not white(u)
                # either the new unit observes u (it stands on u's lines as its own type
                # would see it) or u observes it
                src_type = u.upper() if rng.random() < 0.5 else t
                is_w = white(u) if src_type == u.upper() else colour_white
                x, y = line_square(rng, board, f, r, src_type, is_w)
                if free(x, y) and pawn_ok(t, y):
                    placed = (x, y)
        elif annan and mode < 0.7:
            # a second unit on the same file two squares away (chains, blocked lenders)
            (f, r), u = rng.choice(units)
            r2 = r + rng.choice((-2, 2))
            if free(f, r2) and pawn_ok(t, r2):
                placed = (f, r2)
        if placed is None:
            for _ in range(50):
                if t == "P":
                    if rng.random() < 0.7:
                        r = rng.choice((1, 6))
                    else:
                        r = rng.randint(2, 5)
                    f = rng.randrange(8)
                else:
                    f, r = rng.randrange(8), rng.randrange(8)
                if free(f, r):
                    placed = (f, r)
                    break
        if placed:
            board[placed] = t if colour_white else t.lower()

    rows = []
    for r in range(7, -1, -1):
        row, empty = "", 0
        for f in range(8):
            if (f, r) in board:
                row += (str(empty) if empty else "") + board[(f, r)]
                empty = 0
            else:
                empty += 1
        rows.append(row + (str(empty) if empty else ""))
    fen = "/".join(rows) + f" {side} - {square(*ep) if ep else '-'} 0 1"
    return board, fen, side, ep


def feerie_moves(feerie, condition, fen):
    p = subprocess.run([feerie, "moves", "--condition", condition, "--json", fen], capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return sorted(json.loads(p.stdout)), ""


MOVE = re.compile(r"^\s*1\.([A-Z]?)([a-h][1-8])([-*])([a-h][1-8])(?:-([a-h][1-8]))?(?:=([A-Z]))?")


def popeye_problem(condition, board, side, ep):
    # Colour-reversed for Black to move: square (f, r) -> (f, 7 - r), colours swapped.
    flip = side == "b"
    groups = {"White": [], "Black": []}
    for (f, r), u in sorted(board.items(), key=lambda x: (x[1].upper() != "K", x[0])):
        w = u.isupper() != flip
        groups["White" if w else "Black"].append(LETTER[u.upper()] + square(f, 7 - r if flip else r))
    options = "NoCastling a1e1h1a8e8h8 NoBoard"
    if ep:  # in Popeye's position Black has just played f7-f5
        f = ep[0]
        options += " EnPassant " + square(f, 6) + square(f, 5) + square(f, 4)
    return (f"BeginProblem\nCondition {KEYWORDS[condition]}\nOption {options}\n"
            f"Pieces White {' '.join(groups['White'])} Black {' '.join(groups['Black'])}\n"
            f"Stipulation ~1\nEndProblem\n")


def popeye_moves(popeye, text, side):
    flip = side == "b"
    p = subprocess.run([popeye], input=text, capture_output=True, text=True, timeout=60)
    moves, unparsed = [], []
    for line in p.stdout.splitlines():
        if not line.strip().startswith("1."):
            continue
        m = MOVE.match(line)
        if not m:
            unparsed.append(line.strip())
            continue
        a, b = m.group(2), (m.group(5) or m.group(4))  # a locust lands beyond the unit it takes
        promo = m.group(6)
        if flip:
            a, b = a[0] + str(9 - int(a[1])), b[0] + str(9 - int(b[1]))
        moves.append(a + b + (PROMO[promo] if promo else ""))
    finished = "solution finished" in p.stdout
    return sorted(moves), finished, unparsed, p.stdout + p.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--feerie", required=True)
    ap.add_argument("--popeye", required=True)
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--plan", default=",".join(f"{c}:70" for c in KEYWORDS))
    ap.add_argument("--out", required=True)
    ap.add_argument("--disagreements", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    random.seed(args.seed + 1)  # partner() choices
    out = open(args.out, "w")
    dis = open(args.disagreements, "w")
    for item in args.plan.split(","):
        condition, count = item.rsplit(":", 1)
        agreed = disagreed = refused = drawn = 0
        seen = set()
        stats = {"ep": 0, "G": 0, "L": 0, "P": 0, "promo": 0, "btm": 0}
        while agreed + disagreed < int(count):
            drawn += 1
            board, fen, side, ep = random_position(rng, condition)
            if fen in seen:
                continue
            seen.add(fen)
            ours, why = feerie_moves(args.feerie, condition, fen)
            if ours is None:
                refused += 1
                if refused > 50 * int(count):
                    sys.exit(f"{condition}: feerie refuses everything ({why})")
                continue
            text = popeye_problem(condition, board, side, ep)
            theirs, finished, unparsed, raw = popeye_moves(args.popeye, text, side)
            if theirs == ours and finished and not unparsed:
                out.write(f"{condition}|{fen}|{' '.join(theirs)}\n")
                out.flush()
                agreed += 1
                units = "".join(board.values()).upper()
                stats["ep"] += ep is not None
                stats["G"] += "G" in units
                stats["L"] += "L" in units
                stats["P"] += "P" in units
                stats["promo"] += any(len(m) == 5 for m in ours)
                stats["btm"] += side == "b"
            else:
                disagreed += 1
                only_f = sorted(set(ours) - set(theirs))
                only_p = sorted(set(theirs) - set(ours))
                dis.write(f"=== {condition}|{fen}\nfeerie ({len(ours)}): {' '.join(ours)}\n"
                          f"popeye ({len(theirs)}): {' '.join(theirs)}\nonly feerie: {' '.join(only_f)}\n"
                          f"only popeye: {' '.join(only_p)}\nfinished: {finished} unparsed: {unparsed}\n"
                          f"--- popeye input\n{text}--- popeye output\n{raw}\n")
                dis.flush()
        print(f"{condition}: agreed {agreed}, disagreed {disagreed}, refused by feerie {refused}, drawn {drawn}; "
              f"agreed with ep {stats['ep']}, with G {stats['G']}, with L {stats['L']}, with P {stats['P']}, "
              f"with a promotion move {stats['promo']}, Black to move {stats['btm']}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
