#!/usr/bin/env bash
# Fused AdamW (bench/fused-adam.c, DeepSpeedCPUAdam's shape) against threads and processes on this host.
# OUT=dir bash bench/fused-adam.sh   -> $OUT/fused-adam.jsonl (one line per process; "procs" added), lscpu.txt
set -euo pipefail
OUT=${OUT:-/tmp/fused-adam}
mkdir -p "$OUT"
lscpu > "$OUT/lscpu.txt"
gcc -O3 -march=native -fopenmp bench/fused-adam.c -o "$OUT/fused-adam.bin" -lm
N=268435456
run() { # procs threads
  local P=$1 T=$2
  for r in $(seq 1 "$P"); do
    OMP_NUM_THREADS=$T "$OUT/fused-adam.bin" $((N / P)) 5 | sed "s/^{/{\"procs\":$P,\"rank\":$r,/" &
  done
  wait
}
{
  for T in 1 2 4 8 16; do run 1 $T; done
  run 4 1
  run 2 16
  run 4 16
} | tee "$OUT/fused-adam.jsonl"
rm -f "$OUT/fused-adam.bin"
