#!/usr/bin/env python3
"""Derive the threat-based verdict of every problem from Popeye's text.

Run A (popeye_out/ID.out, Option Variation Try NoBoard): keys, threats (the
White lines printed under 'threat:'), tries, and the variations Popeye itself
prints (it prints a reply only when it defeats at least one threat, or when
White's mate after it is longer than the threat).
Run B (popeye_out_nothreat/ID.out, Option Variation NoThreat NoBoard): every
reply of Black at every node of the solution, each with every shortest White
continuation.
Run C (popeye_out_sub/ID-*.out): for a reply after which White mates sooner
than the threat (Popeye's run A does not print these), the position after
the reply as a direct mate in (threat length) moves, Option NoBoard: the keys
it lists are the White moves that mate within the threat's length, so a threat
move among them means the threat still works.
"""
import json, re, subprocess, sys, os
from collections import Counter, defaultdict
sys.path.insert(0, '/tmp/popeye_threat/scripts')
import parse_popeye as P

BASE = '/tmp/popeye_threat'
FEERIE = f'{BASE}/feerie'
PY = f'{BASE}/popeye/py'
os.makedirs(f'{BASE}/popeye_out_sub', exist_ok=True)


def uci(m):
    g = re.search(r'([a-h][1-8])[-*]([a-h][1-8])', m)
    return g.group(1) + g.group(2)


def fen_after(cond, fen, moves):
    r = subprocess.run([FEERIE, 'play', '--condition', cond, fen] + moves, capture_output=True, text=True, check=True)
    last = r.stdout.strip().split('\n')[-1]
    return ' '.join(last.split()[1:])


def sub_run(p, path_uci, nmoves, tag):
    """Popeye on the position after path_uci as #nmoves; returns (input, output, keys uci)."""
    cond = p['condition']
    fen = fen_after(cond, p['fen'], path_uci)
    r = subprocess.run([FEERIE, 'probe', '--tables', f'{BASE}/tables', '--condition', cond, '--popeye', fen],
                       capture_output=True, text=True, check=True)
    text = r.stdout
    text = re.sub(r'^Stipulation #\d+$', f'Stipulation #{nmoves}', text, flags=re.M)
    text = re.sub(r'^(Option .*)$', r'\1 NoBoard', text, flags=re.M)
    inp = f'{BASE}/popeye_out_sub/{p["id"]}-{tag}.inp'
    out = f'{BASE}/popeye_out_sub/{p["id"]}-{tag}.out'
    open(inp, 'w').write(text)
    if not os.path.exists(out):
        o = subprocess.run(['nice', '-n', '10', PY, inp], capture_output=True, text=True, timeout=600)
        open(out, 'w').write(o.stdout)
    o = open(out).read()
    keys = [uci(n.move) for n in P.parse(o) if n.mark == '!']
    return fen, text, o, keys


def find_child_white(Wa, reply, cont):
    """In run A, the continuation `cont` after reply `reply` of White node Wa."""
    if Wa is None:
        return None
    for d in Wa.defences:
        if d.move == reply:
            for c in d.conts:
                if c.move == cont:
                    return c
    return None


def derive(p, A_text, B_text):
    n = int(p['stipulation'][1:])
    A = P.parse(A_text)
    B = P.parse(B_text)
    keysA = [r for r in A if r.mark == '!']
    keysB = [r for r in B if r.mark == '!']
    tries = [dict(move=repr(t), check=t.check, refutations=[repr(x) for x in t.refutations]) for t in A if t.mark == '?']
    res = dict(keys=[repr(k) + (' +' if k.check else '') + (' #' if k.mate else '') for k in keysA], tries=tries)
    uncertain, notes = [], []
    if [k.move for k in keysA] != [k.move for k in keysB]:
        uncertain.append('runs A and B give different keys')
    acc = dict(duals=0, dual_list=[], nondef_multi=[], subruns=[], printed_mismatch=[], levels=[])

    def node(Wa, Wb, path_moves, path_uci, k):
        """Wa: White node of run A (threat info), Wb: the same move in run B."""
        if Wa is None:
            uncertain.append(f'{" ".join(path_moves)}: not in run A, threats unknown')
            threats, T, kind = [], None, '?'
        else:
            threats = Wa.threats
            kind = 'threat' if Wa.threat_flag else 'zugzwang' if Wa.zugzwang else 'check' if Wa.check else 'mate' if Wa.mate else 'other'
            T = None
            if threats:
                Ts = {P.mate_move(t, n) for t in threats}
                if len(Ts) != 1:
                    uncertain.append(f'{" ".join(path_moves)}: threats of different lengths')
                T = max(Ts)
        tmoves = {t.move for t in threats}
        lvl = dict(at=' '.join(path_moves), kind=kind, threats=[repr(t) for t in threats], threat_mate_move=T, replies=[])
        printedA = sorted(d.move for d in (Wa.defences if Wa else []))
        printed_expected = []
        for d in Wb.defences:
            C = d.conts
            Ms = {P.mate_move(c, n) for c in C}
            if len(Ms) != 1:
                uncertain.append(f'{" ".join(path_moves)} {d!r}: continuations of different lengths {Ms}')
            M = max(Ms)
            cmoves = [c.move for c in C]
            if T is None:
                real, why, still = True, 'no threat after ' + ' '.join(path_moves) + f' ({kind}): every reply counts', []
            elif M > T:
                real, why, still = True, f'White mates only on move {M}, later than the threat (move {T}): every threat stopped', []
            elif M == T:
                still = sorted(tmoves & set(cmoves))
                real = not still
                why = (f'threat(s) {still} still among the shortest continuations (mate on move {T})' if still
                       else f'no threat move among the shortest continuations (mate on move {T})')
            else:
                tag = '_'.join(path_uci + [uci(d.move)])
                fen, text, out, keys = sub_run(p, path_uci + [uci(d.move)], T - k, tag)
                still = sorted(t for t in tmoves if uci(t) in keys)
                real = not still
                why = (f'White mates on move {M}, before the threat (move {T}); run C (#{T - k} after it) lists the threat move(s) {still} among its keys: threat not stopped'
                       if still else f'White mates on move {M}, before the threat (move {T}); run C (#{T - k} after it) lists no threat move among its keys: every threat stopped')
                acc['subruns'].append(dict(after=' '.join(path_moves + [repr(d)]), fen=fen, stipulation=f'#{T - k}',
                                           keys=keys, threat_still_works=bool(still), file=f'popeye_out_sub/{p["id"]}-{tag}.out'))
            # Popeye's printing rule in run A, as read in solving/battle_play/threat.c
            if T is None or M > T or (M == T and len(still) < len(tmoves)):
                printed_expected.append(d.move)
            lvl['replies'].append(dict(reply=repr(d), continuations=[repr(c) + (' #' if c.mate else '') for c in C],
                                       mate_move=M, real_defence=real, why=why,
                                       shown_in_run_A=d.move in printedA))
            if real:
                if len(C) > 1:
                    acc['duals'] += len(C) - 1
                    acc['dual_list'].append(' '.join(path_moves + [repr(d)]) + ': ' + ', '.join(repr(c) for c in C))
                for c in C:
                    if not c.mate:
                        node(find_child_white(Wa, d.move, c.move), c, path_moves + [repr(d), repr(c)],
                             path_uci + [uci(d.move), uci(c.move)], k + 1)
            elif len(C) > 1:
                acc['nondef_multi'].append(' '.join(path_moves + [repr(d)]) + ': ' + ', '.join(repr(c) for c in C))
        if sorted(printed_expected) != printedA:
            acc['printed_mismatch'].append(f'{" ".join(path_moves)}: run A shows {printedA}, rule gives {sorted(printed_expected)}')
        acc['levels'].append(lvl)

    if len(keysA) == 1 and len(keysB) == 1:
        K = keysA[0]
        node(K, keysB[0], [repr(K)], [uci(K.move)], 1)
        top = acc['levels'][-1]
        res.update(key_kind=top['kind'], threats=top['threats'], threat_mate_move=top['threat_mate_move'],
                   threat_lines=[P.line_text(t, n) for t in K.threats])
        # tries of the same length that Popeye shows in run A: refutations
    else:
        res.update(key_kind=None, threats=[], threat_mate_move=None, threat_lines=[])
    for m in acc['printed_mismatch']:
        uncertain.append('Popeye printing rule not reproduced: ' + m)
    res.update(double_threat=len(res['threats']) > 1,
               duals_after_defences=acc['duals'], dual_list=acc['dual_list'],
               sound_threat=len(keysA) == 1 and acc['duals'] == 0,
               nondefence_multi=acc['nondef_multi'], subruns=acc['subruns'],
               levels=list(reversed(acc['levels'])), uncertain_reasons=uncertain)
    return res
