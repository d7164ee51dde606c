#!/usr/bin/env bash
# Runs examples/experiment/local-${1:-1}gpu.yaml on the lent machine of that many GPUs, or the spec file given as $1
# (e.g. examples/experiment/local-2gpu-heldout-wide.yaml, whose train_fsdp.py and catalog lie beside it). No Java
# there: carry the runtime built by ../shared/tools/device-jre.sh as .devcarry/jre.tar.xz, and
# topolens-cli/target/topolens.jar (or name a jar as $TOPOLENS_JAR: it is copied there first).
# Results land in $OUT; bench/results/h100-experiment-1gpu/ keeps what one H100 gave.
set -x
tar -xJf .devcarry/jre.tar.xz
export NCCL_NVLS_ENABLE=0
export PATH=$PWD/.jre/bin:$PATH
if [ -n "${TOPOLENS_JAR:-}" ]; then mkdir -p topolens-cli/target && cp "$TOPOLENS_JAR" topolens-cli/target/topolens.jar; fi
case "${1:-1}" in
  *.yaml) spec=$1 ;;
  *) spec=examples/experiment/local-${1:-1}gpu.yaml ;;
esac
{ nvidia-smi --query-gpu=name,driver_version --format=csv
  nvidia-smi topo -m
  python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version())'
  lscpu | grep -E 'Model name|^CPU\(s\)'
  date -u; } | tee "$OUT/machine.txt"
./topolens experiment "$spec" --out "$OUT/exp" --html "$OUT/exp.html" > "$OUT/table.txt" 2> "$OUT/progress.txt"
echo rc=$?
./topolens diagnose "$OUT/exp/variants/$(ls "$OUT/exp/variants" | head -1)" > "$OUT/diagnose-first-variant.txt"
tar -C "$OUT" -czf "$OUT/variants.tar.gz" exp/variants && rm -rf "$OUT/exp/variants"
cat "$OUT/table.txt"; tail -20 "$OUT/progress.txt"; cat "$OUT/diagnose-first-variant.txt"
