#!/usr/bin/env bash
# Builds dist/: topolens for machines without a JDK. dist/topolens-VERSION/ holds runtime/ (a jlink'ed Java 25
# with only the modules topolens uses), lib/topolens.jar, bin/topolens and bin/kubectl-topolens (kubectl's plugin
# name: `kubectl topolens ...`); dist/topolens-VERSION-linux-x64.tar.gz is that folder packed. Run by the cli
# module's package phase (skip it with -Ddist.skip); usage: bin/dist.sh VERSION
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version="${1:-dev}"
jar="$root/topolens-cli/target/topolens.jar"
[ -f "$jar" ] || { echo "dist: $jar not built" >&2; exit 1; }
. "$root/bin/jdk25.sh"
# java.naming and java.management: the Kubernetes client; jdk.unsupported: Jackson and Netty-free fabric8 internals;
# jdk.crypto.cryptoki is not needed (EC and RSA TLS are in java.base since JDK 22)
modules=java.base,java.logging,java.xml,java.net.http,java.management,java.naming,java.sql,jdk.unsupported,jdk.zipfs
name="topolens-$version"
stage="$root/dist/$name"
mkdir -p "$root/dist"
# the runtime is the slow part: rebuilt only when the JDK or the module list changed
stamp="$("$JAVA_HOME/bin/java" -version 2>&1 | head -1) $modules"
if [ ! -x "$stage/runtime/bin/java" ] || [ "$(cat "$root/dist/.runtime-stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$root/dist"
  mkdir -p "$stage"
  "$JAVA_HOME/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
    --compress=zip-6 --output "$stage/runtime"
  echo "$stamp" > "$root/dist/.runtime-stamp"
fi
mkdir -p "$stage/bin" "$stage/lib"
cp "$jar" "$stage/lib/topolens.jar"
cp "$root/bin/jit.sh" "$stage/lib/jit.sh"
for cmd in topolens kubectl-topolens; do
  cat > "$stage/bin/$cmd" <<'LAUNCHER'
#!/bin/sh
# topolens with its own Java runtime: needs no JDK, JAVA_HOME or java on PATH. A symbolic link to this
# file (in ~/.local/bin, say) works too. As kubectl-topolens it is the kubectl plugin: kubectl topolens ...
self="$0"
while [ -h "$self" ]; do
  link="$(readlink "$self")"
  case "$link" in /*) self="$link" ;; *) self="${self%/*}/$link" ;; esac
done
home="$(cd -P "${self%/*}/.." && pwd)"
. "$home/lib/jit.sh"
topolens_jit "$@"
exec "$home/runtime/bin/java" $jit ${TOPOLENS_JAVA_OPTS:-} -jar "$home/lib/topolens.jar" "$@"
LAUNCHER
  chmod +x "$stage/bin/$cmd"
done
cp "$root/README.md" "$stage/README.md"
# fast compression: the runtime is already zip-compressed inside, so more effort gains little
tar -cf - -C "$root/dist" "$name" | gzip -1 > "$root/dist/$name-linux-x64.tar.gz"
echo "dist: $(du -sh "$stage" | cut -f1) in dist/$name, $(du -h "$root/dist/$name-linux-x64.tar.gz" | cut -f1) packed"
