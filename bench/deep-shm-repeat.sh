#!/usr/bin/env bash
# Section 9's SHM miss (docs/model-validation.md) repeated on one lent 2 x H100 machine (issue 12): the whole held-out
# deep experiment once (examples/experiment/local-2gpu-heldout-deep.yaml, as section 9 ran it), then its NVLink and SHM
# variants alone ${1:-4} more times (examples/experiment/local-2gpu-heldout-deep-shm.yaml), each run after its own
# probe, so the SHM/NVLink step ratio is measured 1 + N times on one machine. Run by bench/experiment-local.sh's
# rules: carry .devcarry/jre.tar.xz and a jar as $TOPOLENS_JAR. Writes under $OUT (at most 8 files come back):
# machine.txt, full/results.json, shm-K/results.json, raw.tar.gz (every run's variants, tables and progress).
set -x
reps=${1:-4}
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
tar -xJf .devcarry/jre.tar.xz
export PATH=$PWD/.jre/bin:$PATH
if [ -n "${TOPOLENS_JAR:-}" ]; then mkdir -p topolens-cli/target && cp "$TOPOLENS_JAR" topolens-cli/target/topolens.jar; fi
{ nvidia-smi --query-gpu=name,driver_version --format=csv
  nvidia-smi topo -m
  python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version())'
  lscpu | grep -E 'Model name|^CPU\(s\)'
  date -u; } | tee "$OUT/machine.txt"
raw=$(mktemp -d)
one() {  # one() NAME SPEC
  mkdir -p "$OUT/$1" "$raw/$1"
  ./topolens experiment "$2" --out "$raw/$1/exp" > "$raw/$1/table.txt" 2> "$raw/$1/progress.txt"
  echo "$1 rc=$? $(date -u +%T)"
  cp "$raw/$1/exp/results.json" "$OUT/$1/results.json"
  cat "$raw/$1/table.txt"
}
one full examples/experiment/local-2gpu-heldout-deep.yaml
for k in $(seq 1 "$reps"); do one "shm-$k" examples/experiment/local-2gpu-heldout-deep-shm.yaml; done
date -u | tee -a "$OUT/machine.txt"
tar -C "$raw" -czf "$OUT/raw.tar.gz" .
