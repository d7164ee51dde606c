#!/usr/bin/env python3
"""Prints the Java text of topolens-core's CommonTriples: the 1024 triples of bytes commonest in this project's
real logs (topolens-core/src/test/resources/**/*.log and examples/**/*.log), printable ASCII only, commonest first.
NeedleSet keys each long needle by the part of it whose triples are rarest here (docs/performance.md, tenth pass).
Run from the repository root: python3 bench/common-triples.py > /tmp/t.txt, then paste TEXT into CommonTriples.java."""
import collections
import glob

files = sorted(glob.glob("topolens-core/src/test/resources/**/*.log", recursive=True)
               + glob.glob("examples/**/*.log", recursive=True))
counts = collections.Counter()
for f in files:
    data = open(f, "rb").read()
    for i in range(len(data) - 2):
        t = data[i:i + 3]
        if all(32 <= b < 127 for b in t):
            counts[t] += 1
top = [t.decode("ascii") for t, _ in counts.most_common(1024)]
text = "".join(top).replace("\\", "\\\\").replace('"', '\\"')
print(f"// {len(files)} logs, {sum(counts.values())} triples counted")
for i in range(0, len(text), 90):
    print(f'      + "{text[i:i + 90]}"')
