#!/usr/bin/env python3
"""Independent cross-check from Feerie's tables (feerie probe --moves): the same
threat-based reading computed from exact values, to compare with the reading
of Popeye's text.  Not the reference; only used to flag disagreements."""
import json, subprocess, functools

BASE = '/tmp/popeye_threat'


@functools.lru_cache(maxsize=None)
def probe(cond, fen):
    r = subprocess.run([f'{BASE}/feerie', 'probe', '--tables', f'{BASE}/tables', '--condition', cond,
                        '--json', '--no-pv', '--moves', fen], capture_output=True, text=True)
    if not r.stdout.strip():
        return dict(error=r.stderr.strip())
    return json.loads(r.stdout.strip().split('\n')[0])


def flip(fen):
    f = fen.split()
    f[1] = 'b' if f[1] == 'w' else 'w'
    f[3] = '-'
    return ' '.join(f)


def wins(d):
    return [m for m in d.get('moves', []) if m['wdl'] == 'win']


def white_node(cond, fen_after_white, k, n, acc, path):
    """White has just played move k, reaching fen_after_white (Black to move).
    Returns a dict like parse_popeye.analyse_white."""
    B = probe(cond, fen_after_white)
    info = dict(path=path)
    nul = probe(cond, flip(fen_after_white))
    threats, t = [], None
    if 'error' in nul:
        info['kind'] = 'check'
    else:
        w = wins(nul)
        if w:
            t = min(m['mate_in'] for m in w)
        if t is not None and t <= n - k:
            threats = [m['move'] for m in w if m['mate_in'] == t]
            info['kind'] = 'threat'
        else:
            t = None
            info['kind'] = 'zugzwang'
    info['threats'] = threats
    info['threat_mate_move'] = k + t if t else None
    T = info['threat_mate_move']
    ds = []
    for r in B['moves']:
        Wr = probe(cond, r['fen_after'])
        w = wins(Wr)
        s = min(m['mate_in'] for m in w)
        assert k + s <= n, (path, r)
        conts = [m for m in w if m['mate_in'] == s]
        M = k + s
        working = [m['move'] for m in w if m['move'] in threats and m['mate_in'] <= t]
        real = not threats or not working
        visible = (not threats) or M > T or (M == T and len(working) < len(threats))
        dd = dict(defence=r['move'], continuations=[c['move'] for c in conts], mate_move=M,
                  real_defence=real, popeye_prints=visible, threats_still_working=working)
        if real:
            if len(conts) > 1:
                acc['duals'] += len(conts) - 1
                acc['dual_list'].append(f'{path} {r["move"]}: ' + ','.join(c['move'] for c in conts))
                if not visible:
                    acc['hidden_dual'].append(f'{path} {r["move"]}')
            if not visible:
                acc['hidden_real'].append(f'{path} {r["move"]}')
            dd['subtrees'] = [white_node(cond, c['fen_after'], k + 1, n, acc, f'{path} {r["move"]} {c["move"]}')
                              for c in conts if not c['checkmate']]
        ds.append(dd)
    info['defences'] = ds
    return info


def analyse(cond, fen, n):
    P = probe(cond, fen)
    w = wins(P)
    best = min(m['mate_in'] for m in w)
    assert best == n, (fen, best, n)
    keys = [m for m in w if m['mate_in'] == best]
    acc = dict(duals=0, dual_list=[], hidden_real=[], hidden_dual=[])
    res = dict(keys=[m['move'] for m in keys])
    if len(keys) == 1:
        tree = white_node(cond, keys[0]['fen_after'], 1, n, acc, keys[0]['move'])
        res.update(key_kind=tree['kind'], threats=tree['threats'], threat_mate_move=tree['threat_mate_move'],
                   top_real_defences=sorted(d['defence'] for d in tree['defences'] if d['real_defence']),
                   top_printed=sorted(d['defence'] for d in tree['defences'] if d['popeye_prints']),
                   tree=tree)
    res.update(duals=acc['duals'], dual_list=acc['dual_list'], hidden_real=acc['hidden_real'],
               hidden_dual=acc['hidden_dual'],
               sound_threat=len(keys) == 1 and acc['duals'] == 0)
    return res
