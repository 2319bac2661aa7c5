#!/usr/bin/env bash
# Installs or updates a licensed product from the licence registry, registers this machine as a
# deployment node, loads the images and starts the node. Needs bash, curl and sha256sum; docker (with
# its compose plugin) or podman (with podman-compose) to load and start the images.
#
#   scripts/install-node.sh <registry-url> <licence-key> <target-dir>
#
# The registry URL must be https://, except on this machine (127.0.0.1, localhost, [::1]). The manifest is
# signed whole by the registry's Ed25519 key (x-manifest-signature: its services, images, commands, volumes,
# environment and artifact list), checked with the key given in REGISTRY_PUBLIC_KEY or pinned at the first
# install (.registry-public-key), when it is downloaded and again before an installed one is started: a
# manifest whose services were changed is refused. Artifacts are downloaded through the registry's
# presigned links only (a redirect anywhere else is refused), and each is checked for its size and SHA-256,
# and each loaded image for its image id, as the signed manifest names them.
#
# It says "Done" only once the node answers its readiness probe (READY_URL, default
# http://127.0.0.1:$BACKEND_PORT/readyz, BACKEND_PORT from the environment or .env, else 8000) within
# READY_TIMEOUT seconds (300), and prints the URL to open; otherwise it fails with the containers' log.
#
# In <target-dir> it leaves: docker-compose.yml (tailored to the licence: it holds the licence token,
# keep it private), artifacts/*.docker.tar.gz, .env (VENDOR_DEPLOYMENT_ID, VENDOR_MACHINE_FINGERPRINT and
# the secrets the compose file requires: generated once, at random, when you have not set them),
# .installed-version, .node-id and .deployment-key. Run it again to update: the node is restarted on the new
# images and keeps its data (the database volume). The node itself sends the heartbeats.
#
# This installation is identified by a fingerprint, the SHA-256 of /etc/machine-id, the product and the
# installation's own id (.node-id; not the host name): running the installer again in the same directory
# keeps its seat; another machine, or another directory on this one, takes another (SEAT=machine: every
# installation of the product on this machine shares one seat).
#
# Environment: CHANNEL (stable; rc, beta, alpha, dev), PRODUCT (default: the licence's product),
# NODE_HOSTNAME (default: this host's name, shown in the workspace), NODE_IP (default: its first address),
# MACHINE_ID (default: /etc/machine-id), CONTAINER_ENGINE (docker or podman; default: docker when its
# daemon answers, else podman), SKIP_DOCKER_LOAD=1 (download and verify only), NO_START=1 (load, do not start),
# READY_URL, READY_TIMEOUT, SEAT (node or machine).
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 <registry-url> <licence-key> <target-dir>" >&2
  exit 2
fi
REGISTRY="${1%/}"
LICENCE_KEY="$2"
TARGET="$3"
CHANNEL="${CHANNEL:-stable}"
umask 077

say() { printf '%s\n' "$*"; }
fail() {
  printf 'install-node: %s\n' "$*" >&2
  exit 1
}

[[ "$LICENCE_KEY" =~ ^[A-Za-z0-9]{3}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}-[A-Za-z0-9]{4}$ ]] || fail "the licence key must look like LIC-XXXX-XXXX-XXXX"

# https only, but on this machine: the licence key and the licence token travel in these requests
loopback() { [[ "$1" =~ ^http://(127\.[0-9]+\.[0-9]+\.[0-9]+|localhost|\[::1\])(:[0-9]+)?(/.*)?$ ]]; }
[[ "$REGISTRY" =~ ^https:// ]] || loopback "$REGISTRY" || fail "the registry URL must start with https:// (http:// only on this machine): $REGISTRY"
# no curl call below follows a redirect by itself, and none leaves https (or loopback http)
PROTO='=https,http'
[[ "$REGISTRY" =~ ^https:// ]] && PROTO='=https'
mkdir -p "$TARGET/artifacts"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/install-node.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# A string field of a flat JSON text ("name":"value"), or a literal (true, false, numbers).
json_string() { if [[ "$1" =~ \"$2\":\"([^\"]*)\" ]]; then printf '%s' "${BASH_REMATCH[1]}"; fi; }
json_literal() { if [[ "$1" =~ \"$2\":([-0-9.a-z]+) ]]; then printf '%s' "${BASH_REMATCH[1]}"; fi; }

# api METHOD PATH [JSON-BODY]: sets BODY (the answer) and fails with the registry's error code and message. A 503
# or 429 (the registry busy or its database away for a moment) is asked again after its Retry-After (at most 10 s),
# four times in all: what failed with those changed nothing, and registering a machine is idempotent.
api() {
  local method="$1" path="$2" data="${3:-}" status wait attempt
  local args=(-sS --proto "$PROTO" --max-redirs 0 -X "$method" -o "$WORK/body" -D "$WORK/headers" -w '%{http_code}' -H "x-license-key: $LICENCE_KEY" -H 'accept: application/json')
  if [ -n "$data" ]; then args+=(-H 'content-type: application/json' --data "$data"); fi
  for attempt in 1 2 3 4; do
    status="$(curl "${args[@]}" "$REGISTRY$path")" || fail "cannot reach $REGISTRY"
    { [ "$status" = 503 ] || [ "$status" = 429 ]; } && [ "$attempt" -lt 4 ] || break
    wait="$(sed -n 's/^[Rr]etry-[Aa]fter:[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$WORK/headers" | head -1)"
    wait="${wait:-2}"
    [ "$wait" -le 10 ] || wait=10
    say "the registry answered $status; asking again in ${wait} s"
    sleep "$wait"
  done
  BODY="$(<"$WORK/body")"
  if [ "$status" -ge 400 ]; then
    fail "$method $path: HTTP $status $(json_string "$BODY" code): $(json_string "$BODY" message)"
  fi
}

# x-artifacts of a manifest (what the installer reads of it): ids, names, sizes, sums, images, imageids
read_artifacts() {
  ids=() names=() sizes=() sums=() images=() imageids=()
  local section="" line
  while IFS= read -r line; do
    if [[ "$line" =~ ^[^[:space:]#] ]]; then section="${line%%:*}"; continue; fi
    [ "$section" = x-artifacts ] || continue
    if [[ "$line" =~ ^[[:space:]]*-[[:space:]]id:[[:space:]]*(.+)$ ]]; then ids+=("${BASH_REMATCH[1]}")
    elif [[ "$line" =~ ^[[:space:]]+filename:[[:space:]]*(.+)$ ]]; then names+=("${BASH_REMATCH[1]}")
    elif [[ "$line" =~ ^[[:space:]]+size:[[:space:]]*([0-9]+)$ ]]; then sizes+=("${BASH_REMATCH[1]}")
    elif [[ "$line" =~ ^[[:space:]]+sha256:[[:space:]]*([0-9a-f]{64})$ ]]; then sums+=("${BASH_REMATCH[1]}")
    elif [[ "$line" =~ ^[[:space:]]+image:[[:space:]]*([A-Za-z0-9][A-Za-z0-9._/:@-]*)$ ]]; then images[$((${#ids[@]} - 1))]="${BASH_REMATCH[1]}"
    elif [[ "$line" =~ ^[[:space:]]+imageId:[[:space:]]*(sha256:[0-9a-f]{64})$ ]]; then imageids[$((${#ids[@]} - 1))]="${BASH_REMATCH[1]}"
    fi
  done <"$1"
}

# The registry's Ed25519 key: the one given (REGISTRY_PUBLIC_KEY, one-line base64 SPKI), else the one
# pinned at the first install (.registry-public-key), else fetched now and pinned once the first
# manifest verifies with it. A later key that differs is refused.
KEY_FILE="$TARGET/.registry-public-key"
registry_key() {
  if [ -n "${REGISTRY_PUBLIC_KEY:-}" ]; then printf '%s' "$REGISTRY_PUBLIC_KEY"
  elif [ -s "$KEY_FILE" ]; then printf '%s' "$(<"$KEY_FILE")"
  else
    api GET /api/v1/license/public-key
    printf '%s' "$(json_string "$BODY" publicKey)"
  fi
}

# A manifest against the registry's signature of it (x-manifest-signature, the file's last key): every byte
# before that key is what the registry signed (the services, their images, commands, volumes and environment,
# and the artifact list); after it come only the signature's own lines. $2 names the file in messages.
verify_manifest() {
  local file="$1" what="$2" line signature="" after=0 signed="" key
  while IFS= read -r line || [ -n "$line" ]; do
    if [ "$after" = 0 ]; then
      if [ "$line" = "x-manifest-signature:" ]; then after=1; else signed+="$line"$'\n'; fi
    elif [[ "$line" =~ ^\ \ signature:\ ([A-Za-z0-9+/=]+)$ ]]; then signature="${BASH_REMATCH[1]}"
    elif ! [[ "$line" =~ ^\ \ (algorithm|keyId):\ [A-Za-z0-9_+/=-]+$ ]]; then
      fail "$what: something follows the registry's signature (\"$line\"): refusing it"
    fi
  done <"$file"
  [ -n "$signature" ] || fail "$what is not signed whole by the registry (no x-manifest-signature): refusing it"
  key="$(registry_key)"
  [[ "$key" =~ ^[A-Za-z0-9+/=]+$ ]] || fail "the registry's public key is not usable: $key"
  if [ -s "$KEY_FILE" ] && [ "$(<"$KEY_FILE")" != "$key" ]; then fail "the registry's key is not the one pinned at the first install ($KEY_FILE)"; fi
  printf '%s' "$signed" >"$WORK/manifest.signed"
  printf '%s' "$signature" | base64 -d >"$WORK/manifest.sig" 2>/dev/null || fail "$what: the signature is not base64"
  printf -- '-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----\n' "$key" >"$WORK/registry.pem"
  openssl pkeyutl -verify -pubin -inkey "$WORK/registry.pem" -rawin -in "$WORK/manifest.signed" -sigfile "$WORK/manifest.sig" >/dev/null 2>&1 ||
    fail "$what does not verify with the registry's key (its services or artifacts were changed, or another key signed it): refusing it"
  [ -s "$KEY_FILE" ] || { printf '%s\n' "$key" >"$KEY_FILE"; say "Pinned the registry's key in $KEY_FILE"; }
}

# --- the licence
api GET /api/v1/license
LICENCE="$BODY"
PRODUCT="${PRODUCT:-$(json_string "$LICENCE" product)}"
say "Licence $(json_string "$LICENCE" key) ($(json_string "$LICENCE" status)): $PRODUCT, plan $(json_string "$LICENCE" plan), maintenance until $(json_string "$LICENCE" maintenanceUntil)"

INSTALLED="" UPDATED=0
[ -f "$TARGET/.installed-version" ] && INSTALLED="$(<"$TARGET/.installed-version")"
VERSION="$INSTALLED"

# --- the update check
if :; then
  api GET "/api/v1/releases/check-update?product=$PRODUCT&channel=$CHANNEL&current_version=${INSTALLED:-0.0.0}"
  CHECK="$BODY"
  if [ "$(json_literal "$CHECK" updateAvailable)" = true ]; then
    VERSION="$(json_string "$CHECK" latestVersion)"
    MANIFEST_URL="$(json_string "$CHECK" downloadUrl)"
    if [ "$(json_literal "$CHECK" maintenanceCovered)" != true ]; then
      # the newest release the licence's maintenance still covers, if one is newer than what is installed
      [[ "$CHECK" =~ \"latestCovered\":\{\"version\":\"([^\"]*)\",\"releaseId\":\"[^\"]*\",\"downloadUrl\":\"([^\"]*)\" ]] ||
        fail "$VERSION was published after your maintenance ended; renew maintenance to install it"
      say "$VERSION is not covered by your maintenance; installing ${BASH_REMATCH[1]} instead"
      VERSION="${BASH_REMATCH[1]}"
      MANIFEST_URL="${BASH_REMATCH[2]}"
    fi
    say "Installing $PRODUCT $VERSION (${INSTALLED:-nothing installed yet}, channel $CHANNEL)"

    # --- the manifest, tailored to the licence
    [ "${MANIFEST_URL#"$REGISTRY"/}" != "$MANIFEST_URL" ] || fail "the manifest is not on $REGISTRY: $MANIFEST_URL"
    curl -fsS --proto "$PROTO" --max-redirs 0 -H "x-license-key: $LICENCE_KEY" -o "$WORK/manifest.yml" "$MANIFEST_URL" || fail "cannot fetch the manifest $MANIFEST_URL"

    # --- every artifact the manifest lists (x-artifacts): authorize, download through the redirect, verify
    verify_manifest "$WORK/manifest.yml" "the manifest"
    say "The manifest (its services and artifact list) is signed by the registry's key"
    read_artifacts "$WORK/manifest.yml"
    [ "${#ids[@]}" -gt 0 ] && [ "${#ids[@]}" = "${#names[@]}" ] && [ "${#ids[@]}" = "${#sizes[@]}" ] && [ "${#ids[@]}" = "${#sums[@]}" ] ||
      fail "the manifest lists no complete x-artifacts entries"

    for i in "${!ids[@]}"; do
      id="${ids[$i]}" name="${names[$i]}"
      [[ "$name" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || fail "unexpected artifact file name: $name"
      api POST "/api/v1/artifacts/$id/authorize"
      token="$(json_string "$BODY" token)"
      # the registry answers 302 to a presigned object link; that one redirect is followed by hand,
      # and only to such a link (signed, on https or on this machine); the link gets no credential
      location="$(curl -sS --proto "$PROTO" --max-redirs 0 -o /dev/null -w '%{http_code} %{redirect_url}' "$REGISTRY/api/v1/artifacts/$id/download?token=$token")" ||
        fail "download of $name failed"
      [[ "$location" =~ ^30[27]\ (.+)$ ]] || fail "download of $name: expected a redirect to the object store, got HTTP ${location%% *}"
      link="${BASH_REMATCH[1]}"
      [[ "$link" =~ ^https:// ]] || loopback "$link" || fail "download of $name: refusing a link that is not https: $link"
      [[ "$link" =~ [?\&](signature|X-Amz-Signature)= ]] || fail "download of $name: refusing a redirect to a link that is not a presigned object link: $link"
      got="$(curl -fsS --proto '=https,http' --max-redirs 0 -o "$WORK/$name" -w '%{size_download}' "$link")" || fail "download of $name failed"
      [ "$got" = "${sizes[$i]}" ] || fail "$name: received $got bytes, expected ${sizes[$i]}"
      read -r sum _ < <(sha256sum "$WORK/$name")
      [ "$sum" = "${sums[$i]}" ] || fail "$name: SHA-256 $sum does not match ${sums[$i]}"
      mv -f "$WORK/$name" "$TARGET/artifacts/$name"
      say "  $name: $got bytes, sha256 verified"
    done
    mv -f "$WORK/manifest.yml" "$TARGET/docker-compose.yml"
    UPDATED=1
  else
    [ -n "$INSTALLED" ] || fail "no release of $PRODUCT on channel $CHANNEL"
    say "$PRODUCT $INSTALLED is up to date (latest on $CHANNEL: $(json_string "$CHECK" latestVersion))"
    # what is started is what the registry signed (changes belong in .env)
    verify_manifest "$TARGET/docker-compose.yml" "$TARGET/docker-compose.yml"
  fi
fi
[ -n "$VERSION" ] || fail "nothing is installed in $TARGET yet"

# --- registration: this machine's fingerprint keeps its seat (the host name is only shown)
HOST="${NODE_HOSTNAME:-${HOSTNAME:-$(uname -n)}}"
ADDRESS="${NODE_IP:-}"
if [ -z "$ADDRESS" ]; then
  read -r ADDRESS _ < <(hostname -I 2>/dev/null || true) || true
fi
ADDRESS="${ADDRESS:-127.0.0.1}"
[[ "$HOST" =~ ^[A-Za-z0-9.-]+$ ]] || fail "host name \"$HOST\" is not usable; set NODE_HOSTNAME"
[[ "$ADDRESS" =~ ^[0-9A-Fa-f.:]+$ ]] || fail "address \"$ADDRESS\" is not usable; set NODE_IP"
MACHINE="${MACHINE_ID:-}"
for f in /etc/machine-id /var/lib/dbus/machine-id; do [ -n "$MACHINE" ] || { [ -s "$f" ] && read -r MACHINE <"$f"; } || true; done
[ -n "$MACHINE" ] || fail "this machine has no /etc/machine-id (systemd-machine-id-setup makes one); or set MACHINE_ID"
# two installations on one machine are two seats: each has its own id (.node-id, made at its first install),
# unless SEAT=machine (every installation of the product on this machine shares one seat); an installation
# made before .node-id existed keeps the seat it registered (VENDOR_MACHINE_FINGERPRINT in its .env)
FINGERPRINT=""
if [ "${SEAT:-node}" = machine ]; then
  read -r FINGERPRINT _ < <(printf '%s:%s' "$MACHINE" "$PRODUCT" | sha256sum)
elif [ ! -s "$TARGET/.node-id" ] && [ -f "$TARGET/.env" ]; then
  while IFS= read -r line; do [[ "$line" =~ ^VENDOR_MACHINE_FINGERPRINT=([0-9a-f]{64})$ ]] && FINGERPRINT="${BASH_REMATCH[1]}"; done <"$TARGET/.env"
fi
if [ -z "$FINGERPRINT" ]; then
  [ -s "$TARGET/.node-id" ] || { read -r id _ < <(head -c 32 /dev/urandom | sha256sum) && printf '%s\n' "${id:0:32}" >"$TARGET/.node-id"; }
  read -r NODE_ID <"$TARGET/.node-id"
  read -r FINGERPRINT _ < <(printf '%s:%s:%s' "$MACHINE" "$PRODUCT" "$NODE_ID" | sha256sum)
fi
api POST /api/v1/deployments/register "{\"hostname\":\"$HOST\",\"ipAddress\":\"$ADDRESS\",\"currentVersion\":\"$VERSION\",\"machineFingerprint\":\"$FINGERPRINT\"}"
DEPLOYMENT_KEY="$(json_string "$BODY" deploymentKey)"
printf '%s\n' "$DEPLOYMENT_KEY" >"$TARGET/.deployment-key"
say "Registered $HOST ($ADDRESS) as deployment $(json_string "$BODY" id), heartbeat every $(json_literal "$BODY" heartbeatIntervalSeconds) s (sent by the node)"
printf '%s\n' "$VERSION" >"$TARGET/.installed-version"

# --- .env: this node's deployment key and fingerprint, and the secrets the compose file requires
# (kept when you set them; otherwise generated here once, at random, and kept for every update)
env_file="$TARGET/.env"
[ -f "$env_file" ] || : >"$env_file"
required=""
while IFS= read -r line; do
  while [[ "$line" =~ \$\{([A-Z_][A-Z0-9_]*):\? ]]; do
    name="${BASH_REMATCH[1]}"
    line="${line/\$\{$name:\?/}"
    [[ " $required " == *" $name "* ]] || required+="$name "
  done
done <"$TARGET/docker-compose.yml"
generated=""
for name in $required; do
  set_line=""
  while IFS= read -r l; do [[ "$l" == "$name="?* ]] && set_line="$l"; done <"$env_file"
  if [ -z "$set_line" ]; then
    read -r secret _ < <(head -c 48 /dev/urandom | sha256sum)
    printf '%s=%s\n' "$name" "$secret" >>"$env_file"
    generated+="$name "
  fi
done
kept=""
while IFS= read -r line; do [[ "$line" == VENDOR_DEPLOYMENT_ID=* || "$line" == VENDOR_MACHINE_FINGERPRINT=* ]] || kept+="$line"$'\n'; done <"$env_file"
printf '%sVENDOR_DEPLOYMENT_ID=%s\nVENDOR_MACHINE_FINGERPRINT=%s\n' "$kept" "$DEPLOYMENT_KEY" "$FINGERPRINT" >"$env_file"
[ -z "$generated" ] || say "Generated in $env_file (keep it with your backups): ${generated% }"

# --- the images: loaded, and each checked against the image id the manifest lists
ENGINE="${CONTAINER_ENGINE:-}"
if [ -z "$ENGINE" ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then ENGINE=docker
  elif command -v podman >/dev/null 2>&1; then ENGINE=podman
  fi
fi
if [ "${SKIP_DOCKER_LOAD:-0}" = 1 ] || [ -z "$ENGINE" ]; then
  say "Load the images where Docker runs:  for f in $TARGET/artifacts/*-$VERSION.docker.tar.gz; do docker load -i \"\$f\"; done"
  say "Then: cd $TARGET && docker compose up -d"
  say "Downloaded and verified: $PRODUCT $VERSION in $TARGET, not started (no docker or podman here, or SKIP_DOCKER_LOAD=1)."
  exit 0
fi
read_artifacts "$TARGET/docker-compose.yml"
for i in "${!ids[@]}"; do
  name="${names[$i]}" image="${images[$i]:-}" want="${imageids[$i]:-}"
  [[ "$name" == *.docker.tar* ]] || continue
  have=""
  if [ -n "$image" ]; then have="$("$ENGINE" image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)"; fi
  [ -z "$have" ] || [[ "$have" == sha256:* ]] || have="sha256:$have"
  if [ -z "$want" ] || [ "$have" != "$want" ]; then
    file="$TARGET/artifacts/$name"
    [ -f "$file" ] || fail "$name is missing from $TARGET/artifacts: run the installer again"
    if [ "$ENGINE" = podman ] && [[ "$name" == *.gz ]]; then
      # podman 4 cannot read a gzipped archive
      gunzip -c "$file" >"$WORK/image.tar" && podman load -q -i "$WORK/image.tar" >/dev/null && rm -f "$WORK/image.tar" || fail "podman could not load $name"
    else
      "$ENGINE" load -q -i "$file" >/dev/null || fail "$ENGINE could not load $name"
    fi
    have="$("$ENGINE" image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)"
    [ -z "$have" ] || [[ "$have" == sha256:* ]] || have="sha256:$have"
  fi
  [ -z "$want" ] || [ "$have" = "$want" ] || fail "$image: the loaded image is $have, the manifest lists $want"
  say "  $image: loaded (${have:-no image id listed})"
done

# --- start (again, on the new images when this run updated; the database volume stays)
if [ "$ENGINE" = docker ]; then COMPOSE=(docker compose); else COMPOSE=(podman-compose); fi
PROJECT="$(basename "$(cd "$TARGET" && pwd)")"
if [ "${NO_START:-0}" = 1 ]; then
  say "Then: cd $TARGET && ${COMPOSE[*]} up -d"
  say "Loaded: $PRODUCT $VERSION in $TARGET, not started (NO_START=1)."
  exit 0
fi
# after an update every container is made anew from the new images (podman-compose 1.0 would start
# the old ones again); the volumes, and so the data, stay
up=(up -d)
[ "$UPDATED" = 1 ] && up+=(--force-recreate)
(cd "$TARGET" && "${COMPOSE[@]}" -p "$PROJECT" "${up[@]}" >"$WORK/compose.log" 2>&1) || { cat "$WORK/compose.log" >&2; fail "${COMPOSE[*]} up failed"; }
say "Started with ${COMPOSE[*]} in $TARGET (project $PROJECT)"

# --- done only once the node answers its readiness probe: READY_URL, else /readyz on this machine's
# BACKEND_PORT (the environment, else .env, else 8000); at most READY_TIMEOUT seconds (300), else its log
READY="${READY_URL:-}"
if [ -z "$READY" ]; then
  port="${BACKEND_PORT:-}"
  if [ -z "$port" ]; then while IFS= read -r line; do [[ "$line" =~ ^BACKEND_PORT=([0-9]+)$ ]] && port="${BASH_REMATCH[1]}"; done <"$env_file"; fi
  READY="http://127.0.0.1:${port:-8000}/readyz"
fi
timeout="${READY_TIMEOUT:-300}"
[[ "$timeout" =~ ^[0-9]+$ ]] || fail "READY_TIMEOUT must be a number of seconds: $timeout"
say "Waiting for the node to be ready ($READY, at most $timeout s)"
deadline=$((SECONDS + timeout))
while :; do
  status="$(curl -s --proto '=https,http' --max-redirs 0 --max-time 5 -o /dev/null -w '%{http_code}' "$READY" 2>/dev/null || true)"
  [ "$status" = 200 ] && break
  if [ "$SECONDS" -ge "$deadline" ]; then
    say "The node's log (the last 100 lines of each container):" >&2
    (cd "$TARGET" && "${COMPOSE[@]}" -p "$PROJECT" logs --tail 100) >&2 2>&1 || true
    fail "the node did not become ready within $timeout s ($READY last answered HTTP ${status:-000}); its log is above"
  fi
  sleep 2
done
BASE="${READY%/readyz}"
say "Done: $PRODUCT $VERSION installed in $TARGET and ready. Open $BASE/admin/ (the console) and $BASE/app/ (the web client)."
