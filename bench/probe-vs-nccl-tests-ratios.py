"""Probe busbw over nccl-tests' busbw (out-of-place / in-place) per size, from the outputs of
bench/probe-vs-nccl-tests.sh (DIR/nccl-tests/<coll>.txt and DIR/probe/<coll>/rank-0.out), as a Markdown table, and
the least ratio over sizes >= 64 MiB (issue 15's target: 0.97).

Usage: python3 bench/probe-vs-nccl-tests-ratios.py DIR
"""
import os
import sys
def read(f):
    d={}
    for l in open(f):
        if 'NCCL' in l or l.startswith('#'): continue
        p=l.split()
        if len(p)>=13 and p[0].isdigit():
            d[int(p[0])]=(float(p[7]),float(p[11]))
    return d
sizes=[1<<20,16<<20,64<<20,256<<20,1<<30,4<<30]
names={1<<20:'1 MiB',16<<20:'16 MiB',64<<20:'64 MiB',256<<20:'256 MiB',1<<30:'1 GiB',4<<30:'4 GiB'}
colls=['all_reduce','all_gather','reduce_scatter']
R={c:(read(os.path.join(sys.argv[1], f'probe/{c}/rank-0.out')),read(os.path.join(sys.argv[1], f'nccl-tests/{c}.txt'))) for c in colls}
print('| size | '+' | '.join(colls)+' |'); print('|---|---|---|---|')
for s in sizes:
    print(f'| {names[s]} | '+' | '.join(f'{R[c][0][s][0]/R[c][1][s][0]:.3f} / {R[c][0][s][1]/R[c][1][s][1]:.3f}' for c in colls)+' |')
least=[]
for c in colls:
    p,n=R[c]; rs=[(min(p[s][0]/n[s][0],p[s][1]/n[s][1]),s) for s in p if s>=64<<20 and s in n]
    least.append(min(rs))
print('| least over sizes >= 64 MiB | '+' | '.join(f'{v:.3f} ({s>>20} MiB)' for v,s in least)+' |')
print('nccl-tests busbw at 4 GiB (out/in):', {c:R[c][1][4<<30] for c in colls})
print('probe busbw at 4 GiB (out/in):', {c:R[c][0][4<<30] for c in colls})
print('points >= 64 MiB below 0.97:', [(c,s>>20,round(R[c][0][s][i]/R[c][1][s][i],3)) for c in colls for s in R[c][0] if s>=64<<20 for i in (0,1) if R[c][0][s][i]/R[c][1][s][i]<0.97])
