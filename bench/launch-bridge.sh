#!/usr/bin/env bash
# The bridge from the probe's launch micro-benchmark to compute.launchPerLayerS (issue 12): bench/launch-inprocess.py
# --hf, the fit's own model (bench/fsdp-step.py's transformers Llama, micro-batch 4, world 1) at the fit's launch-bound
# shapes, the micro-benchmark and the steps in one process, two processes per shape. Writes under $OUT: machine.txt,
# inprocess.jsonl, log.txt.
set -u
out=${OUT:-bench-data}; mkdir -p "$out"; B=$(dirname "$0")
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv; lscpu | grep -E 'Model name|^CPU\(s\)'; uname -r; uptime; } > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
r() { OMP_NUM_THREADS=16 timeout 150 python3 $B/launch-inprocess.py --hf --out "$out/inprocess.jsonl" "$@" >> "$out/log.txt" 2>&1; echo "$* rc=$? $(date -u +%T)"; }
for p in 1 2; do
  for s in ${SHAPES:-h2048-l16-s1024-mb4 h2048-l32-s1024-mb4 h1024-l16-s1024-mb4 h2048-l16-s512-mb4}; do
    r --shape $s --iters 4 --label $s-p$p
  done
done
python3 - "$out/inprocess.jsonl" <<'PY'
import json, statistics, sys
for l in open(sys.argv[1]):
    d = json.loads(l); fb = statistics.median(d["fb_s"])
    print(d["label"], d["iter"], d["launch"], "fb %.4f per layer %.5f per layer / layer-us %.3e" % (fb, fb / d["layers"], fb / d["layers"] / d["launch"]["layer"]))
PY
