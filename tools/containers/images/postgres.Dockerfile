# PostgreSQL 15 from Debian with the official image's environment contract: POSTGRES_PASSWORD,
# POSTGRES_USER, POSTGRES_DB, PGDATA, /docker-entrypoint-initdb.d, `postgres` as the command.
FROM fleetgraph/base-debian
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/run/postgresql /var/lib/postgresql/data /docker-entrypoint-initdb.d \
 && chown -R postgres:postgres /var/run/postgresql /var/lib/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
