#!/usr/bin/env bash
# The diagnose speed benchmark (docs/performance.md): a synthetic 1 GiB log of thousands of ranks, diagnosed with
# a 256 MiB heap, against `grep -c NCCL` on the same file. Usage: bench/run.sh [SIZE_MIB]   (default 1024)
set -euo pipefail
cd "$(dirname "$0")/.."
size=${1:-1024}
mkdir -p bench-data
log=bench-data/big-$size.log
if [ ! -f "$log" ]; then
  python3 bench/make-big-log.py topolens-core/src/test/resources/fixtures/h200x4/verbose/fsdp-coll-subsys.log "$log" "$size"
fi
ls -l "$log"
cat "$log" > /dev/null  # warm the page cache for both
echo "--- grep -c NCCL (3 runs)"
for i in 1 2 3; do /usr/bin/time -f "%e s wall, %M KiB max RSS" grep -c NCCL "$log"; done
echo "--- topolens diagnose --format json, -Xmx256m (3 runs)"
for i in 1 2 3; do
  TOPOLENS_JAVA_OPTS="-Xmx256m" /usr/bin/time -f "%e s wall, %M KiB max RSS" ./topolens diagnose --format json --fold-channels "$log" > bench-data/out.json || true
done
python3 -c "import json;d=json.load(open('bench-data/out.json'));c=d['communicators'][0];print('ranks',d['job']['rankCount'],'nRanks',c['nRanks'],'edges',len(c['edges']),'unrecognized',d['unrecognized']['count'])"
