#!/usr/bin/env bash
# bench/launch-inprocess.py on one GPU: one process pinned to each vCPU in turn (twice over), one unpinned, then 4
# short unpinned processes (the draw a new process gets). Writes under $OUT: machine.txt, inprocess.jsonl, log.txt.
set -u
out=${OUT:-bench-data}; mkdir -p "$out"; B=$(dirname "$0")
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; lscpu | grep -E 'Model name|MHz'; uname -r; uptime; } > "$out/machine.txt" 2>&1
cat "$out/machine.txt"; n=$(nproc)
r() { timeout 150 python3 $B/launch-inprocess.py --out "$out/inprocess.jsonl" "$@" >> "$out/log.txt" 2>&1; echo "$* rc=$? $(date -u +%T)"; }
r --pin --iters $((2 * n)) --label pinned
r --iters 12 --label unpinned
for p in 1 2 3 4; do r --iters 4 --label proc$p; done
python3 - "$out/inprocess.jsonl" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
for d in rows:
    print(d["label"], d["iter"], d["cpu"], d["launch"], "fb %.4f" % statistics.median(d["fb_s"]))
PY
