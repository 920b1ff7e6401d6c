#!/usr/bin/env python3
"""Record Popeye's answers for helpmates (h#) and selfmates (s#) as test data.

Usage:
  make_corpus.py [--popeye PATH] [--feerie PATH] [--seed S] [--kind help|self|both]
                 [--outdir DIR] [--help-cap 4] [--self-cap 3] [--maxtime 30]

  PATH defaults come from the environment variables POPEYE and FEERIE
  (fallback /tmp/popeye/py and /tmp/feerie.helper).  Standard library only.

How the data are made
---------------------
* Positions are drawn at random (seeded; every (kind, condition, material,
  side to move) group has its own random.Random seeded with the string
  "<seed>/<kind>/<condition>/<material>/<side>", so groups are reproducible
  independently of the order in which they are processed).
* A drawn position is kept only if `feerie moves --condition C FEN` exits 0
  (legal under the condition: the side not to move is not in check).
* Popeye is asked, for every position, for its first moves (stipulation ~1,
  with Option HalfDuplex when Black moves first); the set of first moves is
  compared with `feerie moves --json`; any disagreement is logged to
  disagreements.txt (and the position is still recorded).
* Helpmates: Black to move -> h#1, h#2, ... h#CAP; White to move -> h#0.5,
  h#1.5, ... h#CAP.5, in increasing order; the first length with >= 1
  solution is the result, and the number of solutions Popeye prints at that
  length is recorded (Popeye's h#N also prints shorter solutions, but at the
  shortest length there are none, so every printed line is a solution of
  exactly that length).  No solution up to the cap -> none<=h#CAP(.5).
  If Popeye's MaxTime interrupts a length, the line is recorded as none<= the
  previous (fully searched) length if that is at least h#3 / h#3.5, otherwise
  the position is dropped.
* Selfmates (process_self_group): White to move; draws are screened with one
  s#CAP run each (Popeye's s#N also reports shorter solutions); for kept lines
  s#1, s#2, ... s#CAP are asked in increasing order, the first length with a
  solution (a key line "1.xxx !") is the result, else none<=s#CAP.  All legal
  positives are kept, 'none' lines fill each group up to its quota.
* Helpmate sampling: at most --help-bucket positions are kept per (condition,
  material, side to move, result); sampling in a group stops when the group
  has its quota or the draw budget is spent.
* At most 2 Popeye processes run at a time.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys
import threading
import time

CONDITIONS = {  # feerie name -> Popeye "Condition" line ('' = none)
    'orthodox': '',
    'madrasi-ri': 'Madrasi RexInclusive',
    'annan': 'AnnanChess',
    # added 2026-12 (keywords as in the #N corpus' FINDINGS.md):
    'madrasi': 'Madrasi',
    'isardam': 'Isardam',                 # Popeye default type A
    'isardam-b': 'Isardam TypeB',
    'eiffel': 'EiffelChess',
    'leffie': 'Leffie',
    'nanna': 'NannaChess',                # Popeye default type A
    'madrasi-ri+annan': 'Madrasi RexInclusive AnnanChess',
}
DEFAULT_CONDITIONS = ['orthodox', 'madrasi-ri', 'annan']
HELP_MATERIALS = ['KQvK', 'KRvK', 'KPvK', 'KBNvK', 'KQvKR', 'KRvKN', 'KPvKP', 'KRvKP']
SELF_MATERIALS = ['KQvKR', 'KRvKR', 'KQvKQ', 'KPvKR', 'KBvKR', 'KNvKQ', 'KRvKQ']
FILES = 'abcdefgh'
POPEYE_LETTER = {'K': 'K', 'Q': 'Q', 'R': 'R', 'B': 'B', 'N': 'S', 'P': 'P'}  # Popeye: S = knight

SOLUTION_END = re.compile(r'^(solution finished\.|Partial solution|solving interrupted\.)')
MOVE_RE = re.compile(r'1\.(?:\.\.)?([KQRBSP]?)([a-h][1-8])[-*]([a-h][1-8])(?:=([QRBS]))?')

LOCK = threading.Lock()
STATS = {}  # condition -> [popeye seconds, problems]


# ---------------------------------------------------------------- positions
def random_position(rng, material, stm, kind):
    """Random placement of the material; biased towards interesting positions."""
    wpart, bpart = material.split('v')
    board = {}

    def free(sq):
        return sq not in board

    def sq_of(f, r):
        return FILES[f] + str(r + 1)

    def place(piece, white, ranks=range(8), files=range(8)):
        for _ in range(200):
            f, r = rng.choice(list(files)), rng.choice(list(ranks))
            if free(sq_of(f, r)):
                board[sq_of(f, r)] = piece if white else piece.lower()
                return sq_of(f, r)
        raise RuntimeError('no free square')

    if kind == 'help':
        # 50%: white king first, black king within distance 2 of it (short mates)
        if rng.random() < 0.5:
            wk = place('K', True)
            wf, wr = FILES.index(wk[0]), int(wk[1]) - 1
            for _ in range(100):
                f, r = wf + rng.randint(-2, 2), wr + rng.randint(-2, 2)
                if 0 <= f < 8 and 0 <= r < 8 and free(sq_of(f, r)):
                    board[sq_of(f, r)] = 'k'
                    break
            wpart = wpart.replace('K', '', 1)
            if 'k' not in board.values():
                place('K', False)
        # otherwise black king: 60% on or next to an edge
        elif rng.random() < 0.6:
            edge = rng.choice([[0, 1], [6, 7]])
            if rng.random() < 0.5:
                place('K', False, ranks=edge)
            else:
                place('K', False, files=edge)
        else:
            place('K', False)
        for p in wpart:
            if p == 'K':
                place('K', True)
            elif p == 'P':
                # 40%: white pawn on the 7th rank (promotions)
                place('P', True, ranks=[6] if rng.random() < 0.4 else range(1, 7))
            else:
                place(p, True)
        for p in bpart[1:]:
            if p == 'P':
                place('P', False, ranks=[1] if rng.random() < 0.3 else range(1, 7))
            else:
                place(p, False)
    else:
        return random_selfmate_position(rng, material)
    return to_fen(board, stm)



def random_selfmate_position(rng, material):
    """Selfmate bias: white king on an edge, black king two ranks in front of it
    (60%, 'opposition') or within distance 2, black pieces anywhere or on the
    edge lines, white pieces near the black king; then one of the 8 board
    symmetries.  Returns None when the draw is unusable (pawn on rank 1/8)."""
    b = {}
    wf, wr = rng.randrange(8), 0
    b[(wf, wr)] = 'K'
    if rng.random() < 0.6:
        bf, br = wf + rng.choice([-1, 0, 0, 1]), 2
    else:
        bf, br = wf + rng.randint(-2, 2), rng.randint(1, 3)
    bf = min(7, max(0, bf))
    if (bf, br) in b:
        return None
    b[(bf, br)] = 'k'
    wpart, bpart = material.split('v')
    for p in bpart[1:]:
        while True:
            if rng.random() < 0.5:
                sq = (rng.randrange(8), rng.randrange(8))
            else:
                sq = (rng.randrange(8), rng.choice([0, 1]))
            if sq not in b:
                b[sq] = p.lower()
                break
    for p in wpart[1:]:
        while True:
            if rng.random() < 0.3:
                sq = (rng.randrange(8), rng.randrange(8))
            else:
                sq = (min(7, max(0, bf + rng.randint(-2, 2))), min(7, max(0, br + rng.randint(-2, 2))))
            if sq not in b:
                b[sq] = p
                break
    t = rng.randrange(8)
    board = {}
    for (f, r), p in b.items():
        if t & 1:
            f = 7 - f
        if t & 2:
            r = 7 - r
        if t & 4:
            f, r = r, f
        if p in 'Pp' and r in (0, 7):
            return None
        board[FILES[f] + str(r + 1)] = p
    return to_fen(board, 'w')

def to_fen(board, stm):
    rows = []
    for r in range(7, -1, -1):
        row, empty = '', 0
        for f in range(8):
            p = board.get(FILES[f] + str(r + 1))
            if p is None:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += p
        if empty:
            row += str(empty)
        rows.append(row)
    return '/'.join(rows) + ' ' + stm + ' - - 0 1'


def popeye_pieces(fen):
    white, black = [], []
    for i, row in enumerate(fen.split()[0].split('/')):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
                continue
            sq = FILES[f] + str(8 - i)
            f += 1
            (white if c.isupper() else black).append(POPEYE_LETTER[c.upper()] + sq)
    return 'Pieces White ' + ' '.join(white) + ' Black ' + ' '.join(black)


# ---------------------------------------------------------------- tools
def feerie_moves(feerie, cond, fen):
    """Return the set of legal moves (long algebraic) or None if illegal."""
    r = subprocess.run([feerie, 'moves', '--json', '--condition', cond, fen],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None
    return set(json.loads(r.stdout))


def run_popeye(popeye, cond, problems, maxtime, maxsol):
    """problems: list of (fen, stipulation, extra_options). Returns list of (lines, status, secs)."""
    if not problems:
        return []
    blocks = []
    for fen, stip, extra in problems:
        b = ''
        if CONDITIONS[cond]:
            b += 'Condition ' + CONDITIONS[cond] + '\n'
        b += popeye_pieces(fen) + '\nStipulation ' + stip + '\n'
        b += 'Option NoBoard MaxTime %d MaxSolutions %d %s\n' % (maxtime, maxsol, extra)
        blocks.append(b)
    text = 'BeginProblem\n' + 'NextProblem\n'.join(blocks) + 'EndProblem\n'
    t0 = time.time()
    out = subprocess.run([popeye], input=text, capture_output=True, text=True).stdout
    with LOCK:
        st = STATS.setdefault(cond, [0.0, 0])
        st[0] += time.time() - t0
        st[1] += len(problems)
    results, cur = [], []
    for line in out.splitlines()[1:]:  # first line: Popeye banner
        m = SOLUTION_END.match(line)
        if m:
            status = {'solution finished.': 'ok', 'Partial solution': 'maxsol',
                      'solving interrupted.': 'maxtime'}[m.group(1)]
            secs = float(re.search(r'Time = ([0-9.]+)', line).group(1)) if 'Time' in line else 0.0
            results.append((cur, status, secs))
            cur = []
        elif line.strip():
            cur.append(line)
    if len(results) != len(problems):
        raise RuntimeError('Popeye output has %d problems, expected %d:\n%s'
                           % (len(results), len(problems), out[-2000:]))
    return results


def popeye_first_moves(lines):
    mv = set()
    for l in lines:
        m = MOVE_RE.search(l)
        if m:
            promo = (m.group(4) or '').lower().replace('s', 'n')
            mv.add(m.group(2) + m.group(3) + promo)
    return mv


def count_solutions(lines):
    return sum(1 for l in lines if re.match(r'\s*1\.', l))


def selfmate_keys(lines):
    return [l for l in lines if re.match(r'\s*1\.[^.].*!\s*$', l)]


# ---------------------------------------------------------------- solving
def help_stips(stm, cap):
    if stm == 'b':
        return ['h#%d' % n for n in range(1, cap + 1)]
    return ['h#0.5'] + ['h#%d.5' % n for n in range(1, cap + 1)]


def solve_batch(args, kind, cond, fens, stm):
    """Return {fen: (result, count) or None}, plus first-move disagreements."""
    # first moves cross-check
    problems = [(f, '~1', 'HalfDuplex' if stm == 'b' else '') for f in fens]
    disagreements = []
    for f, (lines, status, _) in zip(fens, run_popeye(args.popeye, cond, problems, args.maxtime, 100000)):
        pm = popeye_first_moves(lines)
        fm = feerie_moves(args.feerie, cond, f)
        if pm != fm:
            disagreements.append((cond, f, sorted(pm), sorted(fm or [])))
    if kind == 'help':
        stips = help_stips(stm, args.help_cap)
        suffix = '' if stm == 'b' else '.5'
    else:
        stips = ['s#%d' % n for n in range(1, args.self_cap + 1)]
    result = {f: None for f in fens}
    pending = list(fens)
    for i, stip in enumerate(stips):
        if not pending:
            break
        outs = run_popeye(args.popeye, cond, [(f, stip, '') for f in pending],
                          args.maxtime, args.maxsol)
        nxt = []
        for f, (lines, status, secs) in zip(pending, outs):
            if kind == 'help':
                n = count_solutions(lines)
            else:
                n = len(selfmate_keys(lines))
            if status == 'maxtime':
                # interrupted: a complete "none" is only known up to the previous length
                mincap = 3 if kind == 'help' else 2  # minimum acceptable cap
                if n == 0 and i >= 1 and float(re.sub(r'^[hs]#', '', stips[i - 1])) >= mincap:
                    result[f] = ('none<=' + stips[i - 1], 0)
                else:
                    result[f] = 'drop'
                continue
            if n > 0:
                if kind == 'help':
                    cnt = ('>%d' % (args.maxsol - 1)) if status == 'maxsol' else str(n)
                    result[f] = (stip, cnt)
                else:
                    result[f] = (stip, None)
            else:
                nxt.append(f)
        pending = nxt
    for f in pending:
        result[f] = ('none<=' + stips[-1], 0)
    return result, disagreements


def process_self_group(args, cond, material, quota, sink):
    """Selfmates: screen many draws with one Popeye run of s#CAP per batch (Popeye's
    s#N also reports shorter solutions, so s#CAP detects every solution <= CAP;
    Popeye prints nothing for a position that is illegal), then for positives:
    feerie legality check and the shortest N by s#1, s#2, ...; 'none' lines fill
    the group up to its quota (feerie-checked too)."""
    rng = random.Random('%s/self/%s/%s/w' % (args.seed, cond, material))
    cap = 's#%d' % args.self_cap
    seen, positives, negatives, drawn = set(), [], [], 0
    budget = dict((k, int(v)) for k, v in (x.split('=') for x in args.self_budget.split(',')))[cond]
    while drawn < budget:
        batch = []
        while len(batch) < 500 and drawn < budget:
            drawn += 1
            fen = random_selfmate_position(rng, material)
            if fen is None or fen in seen:
                continue
            seen.add(fen)
            batch.append(fen)
        outs = run_popeye(args.popeye, cond, [(f, cap, '') for f in batch], args.maxtime, args.maxsol)
        for f, (lines, status, _) in zip(batch, outs):
            if status == 'maxtime':
                continue
            if selfmate_keys(lines):
                positives.append(f)
            elif len(negatives) < 4 * quota:
                negatives.append(f)
    kept = []
    npos = 0
    for group, positive in ((positives, True), (negatives, False)):
        if not positive:
            group = [f for f in group][: 3 * quota]
        fens = [f for f in group if feerie_moves(args.feerie, cond, f) is not None]
        if not positive:
            fens = fens[: max(0, quota - npos)]
        for i in range(0, len(fens), 100):
            res, dis = solve_batch(args, 'self', cond, fens[i:i + 100], 'w')
            for d in dis:
                sink('dis', d)
            for f in fens[i:i + 100]:
                r = res[f]
                if r is None or r == 'drop':
                    continue
                if positive and r[0].startswith('none'):
                    continue  # should not happen
                line = '%s|%s|%s' % (cond, f, r[0])
                kept.append((f, r[0], line))
                sink('self', line)
                if positive:
                    npos += 1
    return kept, drawn, len(positives)


def process_group(args, kind, cond, material, stm, quota, bucket, budget, sink):
    rng = random.Random('%s/%s/%s/%s/%s' % (args.seed, kind, cond, material, stm))
    kept, buckets, seen, attempts = [], {}, set(), 0
    batch_size = 16
    npos = 0
    while len(kept) < quota and attempts < budget:
        fens = []
        while len(fens) < min(batch_size, 2 * (quota - len(kept)) + 2) and attempts < budget:
            attempts += 1
            fen = random_position(rng, material, stm, kind)
            if fen in seen:
                continue
            seen.add(fen)
            if feerie_moves(args.feerie, cond, fen) is None:
                continue
            fens.append(fen)
        if not fens:
            break
        res, dis = solve_batch(args, kind, cond, fens, stm)
        for d in dis:
            sink('dis', d)
        for fen in fens:
            r = res[fen]
            if r is None or r == 'drop':
                continue
            npos += 1
            key = r[0]
            positive = not key.startswith('none')
            if kind == 'self':
                # keep all positive; keep "none" lines only up to 2x positives (+ a base)
                npos_kept = sum(1 for k in kept if not k[1].startswith('none'))
                nneg_kept = len(kept) - npos_kept
                if not positive and nneg_kept >= max(bucket, 2 * npos_kept + 2):
                    continue
                if positive and buckets.get(key, 0) >= args.self_bucket:
                    continue
            elif buckets.get(key, 0) >= bucket:
                continue
            buckets[key] = buckets.get(key, 0) + 1
            if kind == 'help':
                line = '%s|%s|%s|%s' % (cond, fen, key, r[1])
            else:
                line = '%s|%s|%s' % (cond, fen, key)
            kept.append((fen, key, line))
            sink(kind, line)
    return kept, attempts, npos


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--popeye', default=os.environ.get('POPEYE', '/tmp/popeye/py'))
    ap.add_argument('--feerie', default=os.environ.get('FEERIE', '/tmp/feerie.helper'))
    ap.add_argument('--seed', default='2024')
    ap.add_argument('--kind', default='both', choices=['help', 'self', 'both'])
    ap.add_argument('--conditions', default=','.join(DEFAULT_CONDITIONS),
                    help='comma-separated, from: ' + ','.join(CONDITIONS))
    ap.add_argument('--help-materials', default=','.join(HELP_MATERIALS))
    ap.add_argument('--self-materials', default=','.join(SELF_MATERIALS))
    ap.add_argument('--outdir', default='.')
    ap.add_argument('--help-cap', type=int, default=4)
    ap.add_argument('--self-cap', type=int, default=3)
    ap.add_argument('--maxtime', type=int, default=30, help='Popeye MaxTime per problem (s)')
    ap.add_argument('--maxsol', type=int, default=5001, help='Popeye MaxSolutions (count written as >maxsol-1)')
    ap.add_argument('--help-quota', type=int, default=22, help='lines per (cond, material, side)')
    ap.add_argument('--help-bucket', type=int, default=6)
    ap.add_argument('--help-budget', type=int, default=400, help='positions drawn per group at most')
    ap.add_argument('--self-quota', type=int, default=46)
    ap.add_argument('--self-bucket', type=int, default=25, help='max positives per (group, result)')
    ap.add_argument('--self-budget', default='orthodox=2000,madrasi-ri=6000,annan=2000,madrasi=2000,'
                    'isardam=2000,isardam-b=2000,eiffel=2000,leffie=2000,nanna=2000,madrasi-ri+annan=6000',
                    help='positions drawn per selfmate group, per condition (cond=N,...)')
    ap.add_argument('--jobs', type=int, default=2)
    args = ap.parse_args()

    conds = args.conditions.split(',')
    tasks = []
    if args.kind in ('help', 'both'):
        for c in conds:
            for m in args.help_materials.split(','):
                for stm in 'bw':
                    tasks.append(('help', c, m, stm))
    if args.kind in ('self', 'both'):
        for c in conds:
            for m in args.self_materials.split(','):
                tasks.append(('self', c, m, 'w'))

    partial = {k: open(os.path.join(args.outdir, '%smates.partial' % k), 'a')
               for k in ('help', 'self')}
    disf = open(os.path.join(args.outdir, 'disagreements.txt'), 'a')

    def sink(kind, item):
        with LOCK:
            if kind == 'dis':
                disf.write('%s|%s|popeye=%s|feerie=%s\n' % (item[0], item[1], ' '.join(item[2]), ' '.join(item[3])))
                disf.flush()
            else:
                partial[kind].write(item + '\n')
                partial[kind].flush()

    results = {}
    t0 = time.time()

    def work(t):
        kind, c, m, stm = t
        if kind == 'help':
            out = process_group(args, kind, c, m, stm, args.help_quota, args.help_bucket, args.help_budget, sink)
        else:
            out = process_self_group(args, c, m, args.self_quota, sink)
        with LOCK:
            print('%-5s %-10s %-6s %s: %d lines (%d drawn, %d solved) %.0fs' %
                  (kind, c, m, stm, len(out[0]), out[1], out[2], time.time() - t0), flush=True)
        return t, out

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for t, out in ex.map(work, tasks):
            results[t] = out

    cmd = ' '.join(['python3', 'make_corpus.py'] + sys.argv[1:])
    version = subprocess.run([args.popeye], input='EndProblem\n', capture_output=True,
                             text=True).stdout.splitlines()[0].strip()
    timing = '; '.join('%s %.1fs for %d Popeye problems' % (c, s[0], s[1]) for c, s in sorted(STATS.items()))
    for kind in ('help', 'self'):
        lines = [l for t in tasks if t[0] == kind for (_, _, l) in results[t][0]]
        if not lines:
            continue
        path = os.path.join(args.outdir, '%smates.txt' % kind)
        with open(path, 'w') as f:
            f.write(header(kind, args, version, cmd, timing))
            for l in lines:
                f.write(l + '\n')
        print('wrote', path, len(lines), 'lines')


def header(kind, args, version, cmd, timing):
    h = ['Referee answers of %s' % version,
         'Made by: %s   (seed %s; POPEYE=%s FEERIE=%s)' % (cmd, args.seed, args.popeye, args.feerie),
         'Positions: random, seeded per group with "<seed>/<kind>/<condition>/<material>/<side>";',
         '  kept only if `feerie moves --condition C FEN` exits 0 (legal under C).',
         'Conditions (feerie name = Popeye "Condition" line): ' + '; '.join(
             '%s = %s' % (c, ('"Condition %s"' % CONDITIONS[c]) if CONDITIONS[c] else 'no condition')
             for c in args.conditions.split(',')) + '.',
         '  (Isardam, AnnanChess, NannaChess: Popeye default type A.)',
         'FEN: full FEN, no castling, no en passant, counters "0 1".',
         'Popeye options: NoBoard MaxTime %d MaxSolutions %d.' % (args.maxtime, args.maxsol)]
    if kind == 'help':
        h += ['Format: condition|FEN|result|solutions',
              'Black is always the side mated. Black to move in the FEN = h#N (Black moves first,',
              '  White mates with its N-th move); White to move = h#N.5 (White moves first; h#0.5 =',
              '  White mates at once, accepted by Popeye).',
              'result = shortest length with >= 1 Popeye solution, found by asking Popeye h#1, h#2, ...',
              '  (resp. h#0.5, h#1.5, ...) in increasing order, one run per length; cap h#%d resp. h#%d.5.'
              % (args.help_cap, args.help_cap),
              '  none<=h#M / none<=h#M.5 = Popeye found no solution for any length up to that cap',
              '  (lower cap than the default only where Popeye hit MaxTime at the next length).',
              'solutions = number of solution lines Popeye prints for that stipulation (each distinct',
              '  move sequence; different promotion pieces count separately). Popeye h#N also prints',
              '  shorter solutions, but at the shortest length there are none, so all counted',
              '  solutions have exactly that length. ">%d" = MaxSolutions %d was reached. 0 for none.'
              % (args.maxsol - 1, args.maxsol),
              'Sampling: at most %d lines per (condition, material, side to move, result), quota %d'
              ' lines per (condition, material, side), at most %d draws per group.'
              % (args.help_bucket, args.help_quota, args.help_budget),
              'Materials: %s.' % args.help_materials]
    else:
        h += ['Format: condition|FEN|result   (White to move always)',
              's#N: White moves first and forces Black to give mate with its N-th move (Black avoids',
              '  mating where it can). result = shortest N with a Popeye solution, asking s#1, s#2, ...',
              '  in increasing order (cap s#%d); none<=s#M = no solution up to s#M.' % args.self_cap,
              'A solution = a key line "1.xxx !" in Popeye\'s output.',
              'Sampling: biased (white king on an edge, black king in front of it, white pieces near',
              '  the black king, 8 symmetries); per (condition, material) group: draws screened with',
              '  one Popeye s#%d run (Popeye s#N also reports shorter solutions); every legal positive'
              % args.self_cap,
              '  kept, then "none" lines up to a quota of %d lines per group. Draws per group: %s.'
              % (args.self_quota, args.self_budget),
              'Materials: %s.' % args.self_materials]
    h += ['Popeye time (wall clock, incl. first-move cross-check runs): ' + timing]
    return ''.join('# ' + x + '\n' for x in h)


if __name__ == '__main__':
    main()
