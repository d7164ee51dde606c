#!/usr/bin/env bash
# The probe's launch micro-benchmark against FSDP2's world-1 step on one GPU (issue 12, the host's launch speed):
# which of the probe's ops (kernel, nccl, layer) moves with the per-layer launch time. Rounds alternate a quiet host
# with SPIN busy co-processes (CPU taken by work that runs, the one thing known to slow the launches), each round the
# probe's micro-benchmark (probe.py --collectives '' at world 1) and then bench/fsdp-phases.py at world 1 (two
# launch-bound shapes of train_fsdp.py's model). Then the one-H100 fit's launch-bound shapes with bench/fsdp-step.py
# (as bench/one-gpu.sh ran them for compute.launchPerLayerS), between two more probes: the bridge from this host's
# micro-benchmark to the fit host's. Writes under $OUT: machine.txt, launch.jsonl, phases.jsonl, fsdp-1gpu.jsonl, log.txt.
set -u
out=${OUT:-bench-data}; mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
B=$(dirname "$0")   # beside this script: fsdp-phases.py, fsdp-step.py, and probe.py where it was carried along
P=$B/probe.py; [ -f $P ] || P=$B/../topolens-lab/src/main/resources/io/topolens/lab/probe/probe.py
SPIN=${SPIN:-$(nproc)}
{ date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv; nproc
  lscpu | grep -E 'Model name|^CPU\(s\)|MHz|Thread'; uname -r; uptime
  python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version())'; } > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
start=$(date +%s)
note() { echo "== $1 $(date -u +%T) $(( $(date +%s) - start )) s" | tee -a "$out/log.txt"; }
pids=()
spin() { for i in $(seq 1 $1); do python3 -c 'while True: pass' & pids+=($!); done; }
unspin() { for p in "${pids[@]}"; do kill $p 2>/dev/null; done; wait "${pids[@]}" 2>/dev/null; pids=(); }
probe() {  # label port
  RANK=0 WORLD_SIZE=1 LOCAL_RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$2 OMP_NUM_THREADS=1 timeout 60 \
    python3 $P --collectives '' --json /tmp/launch.json > /tmp/launch.out 2>> "$out/log.txt"
  grep 'launch:' /tmp/launch.out | tee -a "$out/log.txt"
  python3 -c "import json,sys;d=json.load(open('/tmp/launch.json'));print(json.dumps({'label':sys.argv[1],'launch':d.get('launch')}))" $1 >> "$out/launch.jsonl"
}
phases() {  # label port
  RANK=0 LOCAL_RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT=$2 OMP_NUM_THREADS=1 timeout 100 python3 $B/fsdp-phases.py \
    --mode fsdp --no-profile --shapes ${S:-h2048-l16-s1024-mb2,h1024-l16-s1024-mb2} --out "$out/phases.jsonl" --label $1 >> "$out/log.txt" 2>&1
}
for r in ${ROUNDS:-1 2}; do
  for s in 0 $SPIN; do
    [ $s -gt 0 ] && spin $s
    note "round $r spin $s"; probe r$r-spin$s $((29600 + r * 10 + s % 7)); phases r$r-spin$s $((29700 + r * 10 + s % 7))
    unspin
  done
done
note bridge; probe bridge-before 29801
fs() { tag=$1; shift; timeout 120 python3 $B/fsdp-step.py --tag "$tag" "$@" >> "$out/fsdp-1gpu.jsonl" 2>> "$out/log.txt"; }
export OMP_NUM_THREADS=16
fs h2048-l16-s1024 --hidden 2048 --layers 16 --seq 1024
fs h2048-l32-s1024 --hidden 2048 --layers 32 --seq 1024
fs h1024-l16-s1024 --hidden 1024 --layers 16 --heads 8 --seq 1024
note bridge-after; probe bridge-after 29802
note done
python3 - "$out" <<'PY'
import json, sys
o = sys.argv[1]
for l in open(o + "/launch.jsonl"):
    d = json.loads(l); print(d["label"], d["launch"] and {k: round(v, 2) for k, v in d["launch"]["us_per_op"].items()})
for l in open(o + "/phases.jsonl"):
    d = json.loads(l)
    print(d.get("label"), d.get("tag"), "ERROR" if "error" in d else "fb %.4f" % (d["fwd_s"] + d["bwd_s"]))
for l in open(o + "/fsdp-1gpu.jsonl"):
    d = json.loads(l)
    if "tag" in d: print(d["tag"], "step %.4f" % d["step_s_median"])
PY
