#!/usr/bin/env python3
"""Write verdicts.json: per problem, the verdict derived from Popeye's text
(derive.py), the reading of run A alone, and a cross-check from Feerie's tables."""
import json, re, sys
from collections import Counter, defaultdict
sys.path.insert(0, '/tmp/popeye_threat/scripts')
import parse_popeye as P
import feerie_tree as F
import derive as D

BASE = '/tmp/popeye_threat'
probs = json.load(open(f'{BASE}/problems.json'))
uci = D.uci
out = []
for p in probs:
    n = int(p['stipulation'][1:])
    A = open(f'{BASE}/popeye_out/{p["id"]}.out').read()
    B = open(f'{BASE}/popeye_out_nothreat/{p["id"]}.out').read()
    d = D.derive(p, A, B)
    a_only, _ = P.verdict(A, n)
    fv = F.analyse(p['condition'], p['fen'], n)
    notes = []
    uncertain = list(d['uncertain_reasons'])
    # Popeye's printed solution (run A) alone: hides replies after which White mates sooner than the threat
    if a_only['sound_threat'] != d['sound_threat'] or a_only['duals_after_defences'] != d['duals_after_defences']:
        what = ('the verdict changes' if a_only['sound_threat'] != d['sound_threat']
                else 'the verdict is the same, only the number of duals changes')
        uncertain.append('reading Popeye\'s printed solution (run A) alone gives '
                         f'sound={a_only["sound_threat"]}, duals={a_only["duals_after_defences"]} ({what}): the difference comes from '
                         'a reply Popeye does not print because White then mates sooner than the threat; it stops every threat '
                         '(run C), so it is a defence by the definition, but Popeye does not treat it as a variation')
    # cross-check with Feerie's tables
    xc = dict(keys=sorted(uci(k) for k in d['keys']) == sorted(fv['keys']),
              threats=sorted(uci(t) for t in d['threats']) == sorted(fv.get('threats', [])),
              threat_mate_move=d['threat_mate_move'] == fv.get('threat_mate_move'),
              duals=d['duals_after_defences'] == fv['duals'],
              sound_threat=d['sound_threat'] == fv['sound_threat'])
    for k, v in xc.items():
        if not v:
            uncertain.append(f'Feerie tables disagree on {k}')
    hidden = [s for s in d['subruns'] if not s['threat_still_works']]
    if d['subruns']:
        notes.append('replies after which White mates sooner than the threat (not printed by Popeye in run A), checked with run C: '
                     + '; '.join(f"{s['after']}: threat {'still works (not a defence)' if s['threat_still_works'] else 'stopped (a defence)'}"
                                 for s in d['subruns']))
    if d['nondefence_multi']:
        notes.append('several shortest continuations after replies that do not stop every threat (not duals by the definition): '
                     + '; '.join(d['nondefence_multi']))
    if a_only['threat_line_multi']:
        notes.append('several continuations inside the threat line(s) (not counted): ' + '; '.join(a_only['threat_line_multi']))
    if d['tries']:
        notes.append('tries shown by Popeye: ' + '; '.join(f"{t['move']}{' +' if t['check'] else ''} ? but {', '.join(t['refutations'])} !" for t in d['tries']))
    rec = dict(id=p['id'], condition=p['condition'], fen=p['fen'], stipulation=p['stipulation'],
               material=p['material'], mined_by=p['mined_by'], popeye_input=p['popeye_input'],
               keys=d['keys'], key_kind=d['key_kind'],
               threats=d['threats'], threat_mate_move=d['threat_mate_move'], threat_lines=d['threat_lines'],
               double_threat=d['double_threat'],
               double_threat_later=[dict(at=l['at'], threats=l['threats']) for l in d['levels'][1:] if len(l['threats']) > 1],
               defences=[dict(defence=x['reply'], continuations=x['continuations']) for x in d['levels'][0]['replies'] if x['real_defence']] if d['levels'] else [],
               non_defences=[dict(reply=x['reply'], continuations=x['continuations']) for x in d['levels'][0]['replies'] if not x['real_defence']] if d['levels'] else [],
               duals_after_defences=d['duals_after_defences'], dual_list=d['dual_list'],
               sound_threat=d['sound_threat'],
               sound_threat_popeye_printed_only=a_only['sound_threat'],
               duals_popeye_printed_only=a_only['duals_after_defences'],
               tries=d['tries'],
               feerie_sound=p['feerie_sound'],
               uncertain=bool(uncertain), uncertain_reasons=uncertain,
               notes='; '.join(notes),
               levels=d['levels'], subruns=d['subruns'],
               feerie_crosscheck=dict(agree=xc, keys=fv['keys'], threats=fv.get('threats'),
                                      threat_mate_move=fv.get('threat_mate_move'), duals=fv['duals'],
                                      sound_threat=fv['sound_threat']),
               popeye_output=dict(run_A=f'popeye_out/{p["id"]}.out', run_B=f'popeye_out_nothreat/{p["id"]}.out'))
    out.append(rec)
json.dump(out, open(f'{BASE}/verdicts.json', 'w'), indent=1)
c = defaultdict(Counter)
for r in out:
    C = c[r['condition']]
    C['total'] += 1
    C['sound' if r['sound_threat'] else 'unsound'] += 1
    C['uncertain'] += r['uncertain']
    C['double_threat'] += r['double_threat']
    C[r['stipulation'] + (' sound' if r['sound_threat'] else ' unsound')] += 1
    C[f"feerie --sound {'yes' if r['feerie_sound'] else 'no'} / threat-sound {'yes' if r['sound_threat'] else 'no'}"] += 1
    C['key ' + str(r['key_kind'])] += 1
    C['tries shown'] += bool(r['tries'])
    C['double threat later'] += bool(r['double_threat_later'])
for k, v in c.items():
    print(k, dict(sorted(v.items())))
with open(f'{BASE}/verdicts.tsv', 'w') as f:
    f.write('id\tcondition\tstipulation\tfen\tkeys\tkey_kind\tthreats\tdouble_threat\tduals_after_defences\tsound_threat\tfeerie_sound\tuncertain\n')
    for r in out:
        f.write('\t'.join(map(str, [r['id'], r['condition'], r['stipulation'], r['fen'], ' '.join(r['keys']), r['key_kind'],
                                    ' '.join(r['threats']), r['double_threat'], r['duals_after_defences'], r['sound_threat'],
                                    r['feerie_sound'], r['uncertain']])) + '\n')
