#!/usr/bin/env bash
# Prints the classpath of the project's dev tools (simulator, migrations, embedded PostgreSQL), which the
# build writes to target/devtools.classpath (mvn process-test-classes).
. "$(dirname "$0")/lib.sh"
CP_FILE=$BUILD_DIR/devtools.classpath
if [ ! -s "$CP_FILE" ] || [ ! -d "$BUILD_DIR/test-classes" ]; then
  log "building the dev tools (mvn process-test-classes)"
  # into the same build dir we read from (WECOM_BUILD_DIR), not the default target/
  (cd "$ROOT" && mvn -B -q -DskipTests "-Dwecom.build.dir=$BUILD_DIR" process-test-classes >&2)
fi
printf '%s:%s:%s\n' "$BUILD_DIR/test-classes" "$BUILD_DIR/classes" "$(cat "$CP_FILE")"
