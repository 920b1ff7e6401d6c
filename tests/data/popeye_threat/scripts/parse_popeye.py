#!/usr/bin/env python3
"""Parse Popeye's tree output (Option Variation Try NoBoard) into nodes and
derive the threat-based soundness verdict.

Reading rules (see README.md):
  * a move line is  <k>.<move> [+|#] [!|?] [threat:|zugzwang.]   (White, ply 2k-1)
                or  <k>...<move> [+|#] [!]                        (Black, ply 2k)
  * the parent of a line is the nearest earlier line of smaller ply still open
    (a stack);  a White line whose parent is a White line (two plies up) is a
    threat of that parent (Popeye prints the threat lines right after
    'threat:' and before any defence); a White line whose parent is a Black
    line is a continuation; a Black line is a defence (variation) of the White
    line above it.
  * 'but' opens the refutations of the try above; the Black lines after it end in '!'.
"""
import re

LINE = re.compile(r'^(\s*)(\d+)\.(\.\.)?([KQRBSP]?[a-h][1-8][-*][a-h][1-8](?:=[QRBS])?(?: ep\.)?)(.*)$')


class Node:
    def __init__(self, ply, move, white, suffix, raw):
        self.ply, self.move, self.white, self.raw = ply, move, white, raw
        toks = suffix.split()
        self.check = '+' in toks
        self.mate = '#' in toks
        self.mark = '!' if '!' in toks else ('?' if '?' in toks else None)
        self.threat_flag = suffix.rstrip().endswith('threat:')
        self.zugzwang = suffix.rstrip().endswith('zugzwang.')
        self.threats, self.defences, self.conts, self.refutations = [], [], [], []
        self.refutation = False   # a Black line printed after 'but'

    def mnum(self):
        return (self.ply + 1) // 2

    def uci(self):
        m = re.match(r'[KQRBSP]?([a-h][1-8])[-*]([a-h][1-8])', self.move)
        return m.group(1) + m.group(2)

    def __repr__(self):
        return f'{self.mnum()}.{"" if self.white else ".."}{self.move}'


def parse(text):
    roots, stack, but = [], [], False
    for raw in text.split('\n'):
        s = raw.rstrip()
        if s.strip() == 'but':
            but = True
            continue
        m = LINE.match(s)
        if not m:
            continue
        k = int(m.group(2)); black = m.group(3) is not None
        ply = 2 * k if black else 2 * k - 1
        n = Node(ply, m.group(4), not black, m.group(5), s)
        while stack and stack[-1].ply >= ply:
            stack.pop()
        if ply == 1:
            roots.append(n); but = False
        else:
            par = stack[-1]
            if n.white:
                if par.white:
                    assert par.ply == ply - 2, raw
                    par.threats.append(n)
                else:
                    assert par.ply == ply - 1, raw
                    par.conts.append(n)
            else:
                assert par.white and par.ply == ply - 1, raw
                if but and ply == 2:
                    n.refutation = True
                    par.refutations.append(n)
                else:
                    par.defences.append(n)
        stack.append(n)
    return roots


def mate_move(node, n):
    """The move number of White's mating move in the line starting at White node
    `node`, for stipulations #n with n <= 3: the move itself if it mates, else
    the last move n (Popeye prints only lines of the shortest length)."""
    assert node.white
    return node.mnum() if node.mate else n


def line_text(node, n):
    """The Popeye line of a White node and everything below it, compact."""
    out = [repr(node) + (' #' if node.mate else (' +' if node.check else ''))]
    for d in node.defences:
        out.append(repr(d) + ' ' + ' / '.join(line_text(c, n) for c in d.conts))
    if len(out) == 1:
        return out[0]
    return out[0] + ' (' + '; '.join(out[1:]) + ')'


def analyse_white(W, n, acc, path):
    """Walk the White node W (key or continuation) of a #n: its threats, its
    printed defences, which of them stop every threat, the duals after them."""
    info = dict(move=repr(W), path=path)
    if W.threat_flag:
        kind = 'threat'
    elif W.zugzwang:
        kind = 'zugzwang'
    elif W.check:
        kind = 'check'
    else:
        kind = 'mate' if W.mate else 'other'
    info['kind'] = kind
    info['threats'] = [repr(t) for t in W.threats]
    T = None
    if W.threats:
        Ts = {mate_move(t, n) for t in W.threats}
        assert len(Ts) == 1, (W, Ts)
        T = Ts.pop()
        info['threat_mate_move'] = T
    threat_moves = {t.move for t in W.threats}
    dres = []
    for d in W.defences:
        conts = d.conts
        Ms = {mate_move(c, n) for c in conts}
        if len(Ms) != 1:
            acc['uncertain'].append(f'{path} {d!r}: continuations of different lengths {Ms}')
        M = max(Ms) if Ms else None
        if not conts:
            acc['uncertain'].append(f'{path} {d!r}: no continuation printed')
        if T is None:
            real, why = True, 'no threat (%s): every reply counts' % kind
        elif M > T:
            real, why = True, f'mate only on move {M}, after the threat move {T}: every threat stopped'
        elif M == T:
            still = sorted(threat_moves & {c.move for c in conts})
            real = not still
            why = ('threat(s) %s still mate on move %d' % (still, T)) if still else 'no threat move among the continuations of the same length'
        else:
            real, why = None, f'mate on move {M} before the threat move {T} (Popeye should not print this)'
            acc['uncertain'].append(f'{path} {d!r}: short variation shown against a longer threat')
        dd = dict(defence=repr(d), continuations=[repr(c) for c in conts], mate_move=M, real_defence=real, why=why)
        if real:
            if len(conts) > 1:
                acc['duals'] += len(conts) - 1
                acc['dual_list'].append(f'{path} {d!r}: ' + ', '.join(repr(c) for c in conts))
            dd['subtrees'] = [analyse_white(c, n, acc, f'{path} {d!r} {c!r}') for c in conts if not c.mate]
        else:
            if len(conts) > 1:
                acc['nondefence_multi'].append(f'{path} {d!r}: ' + ', '.join(repr(c) for c in conts))
        dres.append(dd)
    info['defences'] = dres
    # multiple mates/continuations inside the threat lines: informational only
    for t in W.threats:
        for d in t.defences:
            if len(d.conts) > 1:
                acc['threat_line_multi'].append(f'{path} threat {t!r} {d!r}: ' + ', '.join(repr(c) for c in d.conts))
    return info


def verdict(text, n):
    roots = parse(text)
    keys = [r for r in roots if r.mark == '!']
    tries = [r for r in roots if r.mark == '?']
    acc = dict(duals=0, dual_list=[], uncertain=[], nondefence_multi=[], threat_line_multi=[])
    res = dict(keys=[repr(k) + (' +' if k.check else '') for k in keys],
               tries=[dict(move=repr(t), refutations=[repr(r) for r in t.refutations]) for t in tries])
    if len(keys) == 1:
        K = keys[0]
        tree = analyse_white(K, n, acc, repr(K))
        res['key_kind'] = tree['kind']
        res['threats'] = tree['threats']
        res['threat_lines'] = [line_text(t, n) for t in K.threats]
        res['threat_mate_move'] = tree.get('threat_mate_move')
        res['tree'] = tree
    else:
        res['key_kind'] = None
        res['threats'] = []
        res['threat_lines'] = []
        res['threat_mate_move'] = None
        acc['uncertain'].append(f'{len(keys)} keys')
    res['double_threat'] = len(res['threats']) > 1
    res['duals_after_defences'] = acc['duals']
    res['dual_list'] = acc['dual_list']
    res['nondefence_multi'] = acc['nondefence_multi']
    res['threat_line_multi'] = acc['threat_line_multi']
    res['parse_uncertain'] = acc['uncertain']
    res['sound_threat'] = len(keys) == 1 and acc['duals'] == 0
    return res, roots
