#!/usr/bin/env bash
# Issue 15: run-to-run spread of all_gather from 256 MiB to 4 GiB, nccl-tests -g N and the probe alternating
# three times in one command (carry as bench/probe-vs-nccl-tests.sh). Outputs: $OUT/ag-{nccl,probe}-R.txt
set -x
export NCCL_NVLS_ENABLE=0
tar -xJf .devcarry/jre.tar.xz; export PATH=$PWD/.jre/bin:$PATH
n=$(nvidia-smi -L | wc -l)
[ -x .ref/nccl-tests/build/all_gather_perf ] || bash .ref/build-nccl-tests.sh .ref
. .ref/nccl-tests/env.sh
for r in 1 2 3; do
  .ref/nccl-tests/build/all_gather_perf -b 256M -e 4G -f 2 -g "$n" > "$OUT/ag-nccl-$r.txt" 2>&1
  ./topolens probe --local "$n" --logs "/tmp/ag-$r" -- --collectives all_gather -b 256M -e 4G -f 2 > /dev/null 2>&1
  cp "/tmp/ag-$r/rank-0.out" "$OUT/ag-probe-$r.txt"
done
