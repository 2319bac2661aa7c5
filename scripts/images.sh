#!/usr/bin/env bash
# `npm run images`: builds the project's images from the Dockerfile with docker (when its daemon
# answers) or podman, tagged from package.json's version (the same version always gives the same tags):
#
#   localhost/matchday-supergraph:<version>      every service of docker-compose.yml (target app)
#   localhost/finance-node/backend:<version>     the finance node alone (target finance-backend)
#   localhost/finance-node/frontend:<version>    the finance web client (target finance-frontend)
#
# The base: NODE_IMAGE when set; else node:24-bookworm-slim when the engine has it or can pull it;
# else the offline base of scripts/container-base.sh (built once per machine, kept outside the clone).
# Prints the images and their sizes; the last lines are shell assignments (IMAGE_APP=… etc.).
# The finance node's images carry the public key of the licence registry that ships them (build argument
# VENDOR_PUBLIC_KEY, written to vendor-keys.pem): VENDOR_PUBLIC_KEY when set; else the key the registry at
# VENDOR_REGISTRY_URL (default: this machine's, http://127.0.0.1:${REGISTRY_PORT:-8090}) answers at
# /api/v1/license/public-key; else none, said loudly (such a node in production trusts only the
# VENDOR_PUBLIC_KEY of its environment).
# Environment: CONTAINER_ENGINE (docker|podman), NODE_IMAGE, TARGETS (default "app finance-backend finance-frontend"),
# VENDOR_PUBLIC_KEY, VENDOR_REGISTRY_URL.
set -euo pipefail
cd "$(dirname "$0")/.."

ENGINE="${CONTAINER_ENGINE:-}"
if [ -z "$ENGINE" ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then ENGINE=docker; else ENGINE=podman; fi
fi
command -v "$ENGINE" >/dev/null 2>&1 || { echo "images: neither docker nor podman is installed" >&2; exit 1; }
export CONTAINER_ENGINE="$ENGINE"
VERSION="$(node -p "require('./package.json').version")"
TARGETS="${TARGETS:-app finance-backend finance-frontend}"
log() { printf 'images: %s\n' "$*" >&2; }

default_base="$(sed -n 's/^ARG NODE_IMAGE=\(.*\)$/\1/p' Dockerfile | head -1)"
offline_base="localhost/matchday/node:$(printf '%s' "$default_base" | sed -n 's/^node:\([0-9]*\).*/\1/p')-bookworm"
if [ -z "${NODE_IMAGE:-}" ]; then
  if "$ENGINE" image inspect "$default_base" >/dev/null 2>&1; then
    NODE_IMAGE="$default_base"
  elif "$ENGINE" image inspect "$offline_base" >/dev/null 2>&1 || ! timeout 30 "$ENGINE" pull -q "docker.io/library/$default_base" >/dev/null 2>&1; then
    log "using the offline base (scripts/container-base.sh): $default_base is not here and cannot be pulled"
    eval "$(bash scripts/container-base.sh)"
  else
    NODE_IMAGE="$default_base"
  fi
fi

args=(--build-arg "NODE_IMAGE=$NODE_IMAGE")
if [ -z "${VENDOR_PUBLIC_KEY:-}" ]; then
  registry_url="${VENDOR_REGISTRY_URL:-http://127.0.0.1:${REGISTRY_PORT:-8090}}"
  answer="$(curl -fsS --max-time 5 --max-redirs 0 "${registry_url%/}/api/v1/license/public-key" 2>/dev/null || true)"
  if [[ "$answer" =~ \"publicKey\":\"([A-Za-z0-9+/=]+)\" ]]; then
    VENDOR_PUBLIC_KEY="${BASH_REMATCH[1]}"
    log "the images carry the public key of the registry at $registry_url"
  fi
fi
if [ -n "${VENDOR_PUBLIC_KEY:-}" ]; then
  args+=(--build-arg "VENDOR_PUBLIC_KEY=$VENDOR_PUBLIC_KEY")
else
  log "WARNING: no registry key (VENDOR_PUBLIC_KEY unset, no registry answers at ${VENDOR_REGISTRY_URL:-http://127.0.0.1:${REGISTRY_PORT:-8090}}):"
  log "         the images carry no vendor key; in production such a node trusts only the VENDOR_PUBLIC_KEY of its environment"
fi
# npm inside the build reaches the registry through this machine's CA bundle
if [ -f /etc/ssl/certs/ca-certificates.crt ] && [ "$ENGINE" = podman ]; then
  args+=(-v /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro --build-arg NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt)
fi

declare -A names=([app]="localhost/matchday-supergraph" [finance-backend]="localhost/finance-node/backend" [finance-frontend]="localhost/finance-node/frontend")
started=$(date +%s)
for target in $TARGETS; do
  name="${names[$target]:-}"
  [ -n "$name" ] || { log "unknown target $target"; exit 2; }
  log "building $name:$VERSION ($target, base $NODE_IMAGE, $ENGINE)"
  "$ENGINE" build "${args[@]}" --target "$target" --label "org.opencontainers.image.version=$VERSION" -t "$name:$VERSION" . >&2
done
log "built in $(($(date +%s) - started)) s"

for target in $TARGETS; do
  name="${names[$target]}"
  size="$("$ENGINE" image inspect --format '{{.Size}}' "$name:$VERSION")"
  printf '%-45s %6d MB\n' "$name:$VERSION" $((size / 1000000)) >&2
done
for target in $TARGETS; do
  var="IMAGE_$(printf '%s' "$target" | tr 'a-z-' 'A-Z_')"
  printf '%s=%s\n' "$var" "${names[$target]}:$VERSION"
done
[ -z "${POSTGRES_IMAGE:-}" ] || printf 'POSTGRES_IMAGE=%s\n' "$POSTGRES_IMAGE"
