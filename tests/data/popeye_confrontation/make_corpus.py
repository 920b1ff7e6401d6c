#!/usr/bin/env python3
"""Records Popeye's legal moves of random positions under Face-to-face, Back-to-back and
their combinations with paralysis conditions (docs/conditions/face-to-face.md), as
tests/rules/face_to_face_test.cpp reads them. Run outside the suite:

    make_corpus.py --feerie build/tools/feerie --popeye /path/to/py --seed 5 > moves.txt
    make_corpus.py --feerie build/tools/feerie --popeye /path/to/py --seed 7 \
        --plan madrasi+face-to-face:150,madrasi-ri+back-to-back:150,isardam+face-to-face:150,eiffel+back-to-back:150 \
        > combined_moves.txt

Positions are placed at random (kings and two to four other units of either colour, with
most positions holding a unit directly in front of or behind an enemy unit); those Feerie
refuses as illegal are skipped, the rest go to Popeye with stipulation ~1. Popeye moves
White: a position with Black to move is given to it colour-reversed (mirrored top to
bottom, colours swapped), which keeps these conditions, and its moves are mirrored back.
Output lines: condition|FEN|moves in long algebraic notation, sorted."""
import argparse
import random
import re
import subprocess

KEYWORDS = {
    "face-to-face": "FaceToFace",
    "back-to-back": "BackToBack",
    "madrasi": "Madrasi",
    "madrasi-ri": "Madrasi RexInclusive",
    "isardam": "Isardam",
    "eiffel": "EiffelChess",
}
LETTER = {"K": "K", "Q": "Q", "R": "R", "B": "B", "N": "S", "P": "P"}


def square(f, r):
    return "abcdefgh"[f] + str(r + 1)


def random_position(rng):
    board = {}
    free = [(f, r) for f in range(8) for r in range(8)]
    rng.shuffle(free)
    board[free.pop()] = "K"
    board[free.pop()] = "k"
    for _ in range(rng.randint(2, 4)):
        t = rng.choice("QRBNP")
        board[free.pop()] = t if rng.random() < 0.5 else t.lower()
    if rng.random() < 0.8:  # a confrontation: an enemy unit directly above or below one
        (f, r), unit = rng.choice(list(board.items()))
        r2 = r + rng.choice((-1, 1))
        if 0 <= r2 < 8 and (f, r2) not in board:
            t = rng.choice("QRBNPK" if rng.random() < 0.1 else "QRBNP")
            if t != "K":
                board[(f, r2)] = t.lower() if unit.isupper() else t
    side = rng.choice("wb")
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
    return board, "/".join(rows) + f" {side} - - 0 1", side


def feerie_moves(feerie, condition, fen):
    p = subprocess.run([feerie, "moves", "--condition", condition, "--json", fen], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    return sorted(re.findall(r'"([a-h][1-8][a-h][1-8][qrbn]?)"', p.stdout))


def popeye_moves(popeye, condition, board, side):
    # Colour-reversed for Black to move: square (f, r) -> (f, 7 - r), colours swapped.
    flip = side == "b"
    groups = {"White": [], "Black": []}
    for (f, r), u in board.items():
        white = u.isupper() != flip
        groups["White" if white else "Black"].append(LETTER[u.upper()] + square(f, 7 - r if flip else r))
    conds = " ".join(KEYWORDS[c] for c in condition.split("+"))
    text = (f"BeginProblem\nCondition {conds}\nPieces White {' '.join(groups['White'])} Black "
            f"{' '.join(groups['Black'])}\nStipulation ~1\nOption NoBoard\nEndProblem\n")
    out = subprocess.run([popeye], input=text, capture_output=True, text=True, timeout=60).stdout
    moves = []
    for m in re.finditer(r"1\.[KQRBSP]?([a-h][1-8])[-*]([a-h][1-8])(?:=([QRBS]))?", out):
        a, b, promo = m.group(1), m.group(2), m.group(3)
        if flip:
            a, b = a[0] + str(9 - int(a[1])), b[0] + str(9 - int(b[1]))
        moves.append(a + b + ({"Q": "q", "R": "r", "B": "b", "S": "n"}[promo] if promo else ""))
    return sorted(moves)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--feerie", required=True)
    ap.add_argument("--popeye", required=True)
    ap.add_argument("--seed", type=int, default=5)
    # moves.txt: the default plan; combined_moves.txt: --seed 7 --plan
    # madrasi+face-to-face:150,madrasi-ri+back-to-back:150,isardam+face-to-face:150,eiffel+back-to-back:150
    ap.add_argument("--plan", default="face-to-face:300,back-to-back:300")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for item in args.plan.split(","):
        condition, count = item.rsplit(":", 1)
        made = 0
        while made < int(count):
            board, fen, side = random_position(rng)
            ours = feerie_moves(args.feerie, condition, fen)
            if ours is None:
                continue
            theirs = popeye_moves(args.popeye, condition, board, side)
            print(f"{condition}|{fen}|{' '.join(theirs)}", flush=True)
            made += 1


if __name__ == "__main__":
    main()
