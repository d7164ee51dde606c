#!/usr/bin/env bash
# What ran on each lent machine for bench/results/<card>x<n>-launch-heldout* (issue 12, the host's launch speed held
# out; predictions first: bench/results/launch-heldout-predictions): machine.txt, then bench/device-launch/
# launch-heldout.yaml with the layout set to one pod of all the GPUs (1x2 or 1x4) and predict.instance to the card that
# came: three runs of the one-pod step, each after its own probe (with the launch micro-benchmark). Stops the
# experiment when the budget runs out. The device tool sends the session's checkout, so this script, the branch's jar
# and the spec travel in .devcarry/launchprobe/ (carry: .devcarry/jre.tar.xz, .devcarry/launchprobe).
# Usage: bash .devcarry/launchprobe/device-launch.sh BUDGET_S
budget=${1:-300}; t0=$SECONDS
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
G=.devcarry/launchprobe; E=/tmp/launchexp; W=/tmp/launchwork; mkdir -p $W
left() { echo $(( budget - (SECONDS - t0) )); }
[ -x .jre/bin/java ] || tar -xJf .devcarry/jre.tar.xz
export PATH=$PWD/.jre/bin:$PATH
mkdir -p topolens-cli/target; cp $G/topolens.jar topolens-cli/target/topolens.jar
card=h100; nvidia-smi -L | grep -q H200 && card=h200
n=$(nvidia-smi -L | wc -l)
spec=examples/experiment/launch-heldout.yaml
sed "s/h100x4-host/${card}x${n}-host/; s/layout: 1x4/layout: 1x${n}/" $G/launch-heldout.yaml > $spec
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvidia-smi topo -m
  python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version(), torch.cuda.device_count())'
  lscpu | grep -E 'Model name|^CPU\(s\)'; free -g | head -2; uname -r; uptime; date -u; } > $W/machine.txt 2>&1
cat $W/machine.txt; cp $W/machine.txt $OUT/
setsid bash -c "export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PATH=$PATH; ./topolens experiment $spec --out $E > $W/table.txt 2>> $W/progress.txt; echo rc=\$? > $W/exp.done" < /dev/null > /dev/null 2>&1 &
pg=$!
while [ ! -f $W/exp.done ] && [ $(left) -gt 20 ]; do sleep 3; done
if [ ! -f $W/exp.done ]; then
  echo "stopping the experiment at $SECONDS s: budget spent"; kill -TERM -- -$pg; sleep 3; kill -KILL -- -$pg 2>/dev/null
fi
cp $W/progress.txt $W/table.txt $OUT/ 2>/dev/null; cp $E/results.json $OUT/ 2>/dev/null; cat $W/exp.done 2>/dev/null
cp $spec $W/spec.yaml; (cd $W && tar czf $OUT/extra.tar.gz machine.txt spec.yaml 2>/dev/null)
[ -d $E/variants ] && tar -C $E/.. -czf $OUT/variants.tar.gz launchexp/variants
grep -h 'launch:' $E/variants/*/probe/rank-0.out 2>/dev/null; ls $E/variants/*/ 2>/dev/null | head
tail -3 $W/progress.txt; cat $W/table.txt 2>/dev/null; echo "done at $SECONDS s"
