#!/usr/bin/env python3
import json, subprocess, os
BASE = '/tmp/popeye_threat'
probs = json.load(open(f'{BASE}/problems.json'))
for p in probs:
    inp = f'{BASE}/popeye_out/{p["id"]}.inp'
    out = f'{BASE}/popeye_out/{p["id"]}.out'
    open(inp, 'w').write(p['popeye_input'])
    if os.path.exists(out) and os.path.getsize(out) > 0:
        continue
    r = subprocess.run(['nice', '-n', '10', f'{BASE}/popeye/py', inp], capture_output=True, text=True, timeout=600)
    open(out, 'w').write(r.stdout + (('\n--- stderr ---\n' + r.stderr) if r.stderr else ''))
print('done')
