#!/usr/bin/env python3
"""Selfmate lines for positions sampled from Feerie's own s# tables (the random draws of
make_corpus.py hardly ever hit a selfmate under these conditions): for each COND:MATERIAL,
`feerie mine --stipulation s# --side white --mate 1-CAP --limit N --seed S --json`, then
Popeye is asked s#1, s#2, ... s#CAP exactly as make_corpus.py does (solve_batch, incl. the
first-move cross-check).  Output lines: condition|FEN|result (selfmates.txt format).
Usage: sample_feerie.py --groups cond:MAT,... --limit N --seed S [--mate N-M] --outdir DIR"""
import argparse, json, os, subprocess, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_corpus as mc
ap = argparse.ArgumentParser()
ap.add_argument('--groups', required=True); ap.add_argument('--limit', type=int, default=10)
ap.add_argument('--seed', default='2024'); ap.add_argument('--mate', default=None, help='N-M for mine --mate (default 1-CAP)'); ap.add_argument('--outdir', default='.')
ap.add_argument('--tables', default='/tmp/h6/tables')
ap.add_argument('--popeye', default=os.environ.get('POPEYE', '/tmp/h6/py'))
ap.add_argument('--feerie', default=os.environ.get('FEERIE', '/tmp/h6/feerie'))
ap.add_argument('--maxtime', type=int, default=10); ap.add_argument('--maxsol', type=int, default=5001)
ap.add_argument('--self-cap', type=int, default=3); ap.add_argument('--help-cap', type=int, default=4)
args = ap.parse_args()
out = open(os.path.join(args.outdir, 'selfmates.sampled'), 'a')
dis = open(os.path.join(args.outdir, 'disagreements.txt'), 'a')
for g in args.groups.split(','):
    cond, mat = g.split(':')
    r = subprocess.run([args.feerie, 'mine', '--threads', '1', '--tables', args.tables, '--condition', cond,
                        '--stipulation', 's#', '--side', 'white', '--mate', args.mate or '1-%d' % args.self_cap,
                        '--limit', str(args.limit), '--seed', str(args.seed), '--json', mat],
                       capture_output=True, text=True, check=True)
    fens = [json.loads(l)['fen'] for l in r.stdout.splitlines() if l.strip()]
    res, d = mc.solve_batch(args, 'self', cond, fens, 'w')
    for x in d:
        dis.write('%s|%s|popeye=%s|feerie=%s\n' % (x[0], x[1], ' '.join(x[2]), ' '.join(x[3])))
    n = 0
    for f in fens:
        if res[f] in (None, 'drop'):
            print('dropped (MaxTime)', cond, f, flush=True); continue
        out.write('%s|%s|%s\n' % (cond, f, res[f][0])); n += 1
    out.flush(); dis.flush()
    print(cond, mat, len(fens), 'sampled', n, 'written', flush=True)
print('Popeye time:', '; '.join('%s %.1fs for %d Popeye problems' % (c, s[0], s[1]) for c, s in sorted(mc.STATS.items())))
