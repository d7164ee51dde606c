#!/usr/bin/env bash
# What ran on the lent 4-GPU machine for bench/results/<card>x4-experiment-4 (issue 12: the hop-count fix held out on
# a machine the model has not seen; predictions first: bench/results/x4-heldout2-predictions). bench/device-4gpu.sh's
# phase 3 (machine.txt, then the no-offload repeat spec) in one call, without its probe-against-nccl-tests part, with
# the spec bench/device-heldout2/local-4gpu-heldout2.yaml (4x1 last). If the budget runs out before the experiment
# ends, it stops it and writes results.json from the finished variants (--resume with the spec less 4x1). The device
# tool sends the session's checkout, so this script, the branch's jar and the spec travel in .devcarry/hopfix/ (carry:
# .devcarry/jre.tar.xz, .devcarry/hopfix). Usage: bash .devcarry/hopfix/dev.sh BUDGET_S
budget=${1:-480}; t0=$SECONDS
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
G=.devcarry/hopfix; E=/tmp/gpu4exp; W=/tmp/gpu4work; mkdir -p $W
left() { echo $(( budget - (SECONDS - t0) )); }
[ -x .jre/bin/java ] || tar -xJf .devcarry/jre.tar.xz
export PATH=$PWD/.jre/bin:$PATH
mkdir -p topolens-cli/target; cp $G/topolens.jar topolens-cli/target/topolens.jar
card=h100; nvidia-smi -L | grep -q H200 && card=h200
spec=examples/experiment/local-4gpu-heldout2.yaml
sed "s/h100x4-host/${card}x4-host/" $G/local-4gpu-heldout2.yaml > $spec
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvidia-smi topo -m
  python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version(), torch.cuda.device_count())'
  lscpu | grep -E 'Model name|^CPU\(s\)'; free -g | head -2; uname -r; uptime; date -u; } > $W/machine.txt 2>&1
cat $W/machine.txt; cp $W/machine.txt $OUT/
setsid bash -c "export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PATH=$PATH; ./topolens experiment $spec --out $E --html $W/exp.html > $W/table.txt 2>> $W/progress.txt; echo rc=\$? > $W/exp.done" < /dev/null > /dev/null 2>&1 &
pg=$!   # setsid's bash leads its own process group: the experiment and its ranks
while [ ! -f $W/exp.done ] && [ $(left) -gt 40 ]; do sleep 5; done
if [ ! -f $W/exp.done ]; then
  echo "stopping the experiment at $SECONDS s: budget spent"; kill -TERM -- -$pg; sleep 5
  kill -KILL -- -$pg 2>/dev/null; sleep 2
  head -n -2 $spec > $W/short.yaml; cp $W/short.yaml $spec
  timeout 20 ./topolens experiment $spec --out $E --resume --html $W/exp.html > $W/table.txt 2>> $W/progress.txt; echo "rc=$? (short)" > $W/exp.done
fi
cp $W/progress.txt $W/table.txt $OUT/ 2>/dev/null; cp $E/results.json $OUT/ 2>/dev/null; cat $W/exp.done
first=$(ls $E/variants 2>/dev/null | head -1); [ -n "$first" ] && timeout 30 ./topolens diagnose "$E/variants/$first" > $W/diagnose-first-variant.txt 2>&1
cp $spec $W/spec.yaml
(cd $W && tar czf $OUT/extra.tar.gz diagnose-first-variant.txt machine.txt exp.html spec.yaml 2>/dev/null)
[ -d $E/variants ] && tar -C $E/.. -czf $OUT/variants.tar.gz gpu4exp/variants
tail -3 $W/progress.txt; cat $W/table.txt 2>/dev/null; echo "done at $SECONDS s"
