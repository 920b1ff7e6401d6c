#!/bin/sh
# Reproduce everything under /tmp/popeye_threat (tables, mining, Popeye runs, verdicts).
set -e
B=/tmp/popeye_threat
cd $B
# Popeye (commit 122c7d0fed67419c0dd66174195353d133a16d37): see README.md; built with
#   cd popeye && nice -n 10 make -f makefile.unx -j2
for C in orthodox madrasi-ri annan; do for M in KQvKR KRvKB; do
  nice -n 10 ./feerie gen --threads 1 --tables tables --condition $C $M; done; done
mkdir -p mined
for C in orthodox madrasi-ri annan; do for M in KQvKR KRvKQ KRvKB; do for N in 2 3; do
  nice -n 10 ./feerie mine --threads 1 --condition $C --tables tables --unique-key --mate $N --popeye --limit 8 --seed 24 --side white $M > mined/$C.$M.$N.unique.txt
  nice -n 10 ./feerie mine --threads 1 --condition $C --tables tables --sound --mate $N --popeye --limit 4 --seed 24 --side white $M > mined/$C.$M.$N.sound.txt
  nice -n 10 ./feerie mine --threads 1 --condition $C --tables tables --sound --mate $N --json --side white $M > mined/$C.$M.$N.soundall.jsonl
  nice -n 10 ./feerie mine --threads 1 --condition $C --tables tables --unique-key --mate $N --popeye --limit 80 --seed 7 --side white $M > mined/$C.$M.$N.pool.tmp
done; done; done
# notsound.txt: the first 4 of each pool that are not in the --sound list (see README.md)
python3 - <<'PY'
import glob, json, os, re
B='/tmp/popeye_threat'
for f in sorted(glob.glob(f'{B}/mined/*.pool.tmp')):
    cond, mat, n = os.path.basename(f).split('.')[:3]
    sound=set(json.loads(l)['fen'] for l in open(f'{B}/mined/{cond}.{mat}.{n}.soundall.jsonl') if l.startswith('{'))
    blocks=[b.strip() for b in re.split(r'^(?:BeginProblem|NextProblem|EndProblem)\s*$', open(f).read(), flags=re.M) if b.strip().startswith('Remark')]
    keep=[b for b in blocks if ' '.join(b.split()[1:7]) not in sound][:4]
    open(f'{B}/mined/{cond}.{mat}.{n}.notsound.txt','w').write('BeginProblem\n'+'\nNextProblem\n'.join(keep)+'\nEndProblem\n')
PY
rm -f mined/*.pool.tmp
python3 scripts/collect.py            # problems.json (ids, Popeye inputs, feerie --sound membership)
python3 scripts/run_popeye.py         # run A: popeye_out/
python3 scripts/run_popeye_nothreat.py  # run B: popeye_out_nothreat/
python3 scripts/make_verdicts.py      # runs C (popeye_out_sub/) on demand, verdicts.json
