#!/usr/bin/env bash
# The official postgres image's contract, on Debian's PostgreSQL: an empty PGDATA is initialised
# with POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB and the /docker-entrypoint-initdb.d scripts,
# then `postgres` runs in the foreground as the postgres user.
# One addition: with POSTGRES_PRIMARY_HOST set, an empty PGDATA is cloned from that primary with
# pg_basebackup (user POSTGRES_REPLICATION_USER) and the server runs as its streaming hot standby.
set -euo pipefail

if [ "$(id -u)" = 0 ]; then
  mkdir -p "$PGDATA" /var/run/postgresql
  chown -R postgres:postgres "$PGDATA" /var/run/postgresql
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$0" "$@"
fi

export POSTGRES_USER="${POSTGRES_USER:-postgres}"
export POSTGRES_DB="${POSTGRES_DB:-$POSTGRES_USER}"

if [ ! -s "$PGDATA/PG_VERSION" ] && [ -n "${POSTGRES_PRIMARY_HOST:-}" ]; then
  export PGPASSWORD="${POSTGRES_REPLICATION_PASSWORD:?POSTGRES_REPLICATION_PASSWORD is required for a standby}"
  until pg_isready -q -h "$POSTGRES_PRIMARY_HOST" -U "${POSTGRES_REPLICATION_USER:-replicator}"; do sleep 1; done
  # The primary may still be running its init scripts: retry until the replication role exists.
  until pg_basebackup -h "$POSTGRES_PRIMARY_HOST" -U "${POSTGRES_REPLICATION_USER:-replicator}" \
    -D "$PGDATA" -R -X stream -c fast; do
    rm -rf "${PGDATA:?}"/*
    sleep 2
  done
  unset PGPASSWORD
  chmod 700 "$PGDATA"
elif [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}"
  pwfile="$(mktemp)"
  printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    -D "$PGDATA" >/dev/null
  rm -f "$pwfile"
  {
    echo "listen_addresses = '*'"
  } >>"$PGDATA/postgresql.conf"
  {
    echo "host all all all scram-sha-256"
    echo "host replication all all scram-sha-256"
  } >>"$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -c unix_socket_directories=/var/run/postgresql" -w start >/dev/null
  if [ "$POSTGRES_DB" != postgres ]; then
    psql -v ON_ERROR_STOP=1 -h /var/run/postgresql -U "$POSTGRES_USER" -d postgres -q \
      -c "CREATE DATABASE \"$POSTGRES_DB\""
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "initdb: running $f"; . "$f" ;;
      *.sql) echo "initdb: running $f"; psql -v ON_ERROR_STOP=1 -h /var/run/postgresql -U "$POSTGRES_USER" -d "$POSTGRES_DB" -q -f "$f" ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi

if [ "${1:-}" = postgres ]; then
  shift
  exec postgres -D "$PGDATA" -c unix_socket_directories=/var/run/postgresql "$@"
fi
exec "$@"
