# shellcheck shell=bash
# The run's own PostgreSQL (SCENARIO=db).
# Sourced by infra/host/loadlab-host, which defines die, pid_of, app and java_bin, and:
: "${state:?}"  # loadlab-host's, set before it sources this file

pg_bin() {
  local d
  d=$(printf '%s\n' /usr/lib/postgresql/*/bin | sort -V | tail -1)  # the pattern itself when none: no postgres in it
  [ -n "$d" ] && [ -x "$d/postgres" ] || d=$(dirname "$(command -v postgres 2>/dev/null)" 2>/dev/null) || true
  [ -n "$d" ] && [ -x "$d/postgres" ] || die "PostgreSQL's server is not installed (infra/host/install-postgresql)"
  echo "$d"
}
# PostgreSQL refuses to run as root: as root, its files and processes belong to the postgres system user.
pg_as() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# pg_scratch: the folder of this host's cluster. Not in the state folder: as root PostgreSQL runs as the postgres
# user, which cannot enter a clone under a folder only root may enter (`mktemp -d` makes mode 700, so is root's
# home) — initdb then fails with "Permission denied" and the run measures nothing. /tmp is open to every user; the
# name follows the state folder, so two hosts of one machine never share a cluster and a run killed before its
# `stop` leaves one folder at most, which the next start replaces.
pg_scratch() { echo "/tmp/loadlab-pg-$(basename "$state")-$(cd "$state" && pwd -P | md5sum | cut -c1-12)"; }

# scratch_cleanup NAME: removes the folder NAME was given to work in (NAME.scratch), once NAME is stopped.
scratch_cleanup() {
  local dir
  dir=$(cat "$state/$1.scratch" 2>/dev/null) || return 0
  rm -rf "$dir" && rm -f "$state/$1.scratch"
}

# postgres NAME LOG ADDRESS PORT MAX_CONNECTIONS: a fresh, throw-away cluster in its own folder (pg_scratch, removed
# by `stop`), listening on ADDRESS:PORT only (no unix socket), superuser `loadlab` trusted from this host's subnet.
# It runs in the foreground under `start`, so `stop`/`stop-all` end it like any other process (SIGINT: a fast
# shutdown that does not wait for the thread-service's pool to hang up).
cmd_postgres() {
  local name=$1 log=$2 address=$3 port=$4 max=$5 bin scratch data
  bin=$(pg_bin)
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || die "no postgres system user to run PostgreSQL as (install Debian's postgresql)"
  fi
  scratch=$(pg_scratch); data=$scratch/data
  # A left-over of a run that died is replaced; `mkdir` without -p: a folder that reappears is not ours to use.
  { rm -rf "$scratch" && mkdir -m 700 "$scratch"; } || die "cannot make PostgreSQL's folder $scratch"
  echo "$scratch" > "$state/$name.scratch"
  [ "$(id -u)" -ne 0 ] || chown postgres: "$scratch"
  mkdir -p "$(dirname "$log")"
  if ! pg_as "$bin/initdb" -D "$data" -A trust -U loadlab --no-sync -E UTF8 >"${log%.log}-initdb.log" 2>&1; then
    scratch_cleanup "$name"
    die "initdb failed (see ${log%.log}-initdb.log)"
  fi
  echo "host all loadlab samenet trust" | pg_as tee -a "$data/pg_hba.conf" >/dev/null
  local as=()
  [ "$(id -u)" -ne 0 ] || as=(runuser -u postgres --)
  echo INT > "$state/$name.stopsig"
  cmd_start "$name" "$log" -- "${as[@]}" "$bin/postgres" -D "$data" -p "$port" -k "" \
    -c listen_addresses="$address" -c max_connections="$max" -c fsync=off -c synchronous_commit=off \
    -c full_page_writes=off >/dev/null
}

# wait-postgres ADDRESS PORT TIMEOUT_S [NAME]: until the server accepts connections (pg_isready over TCP), then
# makes sure the database `loadlab` exists.
cmd_wait_postgres() {
  local address=$1 port=$2 timeout=$3 name=${4:-} bin i
  bin=$(pg_bin)
  for ((i = 0; i < timeout * 5; i++)); do
    if "$bin/pg_isready" -q -h "$address" -p "$port" -U loadlab -d postgres -t 2; then
      # initdb makes only `postgres`; the thread-service's pool connects to `loadlab` (a fresh cluster: create it).
      "$bin/createdb" -h "$address" -p "$port" -U loadlab loadlab 2>/dev/null \
        || "$bin/psql" -h "$address" -p "$port" -U loadlab -d loadlab -Atc 'select 1' >/dev/null \
        || die "cannot create the database loadlab on $address:$port"
      return 0
    fi
    if [ -n "$name" ] && ! alive "$name"; then die "$name exited before it accepted connections (see its log)"; fi
    sleep 0.2
  done
  die "PostgreSQL on $address:$port did not accept connections within ${timeout}s"
}
