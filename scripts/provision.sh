#!/usr/bin/env bash
# Installs the real servers the studio runs against, idempotently:
#   NATS (Debian), ffmpeg + chromium + fluidsynth with the GM soundfonts and espeak-ng (Debian; the benchmark sets), FerretDB v1 and MinIO (built from Go modules),
#   Keycloak (distribution zip from Maven Central), the Zipkin trace viewer (its server's exec jar from Maven Central).
# Built binaries live in .tools/ (git-ignored); Go's build cache and Maven's ~/.m2 make re-runs cheap.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
FERRETDB_VERSION="${FERRETDB_VERSION:-v1.24.2}"
MINIO_VERSION="${MINIO_VERSION:-v0.0.0-20260212201848-7aac2a2c5b7c}"
KEYCLOAK_VERSION="${KEYCLOAK_VERSION:-26.5.6}"
ZIPKIN_VERSION="${ZIPKIN_VERSION:-3.5.1}"
mkdir -p "$TOOLS/bin"
log() { printf '[provision] %s\n' "$*" >&2; }

need_apt=()
command -v nats-server >/dev/null 2>&1 || need_apt+=(nats-server)
command -v ffmpeg >/dev/null 2>&1 || need_apt+=(ffmpeg)
command -v ffprobe >/dev/null 2>&1 || need_apt+=(ffmpeg)
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v unzip >/dev/null 2>&1 || need_apt+=(unzip)
command -v fluidsynth >/dev/null 2>&1 || need_apt+=(fluidsynth)
[ -f /usr/share/sounds/sf2/FluidR3_GM.sf2 ] || need_apt+=(fluid-soundfont-gm)
# The held-out benchmark set's sources: two other soundfonts and a speech synthesizer.
[ -f /usr/share/sounds/sf2/TimGM6mb.sf2 ] || need_apt+=(timgm6mb-soundfont)
[ -f /usr/share/sounds/sf3/MuseScore_General_Lite.sf3 ] || need_apt+=(musescore-general-soundfont-small)
command -v espeak-ng >/dev/null 2>&1 || need_apt+=(espeak-ng)
[ ${#need_apt[@]} -eq 0 ] || bash "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh" provision "${need_apt[@]}"

# What the build changes in FerretDB's source, named in its stamp so that a binary built before a change is rebuilt.
FERRETDB_LOCAL="sqlite-id-index+serial-writes"

go_tool() { # name module version package-inside-module
  local name="$1" module="$2" version="$3" pkg="$4" stamp="$TOOLS/bin/.$1.version" dir built="$3"
  [ "$name" != ferretdb ] || built="$version+$FERRETDB_LOCAL"
  if [ -x "$TOOLS/bin/$name" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$built" ]; then return; fi
  log "building $name $version from Go module source (first time takes minutes)"
  # Build inside the downloaded module with its own go.mod/go.sum: `go install mod@version` would also
  # ask the proxy for the module's version list, which the proxy refuses for some modules.
  dir="$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [ -n "$dir" ] || { log "could not download $module@$version"; exit 1; }
  if [ "$name" = ferretdb ]; then
    # FerretDB embeds build/version/version.txt, which its release tooling generates; the module has it
    # empty, so build from a writable copy with the version filled in.
    rm -rf "$TOOLS/src/$name" && mkdir -p "$TOOLS/src" && cp -r "$dir" "$TOOLS/src/$name" && chmod -R u+w "$TOOLS/src/$name"
    echo "$version" > "$TOOLS/src/$name/build/version/version.txt"
    dir="$TOOLS/src/$name"
    # Its SQLite backend filters by `_id` with the path `->'$._id'`, while the unique index on `_id` that it
    # creates for every collection is on `->"_id"`: SQLite cannot match the two expressions, so every lookup,
    # change and delete by id read the whole table. Both give the same value (a label X is the path $.X); the
    # queries now say `->'_id'`, which SQLite matches to the index's `->"_id"` (the double-quoted name is read as
    # that string), so lookups by id use the index — collections made before too, as only the queries change.
    # `npm run bench:database` prints the difference (by-id times that no longer grow with the collection).
    local meta="$dir/internal/backends/sqlite/metadata/metadata.go"
    sed -i "s|IDColumn = DefaultColumn + \"->'\$._id'\"|IDColumn = DefaultColumn + \"->'_id'\"|" "$meta"
    grep -q "IDColumn = DefaultColumn + \"->'_id'\"" "$meta" || { log "FerretDB $version: the _id lookup to change was not found in $meta"; exit 1; }
    # SQLite takes one write at a time per database file. FerretDB opens up to 100 connections to each, and a
    # write that finds the file locked sleeps and tries again (SQLite's busy handler: 1, 2, 5 … 100 ms naps), so
    # under concurrent writes most changes go through at once while some lose the race again and again (40
    # writers at once: p50 2 ms, p99 330 ms, max 1.4 s). Its writes all pass through two methods of its
    # database wrapper (fsql.DB: ExecContext, and InTransaction for inserts and updates; neither is called inside
    # the other), so each now takes that database's lock first: writers queue in Go (a mutex that hands over in
    # order once a waiter has waited over 1 ms) instead of napping. Reads are untouched (WAL: they never wait for a
    # writer). A writer waiting here ignores its request's cancellation (as SQLite's 10 s busy wait did), and a
    # findAndModify holds its read's connection while it waits, as before, out of the 100 per file.
    # `npm run bench:database` prints changes from several clients at once.
    local fsql="$dir/internal/util/fsql/db.go"
    sed -i -e 's|^\t"time"$|\t"sync"\n\t"time"|' \
      -e 's|^\tBatchSize int$|\tBatchSize int\n\n\twrites sync.Mutex // one write at a time, queued (stemdeck build)|' \
      -e 's|^func (db \*DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {$|&\n\tdb.writes.Lock()\n\tdefer db.writes.Unlock()|' \
      -e 's|^func (db \*DB) InTransaction(ctx context.Context, f func(\*Tx) error) (err error) {$|&\n\tdb.writes.Lock()\n\tdefer db.writes.Unlock()|' "$fsql"
    [ "$(grep -c 'db.writes.Lock()' "$fsql")" = 2 ] && grep -q 'writes sync.Mutex' "$fsql" || { log "FerretDB $version: the write methods to serialise were not found in $fsql"; exit 1; }
  fi
  (cd "$dir" && GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0 go build -trimpath -o "$TOOLS/bin/$name" "$pkg")
  rm -rf "$TOOLS/src/$name"
  echo "$built" > "$stamp"
}
go_tool ferretdb github.com/FerretDB/FerretDB "$FERRETDB_VERSION" ./cmd/ferretdb
go_tool minio github.com/minio/minio "$MINIO_VERSION" .

KC_HOME="$TOOLS/keycloak-$KEYCLOAK_VERSION"
if [ ! -x "$KC_HOME/bin/kc.sh" ]; then
  log "fetching Keycloak $KEYCLOAK_VERSION from Maven Central"
  mvn -q dependency:copy -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" \
    -DoutputDirectory="$TOOLS" -Dmdep.useBaseVersion=true
  rm -rf "$KC_HOME.tmp" && mkdir -p "$KC_HOME.tmp"
  unzip -q "$TOOLS/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip" -d "$KC_HOME.tmp"
  mv "$KC_HOME.tmp/keycloak-$KEYCLOAK_VERSION" "$KC_HOME" && rm -rf "$KC_HOME.tmp" "$TOOLS/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip"
fi
ln -sfn "$KC_HOME" "$TOOLS/keycloak"

# The trace viewer: Zipkin's server (UI and API in one jar), run by the stack with in-memory storage.
ZIPKIN_JAR="$TOOLS/zipkin/zipkin-server-$ZIPKIN_VERSION-exec.jar"
if [ ! -s "$ZIPKIN_JAR" ]; then
  log "fetching Zipkin $ZIPKIN_VERSION from Maven Central"
  mkdir -p "$TOOLS/zipkin"
  mvn -q dependency:copy -Dartifact="io.zipkin:zipkin-server:$ZIPKIN_VERSION:jar:exec" \
    -DoutputDirectory="$TOOLS/zipkin" -Dmdep.useBaseVersion=true
fi
ln -sfn "$ZIPKIN_JAR" "$TOOLS/zipkin.jar"
log "ready: $(ls "$TOOLS/bin" | tr '\n' ' ')keycloak-$KEYCLOAK_VERSION zipkin-$ZIPKIN_VERSION"
