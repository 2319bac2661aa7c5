#!/bin/sh
# Run once by the postgres image when it creates its data volume (docker-compose.yml mounts this file
# into /docker-entrypoint-initdb.d/): the gateway's listen-only role (gateway-listener.sql). For a
# volume created before this file existed, run the same command once by hand:
#   docker compose exec postgres sh /docker-entrypoint-initdb.d/10-gateway-listener.sh
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v role=matchday_gateway -v password="$GATEWAY_DB_PASSWORD" -f /etc/matchday/gateway-listener.sql
