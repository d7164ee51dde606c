# Sourced by ./build and ./topolens: points JAVA_HOME at a JDK 25 (the machine's default java may be older).
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  for candidate in /usr/lib/jvm/*-25-* /usr/lib/jvm/*25*; do
    if [ -x "$candidate/bin/java" ] && "$candidate/bin/java" -version 2>&1 | grep -q 'version "25'; then
      export JAVA_HOME="$candidate"
      break
    fi
  done
fi
if [ -z "${JAVA_HOME:-}" ] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -q 'version "25'; then
  echo "topolens: no JDK 25 found (set JAVA_HOME to one, or install it under /usr/lib/jvm)" >&2
  exit 2
fi
export PATH="$JAVA_HOME/bin:$PATH"
