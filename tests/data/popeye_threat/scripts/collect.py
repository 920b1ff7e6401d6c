#!/usr/bin/env python3
"""Collect the mined problems (mined/*.txt) into problems.json, one entry per
(condition, fen), with the Popeye problem text Popeye is run on."""
import glob, json, os, re
BASE = '/tmp/popeye_threat'
OPTS = 'Variation Try NoBoard'
probs = {}
order = []
for f in sorted(glob.glob(f'{BASE}/mined/*.txt'), key=lambda f: ('.notsound.' in f, f)):
    cond, mat, n, filt = os.path.basename(f).split('.')[:4]
    text = open(f).read()
    blocks = re.split(r'^(?:BeginProblem|NextProblem|EndProblem)\s*$', text, flags=re.M)
    for b in blocks:
        b = b.strip()
        if not b.startswith('Remark'):
            continue
        m = re.match(r'Remark (\S+ \S+ \S+ \S+ \S+ \S+) \(Feerie, ([^)]*)\): (.*)', b)
        fen, c2 = m.group(1), m.group(2)
        assert c2 == cond, (c2, cond)
        key = (cond, fen)
        lines = b.split('\n')
        out = []
        for l in lines:
            if l.startswith('Option '):
                l = l + ' ' + OPTS
            out.append(l)
        stip = [l for l in lines if l.startswith('Stipulation')][0].split()[1]
        if key in probs:
            probs[key]['mined_by'].append(f'{mat}.{n}.{filt}')
            continue
        probs[key] = dict(condition=cond, fen=fen, material=mat, stipulation=stip,
                          mined_by=[f'{mat}.{n}.{filt}'],
                          feerie_input='\n'.join(lines),
                          popeye_input='BeginProblem\n' + '\n'.join(out) + '\nEndProblem\n')
        order.append(key)
# feerie --sound membership, from the full --sound lists
sound = set()
for f in glob.glob(f'{BASE}/mined/*.soundall.jsonl'):
    cond = os.path.basename(f).split('.')[0]
    for l in open(f):
        l = l.strip()
        if l.startswith('{'):
            sound.add((cond, json.loads(l)['fen']))
from collections import Counter
res = []
cnt = Counter()
for k in order:
    p = probs[k]
    cnt[p['condition']] += 1
    p['id'] = f'{p["condition"]}-{cnt[p["condition"]]:03d}'
    p['feerie_sound'] = k in sound
    res.append(p)
json.dump(res, open(f'{BASE}/problems.json', 'w'), indent=1)
from collections import Counter
print(len(res), Counter((p['condition'], p['stipulation'], p['feerie_sound']) for p in res))
