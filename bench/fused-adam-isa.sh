#!/usr/bin/env bash
# The fused AdamW pass (bench/fused-adam.c, DeepSpeedCPUAdam's shape) built three ways on one CPU: as
# bench/fused-adam.sh builds it (gcc leaves the loop scalar: sqrtf may set errno, "control flow in loop"), and
# vectorised with -fno-math-errno for AVX2 (-mno-avx512f) and for AVX512 (-mprefer-vector-width=512), as
# DeepSpeedCPUAdam's intrinsics are (AVX256 or AVX512, csrc/includes/simd.h). Each build runs 1, 4 and 16
# threads and 4 processes of 1 thread, in two rounds (scalar avx2 avx512, twice) so drift shows between rounds.
# OUT=dir bash bench/fused-adam-isa.sh   -> $OUT/fused-adam-isa.jsonl ("isa", "round", "procs", "rank" added),
# vector-registers.txt (zmm/ymm instructions in each build), lscpu.txt, gcc.txt
set -euo pipefail
OUT=${OUT:-/tmp/fused-adam-isa}
mkdir -p "$OUT"
lscpu > "$OUT/lscpu.txt"
gcc --version | head -1 > "$OUT/gcc.txt"
B="gcc -O3 -march=native -fopenmp bench/fused-adam.c -lm"
$B -o /tmp/fa-scalar.bin
$B -fno-math-errno -mno-avx512f -o /tmp/fa-avx2.bin
$B -fno-math-errno -mprefer-vector-width=512 -o /tmp/fa-avx512.bin
for I in scalar avx2 avx512; do
  echo "$I zmm $(objdump -d /tmp/fa-$I.bin | grep -c zmm) ymm $(objdump -d /tmp/fa-$I.bin | grep -c ymm)"
done > "$OUT/vector-registers.txt"
N=268435456
run() { # isa round procs threads
  for r in $(seq 1 "$3"); do
    OMP_NUM_THREADS=$4 /tmp/fa-$1.bin $((N / $3)) 5 |
      sed "s/^{/{\"isa\":\"$1\",\"round\":$2,\"procs\":$3,\"rank\":$r,/" &
  done
  wait
}
{
  for R in 1 2; do
    for I in scalar avx2 avx512; do
      run $I $R 1 1
      run $I $R 1 4
      run $I $R 4 1
      run $I $R 1 16
    done
  done
} > "$OUT/fused-adam-isa.jsonl"
rm -f /tmp/fa-scalar.bin /tmp/fa-avx2.bin /tmp/fa-avx512.bin
