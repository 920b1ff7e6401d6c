#!/usr/bin/env python3
"""Generates the 3- and 4-man tables with magic units (SPEC 3.5) under the orthodox
condition, verifies them, and writes docs/results/magic.md: per material the stored
table, the component it was solved in, win/draw/loss per side to move, the longest mates
beside those of the orthodox twin (magic unit made ordinary) and of the material without
the magic unit, and for every material with mates its longest mate with an example and
its principal variation, the mutations along it written out.

Materials: K mX v K (X in Q R B N P), K mX v K Y, K Y mX v K (X, Y in Q R B N P) and
K mX v K mY (unordered up to colour swap), 70 in all.

Usage: scripts/magic_results.py [--feerie build/tools/feerie] [--tables tables]
       [--out docs/results/magic.md] [--only KmRvK KmRvKN ...] [--no-verify]
--only replaces the default materials (quick tries: --only KmRvK KmRvKN --tables /tmp/t).
Exit status 1 when a table fails to verify.
"""
import argparse
import datetime
import json
import os
import re
import sys
import time

from results_common import add_common_arguments, longest, longest_mate_diagrams, regenerate_command, run, verify, write_page

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

UNITS = "QRBNP"
ORDER = "KQRBNGLP"  # feerie's order of types within a side (probe/material.h)
TYPE_NAMES = {"k": "king", "q": "queen", "r": "rook", "b": "bishop", "n": "knight", "g": "grasshopper",
              "l": "locust", "p": "pawn"}
FAMILIES = [
    ("3-man: K mX v K", [f"Km{x}vK" for x in UNITS]),
    ("4-man, magic unit beside an enemy unit: K mX v K Y", [f"Km{x}vK{y}" for x in UNITS for y in UNITS]),
    ("4-man, magic unit beside a friendly unit: K mX Y v K", [f"K{y}m{x}vK" for x in UNITS for y in UNITS]),
    ("4-man, one magic unit each side: K mX v K mY",
     [f"Km{x}vKm{y}" for i, x in enumerate(UNITS) for y in UNITS[i:]]),
]


# --- material names: a side is a list of (letter, magic) --------------------------------

def parse_material(name):
    sides = name.split("v")
    if len(sides) != 2:
        raise ValueError(f"bad material {name!r}: expected one 'v'")
    out = []
    for text in sides:
        units, magic = [], False
        for c in text:
            if c == "m" and not magic:
                magic = True
            elif c.upper() in ORDER and c.isupper():
                units.append((c, magic))
                magic = False
            else:
                raise ValueError(f"bad material {name!r} at {c!r}")
        if magic or sum(1 for u in units if u[0] == "K") != 1:
            raise ValueError(f"bad material {name!r}")
        out.append(units)
    return out


def side_name(units):
    return "".join(t for t in ORDER for u in units if u == (t, False)) + \
        "".join("m" + t for t in ORDER for u in units if u == (t, True))


def material_name(sides):
    return side_name(sides[0]) + "v" + side_name(sides[1])


def side_key(units):
    # Material::is_canonical_orientation: more units, then more Q R B N G L P, then magic.
    return [len(units)] + [sum(1 for u in units if u == (t, m)) for m in (False, True) for t in ORDER[1:]]


def is_canonical(sides):
    return side_key(sides[0]) >= side_key(sides[1])


def ordinary(sides):
    return [[(t, False) for t, _ in s] for s in sides]


def without_magic(sides):
    return [[u for u in s if not u[1]] for s in sides]


def family_of(sides):
    magic = [sum(1 for _, m in s if m) for s in sides]
    plain = [sum(1 for t, m in s if not m and t != "K") for s in sides]
    if sorted(magic) == [0, 1] and plain == [0, 0]:
        return 0
    if sorted(magic) == [0, 1] and sum(plain) == 1:
        return 2 if plain[magic.index(1)] == 1 else 1
    if magic == [1, 1] and plain == [0, 0]:
        return 3
    return None


# --- FEN helpers --------------------------------------------------------------------------

def flip_fen(fen):
    """The same position with colours exchanged (ranks mirrored, case swapped)."""
    f = fen.split()
    f[0] = "/".join(r.swapcase() for r in reversed(f[0].split("/")))
    f[1] = "b" if f[1] == "w" else "w"
    if len(f) > 2 and f[2] != "-":
        f[2] = "".join(sorted(f[2].swapcase(), key="KQkq".find))
    if len(f) > 3 and f[3] != "-":
        f[3] = f[3][0] + str(9 - int(f[3][1]))
    return " ".join(f)


def board(fen):
    units, rank = {}, 8
    for row in fen.split()[0].split("/"):
        file = 0
        for c in row:
            if c.isdigit():
                file += int(c)
            elif c == "*":
                sq = "abcdefgh"[file - 1] + str(rank)
                units[sq] = (units[sq][0], True)
            else:
                units["abcdefgh"[file] + str(rank)] = (c, False)
                file += 1
        rank -= 1
    return units


def unit_text(u, letter=None):
    c = letter or u[0]
    return ("white " if u[0].isupper() else "black ") + ("magic " if u[1] else "") + TYPE_NAMES[c.lower()]


def mutations(move, before, after):
    """The mutations a move made: units whose type changed other than by promotion."""
    frm, to, promo = move[:2], move[2:4], move[4:]
    notes = []
    mover, arrived = before.get(frm), after.get(to)
    if mover and arrived:
        left_as = (promo.upper() if mover[0].isupper() else promo.lower()) if promo else mover[0]
        if arrived[0] != left_as:
            notes.append(f"{unit_text(mover, left_as)} {to} -> {TYPE_NAMES[arrived[0].lower()]}")
    for sq in sorted(set(before) & set(after) - {frm, to}, key=lambda s: (s[1], s[0])):
        b, a = before[sq], after[sq]
        if b != a and b[0].isupper() == a[0].isupper():
            notes.append(f"{unit_text(b)} {sq} -> {TYPE_NAMES[a[0].lower()]}")
    return notes


def replay(feerie, fen, pv):
    """The principal variation with the mutations of each move in brackets; # after a
    last move that leaves no legal move. Also returns the number of mutations."""
    words, count = [], 0
    for move in pv:
        after = {m["move"]: m["fen"] for m in json.loads(run([feerie, "moves", "--after", "--json", fen]))}
        if move not in after:
            raise RuntimeError(f"principal variation move {move} is not legal in {fen}")
        notes = mutations(move, board(fen), board(after[move]))
        count += len(notes)
        words.append(move + (f" ({', '.join(notes)})" if notes else ""))
        fen = after[move]
    if words and not json.loads(run([feerie, "moves", "--after", "--json", fen])):
        words[-1] = words[-1].replace(pv[-1], pv[-1] + "#", 1)
    return " ".join(words), count


# --- tables -------------------------------------------------------------------------------

LINE = re.compile(r"^(\S+): (generated|reused) (\S+)(.*)$")
COMPONENT = re.compile(r"component of (\d+): ([^)]*)\)")


def gen(a, name):
    out = run([a.feerie, "gen", "--tables", a.tables, name])
    sys.stderr.write(out)
    tables = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            c = COMPONENT.search(m.group(4))
            tables[m.group(1)] = (m.group(3), c.group(2).split() if c else [m.group(1)])
    return tables


def oriented_stat(a, sides):
    """feerie stat of a material in the orientation asked for: stored tables have one
    orientation, so for the other one wtm and btm exchange and FENs are flipped."""
    canon = sides if is_canonical(sides) else [sides[1], sides[0]]
    st = json.loads(run([a.feerie, "stat", "--json", "--tables", a.tables, material_name(canon)]))
    if canon is sides:
        return st
    st = {"wtm": dict(st["btm"]), "btm": dict(st["wtm"])}
    for s in st.values():
        if s["longest_mate_fen"]:
            s["longest_mate_fen"] = flip_fen(s["longest_mate_fen"])
    return st


def wdl(s):
    return f"{s['win']} / {s['draw']} / {s['loss']}"


def mates(s):
    return f"{longest(s['wtm'])} / {longest(s['btm'])}"


def pct(n, d):
    x = 100 * n / d
    if 99.95 <= x < 100:
        return f"{x:.2f}%"  # not 100.0% when some positions are not won
    return f"{x:.1f}%" if x >= 0.1 else f"{x:.1g}%"


def span(values, fmt=str):
    lo, hi = min(values), max(values)
    return fmt(lo) if lo == hi else f"{fmt(lo)}-{fmt(hi)}"


def observations(rows):
    """The paragraph on what magic pieces do, for the full set of materials. Every figure
    is read from the rows, and each claim is written only while the figures bear it out."""
    if any(m not in rows for _, ms in FAMILIES for m in ms):
        return []
    fam = [[rows[m] for m in ms] for _, ms in FAMILIES]
    alone, enemy, friend, both = fam
    win = lambda r, s: r["stats"][s]["win"]
    rate = lambda r, s: win(r, s) / r["stats"][s]["positions"]
    lw = lambda r: longest(r["stats"]["wtm"])
    lb = lambda r: longest(r["stats"]["btm"])
    out = []

    still = alone + both
    if all(s["win"] == 0 and s["loss"] == 0 for r in still for s in (r["stats"]["wtm"], r["stats"]["btm"])):
        twin = max(max(longest(r["twin_stats"]["wtm"]), longest(r["twin_stats"]["btm"])) for r in still)
        out.append(f"With no ordinary unit on the board nothing can be won: the {len(alone)} K mX v K and "
                   f"{len(both)} K mX v K mY materials are draws in every position, as a magic unit gives no "
                   f"check, while their ordinary twins have mates of up to {twin} moves.")
    if all(win(r, "wtm") == 0 and r["stats"]["btm"]["loss"] == 0 for r in enemy):
        text = (f"In K mX v K Y the magic unit's side never wins (no White win, with either side to move, in "
                f"any of the {len(enemy)} tables)")
        if all(len(r["component"]) == 5 for r in enemy) and all(len(r["component"]) == 1
                                                              for r in alone + friend + both):
            text += (". They are the only materials of this page solved in components (of five materials), "
                     "since the magic unit can demote the enemy unit down to a pawn that promotes again")
        strong = [r for m, r in zip(FAMILIES[1][1], enemy) if not m.startswith("KmP")]
        weak = [r for m, r in zip(FAMILIES[1][1], enemy) if m.startswith("KmP")]
        kmpvkq = rows["KmPvKQ"]
        out.append(text + f". The other side, Black to move, wins {span([rate(r, 'btm') for r in strong], lambda x: pct(x, 1))} "
                   f"of its positions against a magic queen, rook, bishop or knight, but "
                   f"{span([rate(r, 'btm') for r in weak], lambda x: pct(x, 1))} against a magic pawn "
                   f"({pct(win(kmpvkq, 'btm'), kmpvkq['stats']['btm']['positions'])} in KmPvKQ).")
        minors = [r for m, r in zip(FAMILIES[1][1], enemy) if m[-1] in "BN"]
        if all(lb(r) > 0 and r["mutations"] > 0 for r in minors) and all(
                longest(r["bare_stats"]["btm"]) == 0 for r in minors):
            top = max(minors, key=lb)
            out.append(f"Even a lone bishop or knight mates the side with the magic unit: all {len(minors)} "
                       f"K mX v K B and K mX v K N tables have mates (up to {lb(top)} moves, "
                       f"{[m for m in rows if rows[m] is top][0]}), where KvKB and KvKN have none, and in each "
                       f"example below the bishop or knight is demoted at least once on the way.")
    byy = {y: [rows[f"K{y}m{x}vK"] for x in UNITS] for y in UNITS}
    if all(rate(r, "wtm") > 0 for r in friend):
        minor = byy["B"] + byy["N"]
        text = (f"A friendly magic unit makes every unit a winner: with White to move K Y mX v K wins "
                f"{span([rate(r, 'wtm') for r in minor], lambda x: pct(x, 1))} of the positions with a bishop or "
                f"knight, which cannot mate alone (KBvK, KNvK), "
                f"{span([rate(r, 'wtm') for r in byy['P']], lambda x: pct(x, 1))} with a pawn")
        if all(r["stats"]["wtm"]["draw"] == 0 for r in byy["Q"]):
            text += " and every position with a queen"
        out.append(text + ".")
        q, bare_q = [lw(r) for r in byy["Q"]], longest(byy["Q"][0]["bare_stats"]["wtm"])
        if len(set(q)) == 1 and q[0] == bare_q:
            twins = [longest(r["twin_stats"]["wtm"]) for r in byy["Q"]]
            out.append(f"The queen mates in at most {q[0]} moves whatever the magic unit, exactly as in KQvK, "
                       f"against {span(twins)} with a second ordinary unit (KQQvK ... KQPvK): the magic unit "
                       f"neither checks nor guards.")
        rk, bare_r = [lw(r) for r in byy["R"]], longest(byy["R"][0]["bare_stats"]["wtm"])
        nb = [lw(r) for r in byy["B"] + byy["N"]]
        pw, bare_p = [lw(r) for r in byy["P"]], longest(byy["P"][0]["bare_stats"]["wtm"])
        kbn = longest(rows["KBmNvK"]["twin_stats"]["wtm"])
        others = [r for y in "RBNP" for r in byy[y]]
        out.append(f"With the other units the longest mates are: the rook {span(rk)} moves (KRvK: {bare_r}), the "
                   f"bishop or knight {span(nb)} (KBNvK: {kbn}), the pawn {span(pw)} (KPvK: {bare_p}); in "
                   f"{sum(1 for r in others if r['mutations'] > 0)} of these {len(others)} examples the unit is "
                   f"upgraded on the way, one step each time it comes next to the magic unit"
                   + (", in KNmRvK from knight to bishop to rook to queen" if rows["KNmRvK"]["mutations"] == 3
                      and all(t in rows["KNmRvK"]["pv"] for t in ("-> bishop", "-> rook", "-> queen")) else "")
                   + ".")
    best = max(rows, key=lambda m: max(lw(rows[m]), lb(rows[m])))
    r = rows[best]
    out.append(f"The longest mate on this page is {max(lw(r), lb(r))} moves, in {best}.")
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(p, os.path.join(ROOT, "docs", "results", "magic.md"))
    a = p.parse_args()
    start = time.time()

    if a.only:
        families = [[] for _ in FAMILIES] + [[]]
        for m in a.only:
            f = family_of(parse_material(m))
            families[len(FAMILIES) if f is None else f].append(material_name(parse_material(m)))
        titles = [t for t, _ in FAMILIES] + ["Other materials"]
    else:
        families = [ms for _, ms in FAMILIES]
        titles = [t for t, _ in FAMILIES]

    rows, failures, files = {}, [], set()
    for m in [m for ms in families for m in ms]:
        sides = parse_material(m)
        canon = material_name(sides if is_canonical(sides) else [sides[1], sides[0]])
        tables = gen(a, m)
        if canon not in tables:
            raise RuntimeError(f"feerie gen {m} did not report the table {canon}")
        files.update(path for path, _ in tables.values())
        component = tables[canon][1]
        twin, bare = ordinary(sides), without_magic(sides)
        for s in (twin, bare):
            files.update(path for path, _ in gen(a, material_name(s)).values())
        verified = verify(a.feerie, a.tables, canon, failures, skip=a.no_verify, label=m)
        ours = oriented_stat(a, sides)
        example, pv, nmut, side = "", "", 0, ""
        for s in ("wtm", "btm"):
            if ours[s]["longest_mate_plies"] is not None and (not example or longest(ours[s]) > longest(ours["wtm"])):
                example, side = ours[s]["longest_mate_fen"], s
        if example:
            probe = json.loads(run([a.feerie, "probe", "--json", "--tables", a.tables, example]))
            pv, nmut = replay(a.feerie, example, probe["pv"])
        rows[m] = dict(canon=canon, component=component, stats=ours, twin=material_name(twin),
                       twin_stats=oriented_stat(a, twin), bare=material_name(bare),
                       bare_stats=oriented_stat(a, bare), example=example, side=side, pv=pv, mutations=nmut,
                       verified=verified)
        sys.stderr.write(f"{m}: done ({time.time() - start:.0f} s)\n")

    command = regenerate_command("magic_results.py", a)
    lines = [
        "# Magic pieces: 3- and 4-man results",
        "",
        f"Regenerated by `{command}` on {datetime.date.today().isoformat()}.",
        "Magic units (SPEC 3.5, `docs/conditions/magic.md`) under the orthodox condition. A magic",
        "unit is `mR` in material names and `R*` in FEN: `KmRvKN` is White king and magic rook",
        "against Black king and knight. Counts are raw (every legal position, every symmetry",
        "image; SPEC 1) as win / draw / loss for the side to move, White first as the material",
        "is written here. Feerie stores each table in one colour orientation: *stored as* names",
        "the table file when it is the other one. *Component*: the number of materials solved",
        "together because mutation and promotion turn them into each other (1: solved alone).",
        "Longest mates in moves, for the side to move winning. *Ordinary twin*: the orthodox",
        "material with the magic unit made ordinary; *without magic*: the orthodox material",
        "with the magic unit removed. Magic units cannot be captured and give no check, so",
        "there are more legal positions than in the twin.",
        "",
    ]
    for title, ms in zip(titles, families):
        if not ms:
            continue
        lines += [f"## {title}", "",
                  "| material | stored as | component | wtm win / draw / loss | btm win / draw / loss | "
                  "longest mate wtm / btm | ordinary twin: longest wtm / btm | without magic: longest wtm / btm | "
                  "verify |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for m in ms:
            r = rows[m]
            lines.append(f"| {m} | {r['canon'] if r['canon'] != m else ''} | {len(r['component'])} | "
                         f"{wdl(r['stats']['wtm'])} | {wdl(r['stats']['btm'])} | {mates(r['stats'])} | "
                         f"{r['twin']}: {mates(r['twin_stats'])} | {r['bare']}: {mates(r['bare_stats'])} | "
                         f"{r['verified']} |")
        lines.append("")
    components = sorted({tuple(r["component"]) for r in rows.values() if len(r["component"]) > 1})
    if components:
        lines += ["## Components", "",
                  "Materials solved together (stored names), and the materials of this page in them:", ""]
        for c in components:
            here = [m for m in rows if rows[m]["canon"] in c]
            lines.append(f"- {' '.join(c)} ({len(c)}): {', '.join(here)}")
        lines.append("")
    lines += ["## Longest mates with an example and its principal variation", "",
              "One example per material with mates, for the side to move with the longer mate (White",
              "when equal), in the orientation of the material as written here. Mutations are in",
              "brackets after the move that made them (a unit named by its type before the mutation",
              "and its square after the move); promotions show in the move (`d7d8q`); `#` marks the mate.", ""]
    lines += longest_mate_diagrams(a.feerie, a.out, [(longest(r["stats"][r["side"]]), m, r["example"])
                                                     for m, r in rows.items() if r["example"]])
    for title, ms in zip(titles, families):
        with_mates = [m for m in ms if rows[m]["example"]]
        if not ms:
            continue
        lines += [f"### {title}", ""]
        if not with_mates:
            lines += ["No mates in these materials.", ""]
            continue
        for m in with_mates:
            r = rows[m]
            side = "White" if r["side"] == "wtm" else "Black"
            lines.append(f"- **{m}**, {side} to move mates in {longest(r['stats'][r['side']])} "
                         f"({r['mutations']} mutation{'' if r['mutations'] == 1 else 's'} on the way): `{r['example']}`: {r['pv']}")
        lines.append("")
    paragraph = observations(rows)
    if paragraph:
        lines += ["## What magic pieces do to these endgames", "", " ".join(paragraph), ""]
    if failures:
        lines += ["## Verification failures", ""] + [f"- {f}" for f in failures] + [""]
    write_page(a.out, lines)
    print(f"wrote {a.out} ({len(rows)} materials, {len(files)} table files generated or reused, "
          f"{len(failures)} verification failures, {time.time() - start:.0f} s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
