#!/usr/bin/env bash
# The diagnose speed benchmark (docs/performance.md): a synthetic log of thousands of ranks, diagnosed with a 256 MiB
# heap, against `grep -c NCCL` on the same file, in the same run. Usage: bench/run.sh [SIZE_MIB] [SHAPE] [RUNS]
#   SIZE_MIB  default 1024
#   SHAPE     nccl (default): every line NCCL's (a verbose FSDP log with COLL traces, 1705 hosts per GiB);
#             mixed: a training job's own lines with NCCL lines interleaved (1024 hosts, 4096 ranks)
#   RUNS      runs of each command (default 5); the median is printed
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1024}
shape=${2:-nccl}
runs=${3:-5}
mkdir -p bench-data
log=bench-data/$shape-$size.log
if [ ! -f "$log" ]; then
  case $shape in
    nccl) python3 bench/make-big-log.py topolens-core/src/test/resources/fixtures/h200x4/verbose/fsdp-coll-subsys.log "$log" "$size" ;;
    mixed) python3 bench/make-mixed-log.py examples/h200-p2p/fsdp-p2p.log examples/eks-efa-fallback/llama-3-8b-node-0-0.log "$log" "$size" ;;
    *) echo "unknown shape $shape (nccl or mixed)" >&2; exit 2 ;;
  esac
fi
ls -l "$log"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
cat "$log" > /dev/null  # warm the page cache for both
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
timed() {  # prints "wall user sys maxrss_kib" of one run of "$@", output to a file
  /usr/bin/time -f "%e %U %S %M" -o bench-data/time.txt "$@" > bench-data/out.txt || true
  cat bench-data/time.txt
}
echo "--- grep -c NCCL ($runs runs; output to a file)"
: > bench-data/grep.txt
for i in $(seq "$runs"); do timed grep -c NCCL "$log" | tee -a bench-data/grep.txt; done
echo "--- topolens diagnose --format json --fold-channels, -Xmx256m ($runs runs)"
: > bench-data/topolens.txt
for i in $(seq "$runs"); do
  TOPOLENS_JAVA_OPTS="-Xmx256m" timed ./topolens diagnose --format json --fold-channels "$log" | tee -a bench-data/topolens.txt
  cp bench-data/out.txt bench-data/out.json
done
g=$(cut -d' ' -f1 bench-data/grep.txt | median)
t=$(cut -d' ' -f1 bench-data/topolens.txt | median)
echo "median wall: grep $g s, topolens $t s, ratio $(awk -v t="$t" -v g="$g" 'BEGIN {printf "%.2f", t / g}')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 -c "import json;d=json.load(open('bench-data/out.json'));c=d['communicators'][0];print('ranks',d['job']['rankCount'],'nRanks',c['nRanks'],'edges',len(c['edges']),'unrecognized',d['unrecognized']['count'],'malformed',d['malformed']['count'])"
