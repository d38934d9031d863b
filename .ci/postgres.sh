# Sourced by .ci/run: a PostgreSQL 15 server with pgvector for the tests that need one, started on a free
# port of 127.0.0.1 in a folder of its own and stopped when the run ends (stop_postgres, from a trap).
# Debian 12 has postgresql-15 but no pgvector package for it; Debian 13's pgvector source package builds
# against it. Its source is fetched through a private sources list, so the system's apt configuration is
# untouched. The server refuses to run as root: it runs as the postgres user, whose every parent folder
# of the data folder must be traversable.

PG_BIN=/usr/lib/postgresql/15/bin
PG_FOLDER=""

install_postgres() {
  local packages=()
  [ -x "$PG_BIN/postgres" ] || packages+=(postgresql-15)
  # (pg_config and pgxs.mk come with the client package; the server headers extensions build against come
  # with the dev one only, so they are what is checked.)
  [ -f /usr/include/postgresql/15/server/postgres.h ] || packages+=(postgresql-server-dev-15)
  command -v make >/dev/null || packages+=(make)
  command -v gcc >/dev/null || packages+=(gcc)
  if [ ${#packages[@]} -gt 0 ]; then
    apt-get update -qq || { echo "apt-get update failed: cannot install ${packages[*]}" >&2; return 1; }
    apt-get install -y -qq --no-install-recommends "${packages[@]}" || return 1
  fi
  [ -f /usr/share/postgresql/15/extension/vector.control ] || build_pgvector
}

build_pgvector() {
  local work
  work=$(mktemp -d)
  mkdir -p "$work/lists/partial" "$work/archives/partial" "$work/source"
  echo 'deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main' >"$work/sources.list"
  local private=(-o "APT::Sandbox::User=root" -o "Dir::Etc::SourceList=$work/sources.list" -o "Dir::Etc::SourceParts=/dev/null" -o "Dir::State::Lists=$work/lists" -o "Dir::Cache::Archives=$work/archives")
  apt-get "${private[@]}" update -qq || { echo "could not read Debian trixie's source index for pgvector" >&2; return 1; }
  (cd "$work/source" && apt-get "${private[@]}" source --download-only -qq pgvector) || { echo "could not fetch pgvector's source package" >&2; return 1; }
  tar -xzf "$work"/source/pgvector_*.orig.tar.gz -C "$work/source" || return 1
  echo "building $(basename "$work"/source/pgvector-*/) against PostgreSQL 15"
  (cd "$work"/source/pgvector-*/ && make -s OPTFLAGS="" PG_CONFIG="$PG_BIN/pg_config" && make -s OPTFLAGS="" PG_CONFIG="$PG_BIN/pg_config" install) || return 1
  rm -rf "$work"
}

# Call with `trap stop_postgres EXIT` already set: a start that fails half way is cleaned up too.
start_postgres() {
  PG_FOLDER=$(mktemp -d /tmp/strata-ci-postgres.XXXXXX)
  chmod 755 "$PG_FOLDER"
  chown postgres "$PG_FOLDER"
  runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_FOLDER/data" -A trust -U postgres >"$PG_FOLDER/initdb.log" || { cat "$PG_FOLDER/initdb.log" >&2; return 1; }
  local port
  port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close();})")
  if ! runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_FOLDER/data" -l "$PG_FOLDER/server.log" -w \
    -o "-p $port -k $PG_FOLDER -c listen_addresses=127.0.0.1" start >/dev/null; then
    cat "$PG_FOLDER/server.log" >&2
    return 1
  fi
  "$PG_BIN/psql" -q -h 127.0.0.1 -p "$port" -U postgres -c 'CREATE DATABASE strata_test' >/dev/null || return 1
  export DATABASE_URL="postgres://postgres@127.0.0.1:$port/strata_test"
  echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') with pgvector at $DATABASE_URL"
}

stop_postgres() {
  [ -n "$PG_FOLDER" ] || return 0
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_FOLDER/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$PG_FOLDER"
  PG_FOLDER=""
}
