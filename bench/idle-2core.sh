#!/usr/bin/env bash
# bench/run.sh's comparison on an otherwise idle machine, pinned to 2 cores (taskset), for two builds at once:
# grep -c NCCL, then BEFORE and AFTER alternating, on both 1 GiB shapes; prints wall/user/sys/maxrss per run and
# checks that both builds write the same JSON. Made for the lent GPU host (16 idle cores, no Java), whose load does
# not move while it runs; this project's own 2-core machine is shared with other builds (docs/performance.md).
#
# Usage: bash bench/idle-2core.sh JAVA BEFORE_CP AFTER_JAR [RUNS] [SHAPES]
#   JAVA       a Java 25 `java` (on the GPU host: bash ../shared/tools/device-jre.sh, carried)
#   BEFORE_CP  the classpath of the build to compare against (e.g. its module jars, then AFTER_JAR for the libraries)
#   AFTER_JAR  the shaded topolens.jar of this build
#   RUNS       runs of each command per shape (default 3); SHAPES default "mixed nccl"
# BEFORE_OPTS and AFTER_OPTS (environment, default none) are JVM options of each build's runs: the options its
# launcher's bin/jit.sh passes for a big input, e.g. AFTER_OPTS="$(. bin/jit.sh; topolens_jit diagnose BIG.log; echo $jit)".
# AFTER_CP (environment), where set, runs the after build as BEFORE_CP does (-cp AFTER_CP io.topolens.cli.Main)
# instead of -jar AFTER_JAR: the two ways differ by about 7 % (docs/performance.md, ninth pass), so compare alike.
set -euo pipefail
cd "$(dirname "$0")/.."
java=$1 before=$2 after=$3 runs=${4:-3} shapes=${5:-mixed nccl}
mkdir -p bench-data
cores=${CORES:-0,1}
for shape in $shapes; do
  log=bench-data/$shape-1024.log
  if [ ! -f "$log" ]; then
    case $shape in
      nccl) python3 bench/make-big-log.py topolens-core/src/test/resources/fixtures/h200x4/verbose/fsdp-coll-subsys.log "$log" 1024 ;;
      mixed) python3 bench/make-mixed-log.py examples/h200-p2p/fsdp-p2p.log examples/eks-efa-fallback/llama-3-8b-node-0-0.log "$log" 1024 ;;
    esac
  fi
  cat "$log" > /dev/null
  echo "--- $shape: $(stat -c %s "$log") bytes; load $(cut -d' ' -f1-3 /proc/loadavg); cores $cores"
  echo "before options: ${BEFORE_OPTS:-none}; after options: ${AFTER_OPTS:-none}"
  for i in $(seq "$runs"); do
    /usr/bin/time -f "grep   %e s wall %U user %S sys %M KiB" taskset -c "$cores" grep -c NCCL "$log" > bench-data/grep.txt  # to a file: with /dev/null GNU grep stops at the first match
    /usr/bin/time -f "before %e s wall %U user %S sys %M KiB" taskset -c "$cores" "$java" -Xmx256m ${BEFORE_OPTS:-} -cp "$before" \
      io.topolens.cli.Main diagnose --format json --fold-channels "$log" > "bench-data/$shape-before.json" || true
    if [ -n "${AFTER_CP:-}" ]; then after_run=(-cp "$AFTER_CP" io.topolens.cli.Main); else after_run=(-jar "$after"); fi
    /usr/bin/time -f "after  %e s wall %U user %S sys %M KiB" taskset -c "$cores" "$java" -Xmx256m ${AFTER_OPTS:-} "${after_run[@]}" \
      diagnose --format json --fold-channels "$log" > "bench-data/$shape-after.json" || true
  done
  cmp "bench-data/$shape-before.json" "bench-data/$shape-after.json" && echo "$shape: the same JSON ($(stat -c %s "bench-data/$shape-after.json") bytes)"
done
