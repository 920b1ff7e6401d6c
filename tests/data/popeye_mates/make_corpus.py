#!/usr/bin/env python3
"""Records Popeye's verdicts on direct mates (#N, White to move) under the paralysis family
(Madrasi, Madrasi RI, Isardam, Isardam type B, Eiffel, Leffie), Annan, Nanna and the
combination Madrasi RI + Annan (docs/conditions/paralysis.md, annan.md, combinations.md).
Run outside the suite:

    make_corpus.py --feerie build/tools/feerie --popeye /path/to/py --tables DIR --seed 3 \
        > mates.txt 2> disagreements.txt

For every condition and material (KQvK KRvK KQvKR KRvKN KPvK KQvKQ KRvKR KPvKP) the script
first runs `feerie gen --threads 1` for it and for orthodox (it reuses tables already in DIR;
KPvKP takes minutes), then for N = 1 .. --max-n takes
`feerie mine MATERIAL --condition C --side white --mate N --limit L --seed S --popeye`
and the same with `--limit L2 --differs-from orthodox` (positions whose mate length or result
the condition changes; none for Madrasi and Isardam on the 3-man tables and KQvKR, KRvKN):
the Popeye problems Feerie writes for its sample (their Condition line is Feerie's own
keyword map, kept as it is). Each position goes to Popeye twice, in one Popeye run per
group (problems joined by NextProblem, told apart by a Remark): as #N and, for N > 1, as
#N-1 (Popeye's #N also lists shorter solutions, so "#N has a key and #N-1 has none" is
"mate in exactly N"), with Option NoBoard MaxSolutions 1 MaxTime T. A position is written
only when Popeye agrees; an interrupted search (MaxTime) drops it; every disagreement goes
to stderr with Popeye's full #N and #N-1 output and the shortest mate Popeye finds
(#1 .. #N+2). Output lines: condition|FEN|N, with the FEN exactly as feerie prints it,
after a '#' header. Standard library only."""
import argparse
import re
import subprocess
import sys
import time

CONDITIONS = ["madrasi", "madrasi-ri", "isardam", "isardam-b", "eiffel", "leffie",
              "annan", "nanna", "madrasi-ri+annan"]
MATERIALS = ["KQvK", "KRvK", "KQvKR", "KRvKN", "KPvK", "KQvKQ", "KRvKR", "KPvKP"]
KEY_RE = re.compile(r"^\s*1\.\S.*!\s*$")  # a key line of a direct mate: "   1.Qa1-a7 !"
END_RE = re.compile(r"^(solution finished\.|Partial solution|solving interrupted\.)")


def mine(args, cond, material, n, limit, extra=()):
    """Feerie's sample as [(fen, condition line, problem block without BeginProblem/End)]."""
    if limit <= 0:
        return []
    out = subprocess.run([args.feerie, "mine", material, "--condition", cond, "--tables", args.tables,
                          "--side", "white", "--mate", str(n), "--limit", str(limit),
                          "--seed", str(args.seed), "--threads", "1", "--popeye", *extra],
                         capture_output=True, text=True, check=True).stdout
    problems = []
    text = out.split("BeginProblem\n", 1)[-1].split("EndProblem", 1)[0] if "BeginProblem" in out else ""
    for block in filter(str.strip, text.split("NextProblem\n")):
        fen = re.search(r"^Remark (.*?) \(Feerie", block, re.M).group(1)
        condline = re.search(r"^Condition (.*)$", block, re.M)
        body = [l for l in block.splitlines() if not l.startswith(("Remark", "Stipulation"))]
        problems.append((fen, condline.group(1) if condline else "", body))
    return problems


def run_popeye(args, jobs, extra="MaxSolutions 1"):
    """jobs: [(body lines, stipulation)] -> [(keys, status, text)] in the same order."""
    blocks = ["Remark job%d\n%s\nStipulation %s\nOption NoBoard MaxTime %d %s\n"
              % (i, "\n".join(body), stip, args.maxtime, extra) for i, (body, stip) in enumerate(jobs)]
    text = "BeginProblem\n" + "NextProblem\n".join(blocks) + "EndProblem\n"
    out = subprocess.run([args.popeye], input=text, capture_output=True, text=True).stdout
    res, cur, idx = {}, None, None
    for line in out.splitlines()[1:]:
        m = re.match(r"^job(\d+)$", line.strip())
        if m:
            idx, cur = int(m.group(1)), []
            continue
        if idx is None:
            continue
        e = END_RE.match(line)
        if e:
            status = {"solution finished.": "ok", "Partial solution": "ok",
                      "solving interrupted.": "maxtime"}[e.group(1)]
            res[idx] = ([l.strip() for l in cur if KEY_RE.match(l)], status, "\n".join(cur).strip())
            idx = None
        else:
            cur.append(line)
    return [res.get(i, ([], "no answer", "")) for i in range(len(jobs))]


def popeye_length(args, body, n):
    """The shortest #M (1 .. n+2) Popeye solves, or None."""
    for m in range(1, n + 3):
        keys, status, _ = run_popeye(args, [(body, "#%d" % m)])[0]
        if status != "ok":
            return "interrupted at #%d" % m
        if keys:
            return m
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--feerie", required=True)
    ap.add_argument("--popeye", required=True)
    ap.add_argument("--tables", required=True)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--limit", type=int, default=1, help="random positions per (condition, material, N)")
    ap.add_argument("--differs-limit", type=int, default=1,
                    help="further positions per (condition, material, N) whose value differs from orthodox")
    ap.add_argument("--max-n", type=int, default=5)
    ap.add_argument("--maxtime", type=int, default=60, help="Popeye MaxTime per problem (s)")
    ap.add_argument("--conditions", default=",".join(CONDITIONS))
    ap.add_argument("--materials", default=",".join(MATERIALS))
    args = ap.parse_args()
    version = subprocess.run([args.popeye], input="EndProblem\n", capture_output=True,
                             text=True).stdout.splitlines()[0].strip()
    lines, counts, keywords, dropped, disagreements, t0 = [], {}, {}, 0, 0, time.time()
    for cond in args.conditions.split(","):
        counts[cond] = 0
        for material in args.materials.split(","):
            for c in (cond, "orthodox"):
                subprocess.run([args.feerie, "gen", "--threads", "1", "--tables", args.tables,
                                "--condition", c, material], capture_output=True, check=True)
            for n in range(1, args.max_n + 1):
                problems = mine(args, cond, material, n, args.limit)
                seen = {p[0] for p in problems}
                problems += [p for p in mine(args, cond, material, n, args.differs_limit,
                                             ("--differs-from", "orthodox")) if p[0] not in seen]
                jobs = []
                for fen, condline, body in problems:
                    keywords.setdefault(cond, condline)
                    jobs.append((body, "#%d" % n))
                    if n > 1:
                        jobs.append((body, "#%d" % (n - 1)))
                answers = iter(run_popeye(args, jobs))
                for fen, condline, body in problems:
                    full = next(answers)
                    shorter = next(answers) if n > 1 else ([], "ok", "")
                    if "maxtime" in (full[1], shorter[1]):
                        dropped += 1
                        print("DROPPED (MaxTime) %s|%s|%d" % (cond, fen, n), file=sys.stderr, flush=True)
                        continue
                    if full[1] == "ok" and full[0] and shorter[1] == "ok" and not shorter[0]:
                        lines.append("%s|%s|%d" % (cond, fen, n))
                        counts[cond] += 1
                        continue
                    disagreements += 1
                    outs = run_popeye(args, [(body, "#%d" % n)] + ([(body, "#%d" % (n - 1))] if n > 1 else []),
                                      extra="")
                    print("DISAGREEMENT %s|%s|%d (Popeye condition: %s)\n  Popeye's shortest mate: %s"
                          % (cond, fen, n, condline, popeye_length(args, body, n)), file=sys.stderr)
                    for (k, st, txt), stip in zip(outs, ["#%d" % n, "#%d" % (n - 1)]):
                        print("  Popeye %s [%s]:\n    %s" % (stip, st, txt.replace("\n", "\n    ")),
                              file=sys.stderr)
                    sys.stderr.flush()
            print("%s %s done, %d lines so far, %.0fs" % (cond, material, len(lines), time.time() - t0),
                  file=sys.stderr, flush=True)
    header = [
        "Mate lengths of %d positions (White to move) under the paralysis family, Annan, Nanna" % len(lines),
        "and madrasi-ri+annan, from the tables %s: each is a mate in N by Feerie's table, and"
        % " ".join(args.materials.split(",")),
        "%s solves it as #N and finds no solution as #N-1." % version,
        "Format: condition|FEN|N (FEN as feerie prints it).",
        "Made by: make_corpus.py --seed %d --limit %d --differs-limit %d --max-n %d --maxtime %d:"
        % (args.seed, args.limit, args.differs_limit, args.max_n, args.maxtime),
        "positions sampled by `feerie mine MATERIAL --condition C --side white --mate N --limit %d"
        % args.limit,
        "--seed %d --popeye` and, where the condition changes the value, by the same with" % args.seed,
        "`--limit %d --differs-from orthodox`; N = 1..%d; Popeye given the problems Feerie writes"
        % (args.differs_limit, args.max_n),
        "(Option NoBoard MaxSolutions 1). Madrasi, Isardam and Isardam TypeB equal orthodox chess",
        "on KQvK KRvK KQvKR KRvKN KPvK (no same-type pair can form), hence KQvKQ KRvKR KPvKP.",
        "Popeye keywords: " + "; ".join("%s = %s" % (c, keywords.get(c, "?")) for c in counts),
        "Lines per condition: " + ", ".join("%s %d" % (c, k) for c, k in counts.items()),
        "Disagreements: %d (see FINDINGS.md); dropped at Popeye's MaxTime: %d." % (disagreements, dropped),
    ]
    sys.stdout.write("".join("# " + h + "\n" for h in header))
    sys.stdout.flush()
    sys.stdout.write("".join(l + "\n" for l in lines))


if __name__ == "__main__":
    main()
