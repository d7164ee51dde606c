#!/usr/bin/env bash
# Start-up benchmark (docs/performance.md): ./topolens --version and diagnose examples/h200-p2p, with and without the
# AOT cache, RUNS times each, interleaved; optionally against another jar (say main's). Prints wall and CPU seconds.
# Usage: bench/startup.sh [RUNS] [OTHER_JAR]
set -euo pipefail
cd "$(dirname "$0")/.."
. bin/jdk25.sh
runs=${1:-5}
other=${2:-}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$runs"); do
  if [ -n "$other" ]; then
    /usr/bin/time -f "other-version %e %U %S" "$JAVA_HOME/bin/java" -jar "$other" --version >/dev/null
    /usr/bin/time -f "other-p2p %e %U %S" "$JAVA_HOME/bin/java" -jar "$other" diagnose examples/h200-p2p >/dev/null || true
  fi
  TOPOLENS_NO_AOT=1 /usr/bin/time -f "noaot-version %e %U %S" ./topolens --version >/dev/null
  /usr/bin/time -f "aot-version %e %U %S" ./topolens --version >/dev/null
  TOPOLENS_NO_AOT=1 /usr/bin/time -f "noaot-p2p %e %U %S" ./topolens diagnose examples/h200-p2p >/dev/null || true
  /usr/bin/time -f "aot-p2p %e %U %S" ./topolens diagnose examples/h200-p2p >/dev/null || true
done 2>&1 | sort | awk '{k=$1; w[k]=w[k]" "$2; c[k]=c[k]" "($3+$4)} END {for (k in w) print k, "wall:" w[k], " cpu:" c[k]}' | sort
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
