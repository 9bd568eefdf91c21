#!/bin/sh
# First start: create the cluster, the user and the database; every start: run Postgres in the foreground.
set -eu
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  password_file=$(mktemp)
  printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" > "$password_file"
  "$bin/initdb" --username="${POSTGRES_USER:-postgres}" --pwfile="$password_file" --auth-local=trust --auth-host=scram-sha-256 -D "$PGDATA" >/dev/null
  rm -f "$password_file"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  "$bin/pg_ctl" -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  # The database named POSTGRES_DB, by default the user's name (initdb makes only `postgres`).
  database=${POSTGRES_DB:-${POSTGRES_USER:-postgres}}
  if [ "$database" != postgres ]; then
    "$bin/createdb" --username="${POSTGRES_USER:-postgres}" "$database"
  fi
  "$bin/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*'
