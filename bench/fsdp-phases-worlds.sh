#!/usr/bin/env bash
# World sizes 1, 2 and 4 on one host (issue 12, the one-pod step): train_fsdp.py's model per phase
# (bench/fsdp-phases.py, no profiled step) as FSDP2 over NCCL at world 1 (GPU 0), world 2 (GPUs 0-1) and world 4
# (GPUs 0-3), one process per GPU with OMP_NUM_THREADS=1 as topolens experiment starts them, three rounds (ROUNDS) with the
# world sizes interleaved so that the host's drift falls on all three alike. Writes under $OUT: machine.txt,
# phases.jsonl, log.txt.
set -u
here=$(dirname "$0")
out=${OUT:-bench-data}; mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
{ date -u; nvidia-smi; nproc; lscpu | grep -E 'Model name|^CPU\(s\)|MHz'; uptime; python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version())'; } > "$out/machine.txt" 2>&1
n=$(nvidia-smi -L | wc -l)
if [ "$n" -lt 4 ]; then echo "only $n GPUs: stop"; cat "$out/machine.txt"; exit 3; fi
nvidia-smi -L
S=${S:-h2048-l16-s1024-mb2,h2048-l8-s1024-mb2,h2048-l32-s1024-mb2}
start=$(date +%s)
note() { echo "== $1 $(date -u +%T) $(( $(date +%s) - start )) s" >> "$out/log.txt"; }
world() {  # world size, port, label
  for r in $(seq 0 $(($1 - 1))); do
    RANK=$r LOCAL_RANK=$r WORLD_SIZE=$1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$2 timeout 100 python3 $here/fsdp-phases.py \
      --mode fsdp --no-profile --shapes $S --out $out/phases.jsonl --label $3 >> "$out/log.txt" 2>&1 &
  done; wait
}
for round in ${ROUNDS:-1 2 3}; do
  note "round $round w1"; world 1 $((29700 + round * 10)) w1-r$round
  note "round $round w2"; world 2 $((29701 + round * 10)) w2-r$round
  note "round $round w4"; world 4 $((29702 + round * 10)) w4-r$round
done
note done
grep '^==' "$out/log.txt"; grep -v '^{' "$out/log.txt" | grep -v '^==' | tail -10
python3 - "$out/phases.jsonl" <<'PY'
import json,sys
for l in open(sys.argv[1]):
    d=json.loads(l)
    if 'error' in d: print(d['label'],d['tag'],d.get('rank'),'ERROR',d['error'][:200]); continue
    print(d['label'],d['tag'],d['rank'],'fb %.4f opt %.4f host %.4f nosync %.4f'%(d['fwd_s']+d['bwd_s'],d['opt_s'],d['fwd_host_s']+d['bwd_host_s'],d['step_nosync_s']))
PY
