#!/usr/bin/env bash
# One GPU (issue 12, the one-pod step): train_fsdp.py's model per phase with the plain module, FSDP2 at world 1
# and FSDP2 sharded for 4 ranks over the fake process group, several layer counts and hidden sizes; then the
# one-GPU fit's own step (bench/fsdp-step.py, the transformers Llama) again on this machine. Writes under $OUT:
# machine.txt, phases.jsonl (bench/fsdp-phases.py's lines), hf-step.jsonl, log.txt.
set -u
here=$(dirname "$0")
out=${OUT:-bench-data}; mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
{ date -u; nvidia-smi; nproc; lscpu | grep -E 'Model name|^CPU\(s\)|MHz' ; uptime; python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version())'; } > "$out/machine.txt" 2>&1
S=h2048-l16-s1024-mb2,h2048-l8-s1024-mb2,h2048-l32-s1024-mb2,h1024-l16-s1024-mb2,h4096-l8-s1024-mb2,h2048-l16-s1024-mb4,h2048-l16-s128-mb1
start=$(date +%s)
for m in plain fsdp fake; do
  echo "== $m $(date -u +%T)" >> "$out/log.txt"
  OMP_NUM_THREADS=1 timeout 140 python3 $here/fsdp-phases.py --mode $m --shapes $S --out "$out/phases.jsonl" --label 1gpu-$m >> "$out/log.txt" 2>&1
  echo "rc $? $(( $(date +%s) - start )) s" >> "$out/log.txt"
done
for mb in 4 2; do
  echo "== hf mb$mb $(date -u +%T)" >> "$out/log.txt"
  OMP_NUM_THREADS=16 timeout 80 python3 $here/fsdp-step.py --tag hf-h2048-l16-s1024-mb$mb --hidden 2048 --layers 16 --seq 1024 --mb $mb >> "$out/hf-step.jsonl" 2>> "$out/log.txt"
  echo "rc $? $(( $(date +%s) - start )) s" >> "$out/log.txt"
done
grep -v '^{' "$out/log.txt" | tail -40
python3 - "$out/phases.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l)
    if 'error' in d: print(d['label'],d['tag'],'ERROR',d['error'][:200]); continue
    p=d['profile']
    print(d['label'],d['tag'],'step %.4f fwd %.4f bwd %.4f opt %.4f | host %.4f %.4f %.4f | nosync %.4f | busy %s kern %s'%(d['step_s'],d['fwd_s'],d['bwd_s'],d['opt_s'],d['fwd_host_s'],d['bwd_host_s'],d['opt_host_s'],d['step_nosync_s'],p.get('gpu_busy_s'),p.get('kernels')))
PY
grep -h '"tag"' "$out/hf-step.jsonl" | cut -c1-250
