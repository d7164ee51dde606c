#!/usr/bin/env bash
# Four GPUs of one host (issue 12, the one-pod step): train_fsdp.py's model per phase (bench/fsdp-phases.py) on
# the same host: the 1x4 layout (one process per GPU over NCCL as topolens experiment starts it,
# OMP_NUM_THREADS=1) first and again last; FSDP2 at world 1 on GPU 0 alone; the plain module alone; four
# independent world-1 processes at once, one per GPU (the host's CPUs shared, no communication); and FSDP2
# sharded for 4 ranks over the fake process group on GPU 0.
# Writes under $OUT: machine.txt, phases.jsonl, log.txt.
set -u
here=$(dirname "$0")
out=${OUT:-bench-data}; mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
{ date -u; nvidia-smi; nvidia-smi topo -m; nproc; lscpu | grep -E 'Model name|^CPU\(s\)|MHz'; uptime; python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version())'; } > "$out/machine.txt" 2>&1
n=$(nvidia-smi -L | wc -l)
if [ "$n" -lt 4 ]; then echo "only $n GPUs: stop"; cat "$out/machine.txt"; exit 3; fi
nvidia-smi -L
S=${S:-h2048-l16-s1024-mb2,h2048-l8-s1024-mb2,h2048-l32-s1024-mb2,h1024-l16-s1024-mb2,h2048-l16-s128-mb1}
P="python3 $here/fsdp-phases.py --shapes $S --out $out/phases.jsonl"
start=$(date +%s)
note() { echo "== $1 $(date -u +%T) $(( $(date +%s) - start )) s" >> "$out/log.txt"; }
w4() {
  for r in 0 1 2 3; do
    RANK=$r LOCAL_RANK=$r WORLD_SIZE=4 MASTER_ADDR=127.0.0.1 MASTER_PORT=$1 timeout 150 $P --mode fsdp --label $2 >> "$out/log.txt" 2>&1 &
  done; wait
}
note world4; w4 29620 4gpu-1x4
note alone
LOCAL_RANK=0 MASTER_PORT=29600 timeout 120 $P --mode fsdp --label 4gpu-alone >> "$out/log.txt" 2>&1
note plain
LOCAL_RANK=0 timeout 120 $P --mode plain --label 4gpu-plain >> "$out/log.txt" 2>&1
note concurrent
rm -rf /tmp/bar; for r in 0 1 2 3; do
  LOCAL_RANK=$r BARRIER_RANK=$r MASTER_PORT=$((29610 + r)) timeout 150 $P --mode fsdp --label 4gpu-4x-world1 --barrier-dir /tmp/bar --barrier-n 4 >> "$out/log.txt" 2>&1 &
done; wait
note fake4
LOCAL_RANK=0 timeout 120 $P --mode fake --world 4 --label 4gpu-fake4 >> "$out/log.txt" 2>&1
note world4-again; w4 29630 4gpu-1x4-again
note done
grep '^==' "$out/log.txt"; grep -v '^{' "$out/log.txt" | grep -v '^==' | tail -20
python3 - "$out/phases.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l)
    if 'error' in d: print(d['label'],d['tag'],d.get('rank'),'ERROR',d['error'][:200]); continue
    p=d['profile']
    print(d['label'],d['tag'],d['rank'],d['barrier_rank'],'step %.4f fwd %.4f bwd %.4f opt %.4f | host %.4f %.4f %.4f | nosync %.4f | busy %s'%(d['step_s'],d['fwd_s'],d['bwd_s'],d['opt_s'],d['fwd_host_s'],d['bwd_host_s'],d['opt_host_s'],d['step_nosync_s'],p.get('gpu_busy_s')))
PY
