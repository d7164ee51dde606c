#!/usr/bin/env bash
# What ran on the lent 4-GPU machine for bench/results/<card>x4-experiment-3 and <card>x4-probe-vs-nccl-tests-3
# (issue 12, a machine the model has not seen; predictions first: bench/results/x4-heldout-predictions). Adapted from
# bench/device-4gpu.sh (kept as it ran): the same probe against nccl-tests (phase 1), then
# examples/experiment/local-4gpu.yaml with its variants reordered (local-4gpu-heldout.yaml beside this script: the
# same 8 variants and names, 4x1-offload-cpu, 22 s a step, last, so a short budget loses it first) started in its own
# session so it runs on between calls; phase 2 waits for it and brings everything back. If phase 2 is about to run out
# before the experiment ends, it stops it and writes results.json from the finished variants (--resume with the spec
# less 4x1-offload-cpu). The device tool sends the session's checkout, so this script, the jar and the spec travel in
# .devcarry/gpu4b/ (carry: .devcarry/jre.tar.xz, .devcarry/gpu4b, .ref). Usage: bash .devcarry/gpu4b/dev.sh PHASE BUDGET_S
phase=$1; budget=${2:-560}; t0=$SECONDS
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
G=.devcarry/gpu4b; E=/tmp/gpu4exp; W=/tmp/gpu4work; mkdir -p $W
left() { echo $(( budget - (SECONDS - t0) )); }
[ -x .jre/bin/java ] || tar -xJf .devcarry/jre.tar.xz
export PATH=$PWD/.jre/bin:$PATH
mkdir -p topolens-cli/target; cp $G/topolens.jar topolens-cli/target/topolens.jar
card=h100; nvidia-smi -L | grep -q H200 && card=h200
spec=examples/experiment/local-4gpu-heldout.yaml
sed "s/h100x4-host/${card}x4-host/" $G/local-4gpu-heldout.yaml > $spec
start_exp() {
  r=""; [ -f $E/results.json ] && r=--resume
  setsid bash -c "export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PATH=$PATH; ./topolens experiment $spec --out $E $r --html $W/exp.html > $W/table.txt 2>> $W/progress.txt; echo rc=\$? > $W/exp.done" < /dev/null > /dev/null 2>&1 &
  echo "experiment started $r"
}
collect() {
  cp $W/progress.txt $W/table.txt $OUT/ 2>/dev/null; cp $E/results.json $OUT/ 2>/dev/null; cat $W/exp.done 2>/dev/null
  first=$(ls $E/variants 2>/dev/null | head -1); [ -n "$first" ] && timeout 60 ./topolens diagnose "$E/variants/$first" > $W/diagnose-first-variant.txt 2>&1
  cp $spec $W/spec.yaml
  (cd $W && tar czf $OUT/extra.tar.gz diagnose-first-variant.txt machine.txt exp.html spec.yaml 2>/dev/null)
  [ -d $E/variants ] && tar -C $E/.. -czf $OUT/variants.tar.gz gpu4exp/variants
}
if [ $phase = 1 ]; then
  { nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvidia-smi topo -m
    python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version(), torch.cuda.device_count())'
    lscpu | grep -E 'Model name|^CPU\(s\)'; free -g | head -2; uname -r; date -u; } > $W/machine.txt 2>&1; cp $W/machine.txt $OUT/
  cat $W/machine.txt
  n=$(nvidia-smi -L | wc -l); P=$W/pvn; mkdir -p $P/nccl-tests $P/probe
  nvidia-smi topo -m > $P/topo.txt; python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version())' > $P/versions.txt
  timeout 150 bash .ref/build-nccl-tests.sh .ref && . .ref/nccl-tests/env.sh; echo "nccl-tests built at $SECONDS"
  for c in all_reduce all_gather reduce_scatter; do
    (export NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,ENV,GRAPH
     timeout 70 .ref/nccl-tests/build/${c}_perf -b 8 -e 4G -f 2 -g "$n" > $P/nccl-tests/$c.txt 2>&1; echo "$c nccl-tests rc=$? at $SECONDS"
     timeout 100 ./topolens probe --local "$n" --logs $P/probe/$c -- --collectives "$c" -b 8 -e 4G -f 2 > /dev/null 2> $P/probe/$c.err; echo "$c probe rc=$? at $SECONDS")
  done
  tar -C $W -czf $OUT/pvn.tar.gz pvn
  start_exp
  while [ ! -f $W/exp.done ] && [ $(left) -gt 25 ]; do sleep 5; done
  collect
else
  if [ ! -f $W/exp.done ] && ! pgrep -f "topolens.jar experiment" > /dev/null; then start_exp; fi
  while [ ! -f $W/exp.done ] && [ $(left) -gt 40 ]; do sleep 5; done
  if [ ! -f $W/exp.done ]; then
    echo "stopping the experiment at $SECONDS s: budget spent"; pkill -TERM -f "topolens.jar experiment"; sleep 5
    pkill -KILL -f "train_fsdp.py"; sleep 2
    grep -v '^  - layout: 4x1$' $spec | grep -v '^    offload: \[cpu\] *# last$' > $W/short.yaml; cp $W/short.yaml $spec
    timeout 20 ./topolens experiment $spec --out $E --resume --html $W/exp.html > $W/table.txt 2>> $W/progress.txt; echo "rc=$? (short)" > $W/exp.done
  fi
  collect
fi
tail -5 $W/progress.txt; cat $W/table.txt 2>/dev/null; echo "phase $phase done at $SECONDS s"
