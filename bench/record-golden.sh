#!/usr/bin/env bash
# Records the golden diagnose outputs (topolens-cli/src/test/resources/golden) from another commit's reader, so a
# reader change is checked against what the code before it printed. Usage: bench/record-golden.sh [REF]  (default
# main). It checks REF out in a temporary worktree, copies this tree's DiagnoseGoldenTest into it, runs the test
# there with -Dtopolens.golden.record=true, and copies the recordings back here.
set -euo pipefail
cd "$(dirname "$0")/.."
ref=${1:-main}
tmp=$(mktemp -d /tmp/topolens-golden.XXXXXX)
trap 'git worktree remove --force "$tmp" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach "$tmp" "$ref" >/dev/null
test=topolens-cli/src/test/java/io/topolens/cli/DiagnoseGoldenTest.java
cp "$test" "$tmp/$test"
rm -rf "$tmp/topolens-cli/src/test/resources/golden"
(cd "$tmp" && ./build -q -pl topolens-cli -am test -Dtest=DiagnoseGoldenTest -Dtopolens.golden.record=true \
  -Dsurefire.failIfNoSpecifiedTests=false -Dspotless.skip=true)
rm -rf topolens-cli/src/test/resources/golden/diagnose
cp -r "$tmp/topolens-cli/src/test/resources/golden/diagnose" topolens-cli/src/test/resources/golden/
echo "recorded from $ref ($(git rev-parse --short "$ref")) into topolens-cli/src/test/resources/golden/diagnose"
