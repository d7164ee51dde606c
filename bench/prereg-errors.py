"""Errors of predictions written down before a run (topolens compare --format json) against the experiment that
measured it (its results.json): step and ratio to the one-pod variant without offload or disabled transports (1x2,
1x4), as a Markdown table.

Usage: python3 bench/prereg-errors.py COMPARE_JSON RESULTS_JSON
(a variant measured as 1x4 stands for a prediction named 1x4-offload-none)
"""
import json,sys
pred, res = sys.argv[1], sys.argv[2]
p = {r['name']: r['stepSeconds'] for r in json.load(open(pred))['rows']}
m = {v['name']: v['stepSeconds']['median'] for v in json.load(open(res))['variants'] if v['status'] == 'ok'}
# A spec of one offload value names its variants without it (1x4 for 1x4-offload-none).
m.update({n: m[n.removesuffix('-offload-none')] for n in p if n not in m and n.removesuffix('-offload-none') in m})
ref = [n for n in p if n.startswith('1x') and 'DISABLE' not in n and 'cpu' not in n][0]
print('| variant | predicted s | measured s | err | predicted ratio | measured ratio | err |')
print('|---|---|---|---|---|---|---|')
for n in p:
    if n not in m: continue
    pr, mr = p[n] / p[ref], m[n] / m[ref]
    print(f'| {n} | {p[n]:.3f} | {m[n]:.3f} | {100*(p[n]/m[n]-1):+.1f}% | {pr:.2f} | {mr:.2f} | ' + ('-' if n == ref else f'{100*(pr/mr-1):+.1f}%') + ' |')
