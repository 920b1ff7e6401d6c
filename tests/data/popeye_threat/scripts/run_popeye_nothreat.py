#!/usr/bin/env python3
"""Second Popeye run per problem: Option Variation NoThreat (every reply of the
defender, every shortest continuation, no threat filtering)."""
import json, subprocess, os
BASE = '/tmp/popeye_threat'
probs = json.load(open(f'{BASE}/problems.json'))
os.makedirs(f'{BASE}/popeye_out_nothreat', exist_ok=True)
for p in probs:
    text = p['popeye_input'].replace('Variation Try NoBoard', 'Variation NoThreat NoBoard')
    assert 'NoThreat' in text
    inp = f'{BASE}/popeye_out_nothreat/{p["id"]}.inp'
    out = f'{BASE}/popeye_out_nothreat/{p["id"]}.out'
    open(inp, 'w').write(text)
    if os.path.exists(out) and os.path.getsize(out) > 0:
        continue
    r = subprocess.run(['nice', '-n', '10', f'{BASE}/popeye/py', inp], capture_output=True, text=True, timeout=600)
    open(out, 'w').write(r.stdout + (('\n--- stderr ---\n' + r.stderr) if r.stderr else ''))
print('done')
