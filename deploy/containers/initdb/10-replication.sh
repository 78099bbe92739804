# Sourced by the postgres image's entrypoint on the primary's first start: the role the hot
# standby clones and streams with (pg_basebackup), with the password both are given.
psql -v ON_ERROR_STOP=1 -h /var/run/postgresql -U "$POSTGRES_USER" -d postgres -q \
  -v password="${POSTGRES_REPLICATION_PASSWORD:?POSTGRES_REPLICATION_PASSWORD is required}" <<'SQL'
create role replicator with replication login password :'password';
SQL
