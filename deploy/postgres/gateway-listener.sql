-- The gateway's own database role: it may log in and LISTEN for the data changes that evict its response
-- cache (channel data_changed), nothing else. It is granted nothing: it sees no schema of the
-- application (each is owned by the application's role, with no grant to PUBLIC), so it reads and
-- writes no table and calls no function. psql variables: role, password.
--
--   psql "$OWNER_DATABASE_URL" -v role=matchday_gateway -v password="$GATEWAY_DB_PASSWORD" -f deploy/postgres/gateway-listener.sql
CREATE ROLE :"role" LOGIN PASSWORD :'password' NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOINHERIT CONNECTION LIMIT 64;
