# Sourced by ./topolens and the dist launcher (POSIX sh): sets $jit to the JIT options for the command line given.
# A command on small inputs runs with C1 only (-XX:TieredStopAtLevel=1: compiled code at once, no profiling tier):
# `diagnose examples/h200-p2p` takes 0.25 s instead of 0.35 s (docs/performance.md); under 2 MiB with fewer
# compilations (below). Big inputs keep C2, whose code
# reads step-time lines twice as fast: over 64 MiB of paths named (a .gz counted ten times), standard input (`-`),
# a job read from the cluster (--job, --selector, -l). Their C2 inlines less (FreqInlineSize 100 instead of 325) and
# compiles only methods ten times hotter (the Tier4 thresholds): C2 took 5 of a 1 GiB log's 18 s of CPU, mostly
# recompiling the reader's largest methods with everything inlined; with these it takes 2 and the reading is no
# slower. Without profiled loop predicates it does not compile the step-line scanners again after their predicates'
# traps (TqdmLines.bar three times): 0.2-0.4 s less (docs/performance.md, sixth pass). The long-running experiment, run and probe keep the JVM's defaults.
# TOPOLENS_FULL_JIT=1 keeps the JVM's defaults always.
topolens_jit() {
  jit=""
  [ -n "${TOPOLENS_FULL_JIT:-}" ] && return 0
  case "${1:-}" in experiment | run | probe) return 0 ;; esac
  jit_big="-XX:FreqInlineSize=100 -XX:Tier4InvocationThreshold=50000 -XX:Tier4CompileThreshold=150000"
  jit_big="$jit_big -XX:Tier4MinInvocationThreshold=6000 -XX:Tier4BackEdgeThreshold=400000 -XX:-UseProfiledLoopPredicate"
  command -v du >/dev/null 2>&1 || { jit=$jit_big; return 0; } # sizes unknown (a bare PATH): keep C2
  jit_total=0
  for jit_arg in "$@"; do
    case "$jit_arg" in - | --job | --job=* | --selector | --selector=* | -l) jit=$jit_big; return 0 ;; esac
    if [ -e "$jit_arg" ]; then
      jit_size=$(du -sbL -- "$jit_arg" 2>/dev/null)
      jit_size=${jit_size%%[!0-9]*}
      case "$jit_arg" in *.gz) jit_size=$((${jit_size:-0} * 10)) ;; esac
      jit_total=$((jit_total + ${jit_size:-0}))
      [ "$jit_total" -ge 67108864 ] && { jit=$jit_big; return 0; }
    fi
  done
  jit="-XX:TieredStopAtLevel=1"
  # Under 2 MiB, C1 also compiles only methods ten times hotter: it compiled about 900 methods of a small
  # diagnose, 160 ms of CPU that competed with the main thread for 2 cores; with this it compiles a few
  # hundred in 50 ms, and the run takes a fifth less CPU (docs/performance.md, start-up's fifth pass). From
  # a few MiB on, the interpreter's longer share costs more than the compiling saves.
  [ "$jit_total" -lt 2097152 ] && jit="$jit -XX:CompileThresholdScaling=10"
  return 0
}
