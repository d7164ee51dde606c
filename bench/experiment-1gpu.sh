set -x
tar -xJf .devcarry/jre.tar.xz
export NCCL_NVLS_ENABLE=0 NCCL_DEBUG=INFO
export PATH=$PWD/.jre/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv
python3 -c 'import torch;print(torch.__version__, torch.cuda.nccl.version())'
./topolens experiment examples/experiment/local-1gpu.yaml --out $OUT/exp --html $OUT/exp.html > $OUT/table.txt 2> $OUT/progress.txt
echo rc=$?
cat $OUT/table.txt; tail -20 $OUT/progress.txt
