#!/usr/bin/env bash
# The mutation fuzzer of the CLI (docs/fuzzing.md). Builds topolens and the fuzzer, then runs it from the
# repository root: bench/fuzz.sh [--seed S] [--mutants N] [--minutes M] [--timeout-ms T] [--index I] [--baseline]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${FUZZ_NO_BUILD:-}" ]; then
  ./build -q -o -P fuzz -pl topolens-fuzz -am package -DskipTests -Daot.skip=true -Ddist.skip
fi
. bin/jdk25.sh
exec "$JAVA_HOME/bin/java" -Xmx${FUZZ_HEAP:-2g} -cp topolens-cli/target/topolens.jar:topolens-fuzz/target/classes \
  io.topolens.fuzz.Fuzz --out target/fuzz "$@"
