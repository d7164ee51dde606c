#!/usr/bin/env bash
# Issue 15, step 1: nccl-tests -g N against topolens' probe over N processes, in the same command, on the lent
# multi-GPU machine. Carry .ref (../shared/tools' nccl-tests source and build script), .devcarry/jre.tar.xz and
# topolens-cli/target/topolens.jar. Outputs under $OUT: nccl-tests/<coll>.txt, probe/<coll>/rank-*.out.
set -x
export NCCL_NVLS_ENABLE=0 NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH
tar -xJf .devcarry/jre.tar.xz; export PATH=$PWD/.jre/bin:$PATH
n=$(nvidia-smi -L | wc -l)
nvidia-smi -L; nvidia-smi topo -m > "$OUT/topo.txt"; python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version())' | tee "$OUT/versions.txt"
bash .ref/build-nccl-tests.sh .ref && . .ref/nccl-tests/env.sh
mkdir -p "$OUT/nccl-tests" "$OUT/probe"
for c in all_reduce all_gather reduce_scatter; do
  timeout 150 .ref/nccl-tests/build/${c}_perf -b 8 -e 4G -f 2 -g "$n" > "$OUT/nccl-tests/$c.txt" 2>&1
  timeout 200 ./topolens probe --local "$n" --logs "$OUT/probe/$c" -- --collectives "$c" -b 8 -e 4G -f 2 > /dev/null 2> "$OUT/probe/$c.err"
  echo "$c rc=$?"
done
tar -C "$OUT" -czf "$OUT/probe.tar.gz" probe && rm -rf "$OUT/probe"
