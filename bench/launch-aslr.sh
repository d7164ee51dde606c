#!/usr/bin/env bash
# Whether a process's launch speed is its address layout's draw (issue 12, the host's launch speed): short processes
# of bench/launch-inprocess.py (train_fsdp.py's model, world 1, the probe's ops and 3 FSDP2 steps in one process, 2
# iterations each), alternating ASLR on and off (setarch -R, PYTHONHASHSEED=0), N of each. Writes under $OUT:
# machine.txt, aslr.jsonl, log.txt.
set -u
out=${OUT:-bench-data}; mkdir -p "$out"; B=$(dirname "$0")
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; lscpu | grep -E 'Model name|^CPU\(s\)'; uname -r; uptime
  cat /proc/sys/kernel/randomize_va_space; setarch -R true && echo setarch-ok; } > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
for i in $(seq 1 ${N:-6}); do
  timeout 60 python3 $B/launch-inprocess.py --iters 2 --label aslr-on-$i --out "$out/aslr.jsonl" >> "$out/log.txt" 2>&1; echo "on $i rc=$?"
  PYTHONHASHSEED=0 timeout 60 setarch -R python3 $B/launch-inprocess.py --iters 2 --label aslr-off-$i --out "$out/aslr.jsonl" >> "$out/log.txt" 2>&1; echo "off $i rc=$?"
done
python3 - "$out/aslr.jsonl" <<'PY'
import json, statistics, sys
for l in open(sys.argv[1]):
    d = json.loads(l); print(d["label"], d["iter"], d["launch"], "fb %.4f" % statistics.median(d["fb_s"]))
PY
