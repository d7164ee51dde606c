#!/usr/bin/env bash
# The one-GPU measurements behind the step model (issue 12): FSDP2 step times of Llama-shaped models with and
# without CPU offload, CPU AdamW rates against threads, copy rates and matmul efficiency. Writes JSON lines
# under ${OUT:-bench-data}/. Run on the GPU machine from the repository root: bash bench/one-gpu.sh
set -u
out=${OUT:-bench-data}; mkdir -p "$out"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
{ nvidia-smi; nproc; lscpu | grep -E 'Model name|Flags' | cut -c1-400; python3 -c 'import torch,transformers;print(torch.__version__, transformers.__version__)'; } > "$out/machine.txt" 2>&1
python3 bench/gpu-micro.py > "$out/gpu-micro.jsonl" 2>"$out/gpu-micro.err"
for t in 1 2 4 8 16; do OMP_NUM_THREADS=$t python3 bench/cpu-adam.py 1 2048 16 4; done > "$out/cpu-adam-1proc.jsonl" 2>"$out/cpu-adam.err"
run() { tag=$1; shift; echo "== $tag $*" >&2; timeout 240 python3 bench/fsdp-step.py --tag "$tag" "$@"; }
{
  OMP_NUM_THREADS=16 run h2048-l16-s1024 --hidden 2048 --layers 16 --seq 1024
  OMP_NUM_THREADS=16 run h2048-l16-s512 --hidden 2048 --layers 16 --seq 512
  OMP_NUM_THREADS=16 run h2048-l16-s2048 --hidden 2048 --layers 16 --seq 2048
  OMP_NUM_THREADS=16 run h2048-l16-s1024-ckpt --hidden 2048 --layers 16 --seq 1024 --checkpoint
  OMP_NUM_THREADS=16 run h2048-l32-s1024 --hidden 2048 --layers 32 --seq 1024
  OMP_NUM_THREADS=16 run h1024-l16-s1024 --hidden 1024 --layers 16 --heads 8 --seq 1024
  OMP_NUM_THREADS=16 run h4096-l8-s1024 --hidden 4096 --layers 8 --heads 32 --seq 1024
  OMP_NUM_THREADS=4 run h2048-l16-s1024-off-t4 --hidden 2048 --layers 16 --seq 1024 --offload --steps 5
  OMP_NUM_THREADS=16 run h2048-l16-s1024-off-t16 --hidden 2048 --layers 16 --seq 1024 --offload --steps 5
  OMP_NUM_THREADS=4 run h2048-l32-s1024-off-t4 --hidden 2048 --layers 32 --seq 1024 --offload --steps 5
  OMP_NUM_THREADS=4 run h2048-l16-s1024-ckpt-off-t4 --hidden 2048 --layers 16 --seq 1024 --checkpoint --offload --steps 5
} > "$out/fsdp-1gpu.jsonl" 2> "$out/fsdp-1gpu.err"
tail -n 3 "$out"/*.err
grep -h tag "$out/fsdp-1gpu.jsonl" | cut -c1-300
