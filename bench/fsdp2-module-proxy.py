"""Per-module host time of FSDP2 at world 1, with and without CPU offload, against the number of modules (issue 12:
a proxy for DeepSpeed ZeRO-3's per-module fetch and release, bench/results/fsdp2-module-proxy-h100/README.md).
Llama-shaped blocks of 9 modules with parameters (q, k, v, o, gate, up, down, two RMSNorms) at a small width, so
compute is small and the per-module work shows; each module its own fully_shard unit (DeepSpeed fetches per module),
the stack the root. Modes: plain (no FSDP), fsdp, offload (CPUOffloadPolicy(pin_memory=True)); 4-32 blocks; the
median of 20 timed forward+backward passes after 5 warm-up ones; the sweep twice. One JSON line per point.
Run: NCCL_NVLS_ENABLE=0 torchrun --standalone --nproc_per_node=1 bench/fsdp2-module-proxy.py
Fit: bench/fsdp2-module-proxy-fit.py OUTPUT"""
import os,time,json,statistics as st,torch,torch.nn as nn,torch.distributed as dist
from torch.distributed.fsdp import fully_shard,CPUOffloadPolicy
dist.init_process_group("nccl");torch.cuda.set_device(0)
D,F,T=int(os.environ.get("D","256")),int(os.environ.get("F","688")),128
def Li(a,b):return nn.Linear(a,b,bias=False)
class B(nn.Module):
 def __init__(s):
  super().__init__();s.n1=nn.RMSNorm(D);s.q=Li(D,D);s.k=Li(D,D);s.v=Li(D,D);s.o=Li(D,D);s.n2=nn.RMSNorm(D);s.g=Li(D,F);s.u=Li(D,F);s.d=Li(F,D)
 def forward(s,x):
  h=s.n1(x);x=x+s.o(s.q(h)*s.k(h)+s.v(h));h=s.n2(x);return x+s.d(nn.functional.silu(s.g(h))*s.u(h))
def run(mode,L):
 m=nn.Sequential(*[B() for _ in range(L)]).cuda()
 if mode!="plain":
  kw={"offload_policy":CPUOffloadPolicy(pin_memory=True)} if mode=="offload" else {}
  for b in m:
   for c in b.children():fully_shard(c,**kw)
  fully_shard(m,**kw)
 x=torch.randn(1,T,D,device="cuda");ts=[]
 for i in range(25):
  torch.cuda.synchronize();t=time.perf_counter();m(x).sum().backward();torch.cuda.synchronize();ts.append(time.perf_counter()-t)
  for p in m.parameters():p.grad=None
 return st.median(ts[5:]),min(ts[5:]),max(ts[5:])
for rep in range(2):
 for L in (4,8,16,32):
  for mode in ("plain","fsdp","offload"):
   med,lo,hi=run(mode,L);print(json.dumps({"rep":rep,"mode":mode,"layers":L,"modules":9*L,"D":D,"F":F,"tokens":T,"fwd_bwd_s":med,"min_s":lo,"max_s":hi}),flush=True)
dist.destroy_process_group()
