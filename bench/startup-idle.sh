#!/usr/bin/env bash
# Start-up on a machine without a JDK (the lent GPU host), pinned to 2 cores: builds the AOT cache there with the
# build's own training run (io.topolens.cli.AotTraining on examples/, as topolens-cli/pom.xml does at package), then
# times `--version` and `diagnose examples/h200-p2p` (with the JIT options bin/jit.sh passes for it: C1 only, fewer
# compilations; JIT="..." in the environment replaces them, e.g. JIT=-XX:TieredStopAtLevel=1 as before 2026-11-26 15:30)
# RUNS times each (default 5), with and without the cache, interleaved. Prints "<what> <wall s> <user s> <sys s>"
# sorted.
# Usage (from the repository root): bash bench/startup-idle.sh JRE_TAR JAR [RUNS]
#   JRE_TAR  the runtime of ../shared/tools/device-jre.sh, tarred (.devcarry/jre.tar.xz)
#   JAR      the shaded topolens.jar to time (an absolute path is made of it: the cache records it)
set -u
cd "$(dirname "$0")/.."
mkdir -p /tmp/j && tar xJf "$1" -C /tmp/j
J=/tmp/j/.jre/bin/java
JAR=$(realpath "$2")
uptime
lscpu | grep 'Model name'
taskset -c 0,1 "$J" -XX:AOTCacheOutput=/tmp/t.aot -Xlog:aot*=error,cds*=error -cp "$JAR" io.topolens.cli.AotTraining \
  "$PWD/examples" > /tmp/aot.log 2>&1
echo "aot rc=$? $(stat -c %s /tmp/t.aot) bytes"
aot=(-XX:AOTCache=/tmp/t.aot -Xlog:aot*=off -Xlog:cds*=off)
. bin/jit.sh
topolens_jit diagnose examples/h200-p2p
jit=${JIT-$jit}
echo "jit: $jit"
for i in $(seq "${3:-5}"); do
  /usr/bin/time -f "noaot-version %e %U %S" taskset -c 0,1 "$J" -jar "$JAR" --version > /dev/null
  /usr/bin/time -f "aot-version %e %U %S" taskset -c 0,1 "$J" "${aot[@]}" -jar "$JAR" --version > /dev/null
  /usr/bin/time -f "noaot-p2p %e %U %S" taskset -c 0,1 "$J" $jit -jar "$JAR" diagnose examples/h200-p2p > /dev/null
  /usr/bin/time -f "aot-p2p %e %U %S" taskset -c 0,1 "$J" "${aot[@]}" $jit -jar "$JAR" \
    diagnose examples/h200-p2p > /dev/null
done 2>&1 | sort
uptime
