# Sourced by ./build and ./topolens: points JAVA_HOME at a JDK 25 (the machine's default java may be older).
# A JDK's version is read from its `release` file, which every JDK since 9 has: starting `java -version` to ask
# costs a JVM start (about 50 ms each, two or three per command), a third of a small diagnose's wall time.
is_jdk25() {
  if [ -f "$1/release" ]; then
    grep -q '^JAVA_VERSION="25' "$1/release"
  else
    [ -x "$1/bin/java" ] && "$1/bin/java" -version 2>&1 | grep -q 'version "25'
  fi
}
if [ -z "${JAVA_HOME:-}" ] || ! [ -x "$JAVA_HOME/bin/java" ] || ! is_jdk25 "$JAVA_HOME"; then
  for candidate in /usr/lib/jvm/*-25-* /usr/lib/jvm/*25*; do
    if [ -x "$candidate/bin/java" ] && is_jdk25 "$candidate"; then
      export JAVA_HOME="$candidate"
      break
    fi
  done
fi
if [ -z "${JAVA_HOME:-}" ] || ! [ -x "$JAVA_HOME/bin/java" ] || ! is_jdk25 "$JAVA_HOME"; then
  echo "topolens: no JDK 25 found (set JAVA_HOME to one, or install it under /usr/lib/jvm)" >&2
  exit 2
fi
export PATH="$JAVA_HOME/bin:$PATH"
