#!/usr/bin/env python3
"""Counts the steps of the line filter's one multi-needle pass (NeedleSet's Wu-Manber loop) over ReaderStages'
mixed slice (a training job's lines with one NCCL line in twenty, 256 KiB): how many places it looks at and how many
needle comparisons it makes, for the filter's own needles alone ("before") and with NCCL's failure texts' needles;
with pairs (the table before close13a) and triples (after) as the shift table's key. A load-independent check of
what JMH measures on a busy machine. Run from the repository root:
  python3 bench/needle-pass-steps.py topolens-core/src/main/resources/io/topolens/nccl/failure-texts.txt
"""
import sys
sys.path.insert(0,'.')
def lines(p): return open(p,encoding='utf-8',errors='replace').read().split('\n')
P2P='examples/h200-p2p/fsdp-p2p.log'
APP=['examples/eks-efa-fallback/llama-3-8b-node-0-0.log','topolens-core/src/test/resources/public/steps/deepspeed-accelerate-1589-timers-and-bar.log','topolens-core/src/test/resources/public/steps/hf-alignment-handbook-63-loss-dicts.log']
nccl=[l for l in lines(P2P) if 'NCCL ' in l]
app=[l for p in APP for l in lines(p) if 'NCCL' not in l]
mixed=[]; i=0
while len(mixed)<20000:
    mixed.append(app[i%len(app)])
    if i%20==0: mixed.append(nccl[(i//20)%len(nccl)])
    i+=1
b=bytearray(); i=0
while True:
    l=(mixed[i%len(mixed)]+'\n').encode('utf-8')
    if len(b)+len(l)>256*1024: break
    b+=l; i+=1
b=bytes(b)
own=["NCCL","nccl","Last error:","NVLink SHARP"," WARN ","CUDA failure ","Cuda failure ","no algorithm/protocol available","Got completion ","Bus error","bus error encountered","DistStoreError","client socket has timed out","exitcode: -9","(SIGKILL)","on signal 9","oom-kill","Out of memory: Killed process","Duplicate GPU detected","ddress already in use","invalid device ordinal"]
texts=[l.rstrip('\n').split('\t') for l in open(sys.argv[1]) if l.strip() and not l.startswith('#')]
def sim(needles):
    """Pairs of bytes as the key (NeedleSet before close13a): steps, comparisons, hits, long needles."""
    longs=[n.encode('latin1') for n in needles if len(n)>=8]
    m=min(len(n) for n in longs)
    shift={}
    ends={}
    for n in longs:
        for j in range(1,m):
            h=n[j-1:j+1]; shift[h]=min(shift.get(h,m-1), m-1-j)
        ends.setdefault(n[m-2:m],[]).append(n)
    steps=0; verif=0; hits=0
    end=m-1
    while end<len(b):
        steps+=1
        h=b[end-1:end+1]
        s=shift.get(h,m-1)
        if s>0: end+=s; continue
        start=end-m+1
        for n in ends[h]:
            verif+=1
            if b.startswith(n,start): hits+=1
        end+=1
    return steps,verif,hits,len(longs)
def extra(col):
    return [t[col] for t in texts if not any(o in t[0] for o in own)]
print('bytes',len(b))
print('before',sim(own))
if len(texts[0])>1:
    print('after, needles = windows',sim(own+sorted(set(extra(1)))))
print('after, needles = whole literals',sim(own+sorted(set(extra(0)))))
def sim3h(needles, hf):
    longs=[n.encode('latin1') for n in needles if len(n)>=8]
    m=min(len(n) for n in longs)
    shift={}; ends={}
    for n in longs:
        for j in range(2,m):
            h=hf(n[j-2],n[j-1],n[j]); shift[h]=min(shift.get(h,m-2), m-1-j)
        ends.setdefault(hf(n[m-3],n[m-2],n[m-1]),[]).append(n)
    steps=0; verif=0; end=m-1
    while end<len(b):
        steps+=1
        h=hf(b[end-2],b[end-1],b[end]); s=shift.get(h,m-2)
        if s>0: end+=s; continue
        verif+=len(ends[h]); end+=1
    return steps,verif
hf = lambda a, b_, c: ((a << 10) ^ (b_ << 5) ^ c) & 0xffff  # NeedleSet.triple
print('triples before', sim3h(own, hf))
print('triples after, needles = windows', sim3h(own + sorted(set(extra(1))), hf))
