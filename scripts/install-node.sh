#!/usr/bin/env bash
# Installs or updates a licensed product from the licence registry, registers this machine as a
# deployment node, loads the images and starts the node. Needs bash, curl and sha256sum; docker (with
# its compose plugin) or podman (with podman-compose) to load and start the images.
#
#   scripts/install-node.sh <registry-url> <licence-key> <target-dir>
#
# The registry URL must be https://, except on this machine (127.0.0.1, localhost, [::1]). The manifest's
# artifact list must carry the registry's Ed25519 signature, checked with the key given in REGISTRY_PUBLIC_KEY or
# pinned at the first install (.registry-public-key). Artifacts are downloaded through the registry's
# presigned links only (a redirect anywhere else is refused), and each is checked for its size and SHA-256,
# and each loaded image for its image id, as the signed list names them.
#
# In <target-dir> it leaves: docker-compose.yml (tailored to the licence: it holds the licence token,
# keep it private), artifacts/*.docker.tar.gz, .env (VENDOR_DEPLOYMENT_ID, VENDOR_MACHINE_FINGERPRINT and
# the secrets the compose file requires: generated once, at random, when you have not set them),
# .installed-version and .deployment-key. Run it again to update: the node is restarted on the new
# images and keeps its data (the database volume). The node itself sends the heartbeats.
#
# This machine is identified by a fingerprint, the SHA-256 of /etc/machine-id and the product (not its
# host name): registering again from the same machine keeps its seat; another machine takes another.
#
# Environment: CHANNEL (stable; rc, beta, alpha, dev), PRODUCT (default: the licence's product),
# NODE_HOSTNAME (default: this host's name, shown in the workspace), NODE_IP (default: its first address),
# MACHINE_ID (default: /etc/machine-id), CONTAINER_ENGINE (docker or podman; default: docker when its
# daemon answers, else podman), SKIP_DOCKER_LOAD=1 (download and verify only), NO_START=1 (load, do not start).
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

# The artifact list of a manifest (x-artifacts, as read_artifacts read it) against the registry's
# signature of it (x-artifacts-signature): one line per artifact, `<id> <filename> <size> <sha256> <image> <imageId or ->`.
verify_artifact_list() {
  local signature="" line section="" i key
  while IFS= read -r line; do
    if [[ "$line" =~ ^[^[:space:]#] ]]; then section="${line%%:*}"; continue; fi
    [ "$section" = x-artifacts-signature ] || continue
    if [[ "$line" =~ ^[[:space:]]+signature:[[:space:]]*([A-Za-z0-9+/=]+)$ ]]; then signature="${BASH_REMATCH[1]}"; fi
  done <"$1"
  [ -n "$signature" ] || fail "the manifest's artifact list is not signed by the registry"
  key="$(registry_key)"
  [[ "$key" =~ ^[A-Za-z0-9+/=]+$ ]] || fail "the registry's public key is not usable: $key"
  if [ -s "$KEY_FILE" ] && [ "$(<"$KEY_FILE")" != "$key" ]; then fail "the registry's key is not the one pinned at the first install ($KEY_FILE)"; fi
  : >"$WORK/artifacts.txt"
  for i in "${!ids[@]}"; do
    printf '%s %s %s %s %s %s\n' "${ids[$i]}" "${names[$i]}" "${sizes[$i]}" "${sums[$i]}" "${images[$i]:-}" "${imageids[$i]:--}" >>"$WORK/artifacts.txt"
  done
  printf '%s' "$signature" | base64 -d >"$WORK/artifacts.sig" 2>/dev/null || fail "the artifact list's signature is not base64"
  printf -- '-----BEGIN PUBLIC KEY-----\n%s\n-----END PUBLIC KEY-----\n' "$key" >"$WORK/registry.pem"
  openssl pkeyutl -verify -pubin -inkey "$WORK/registry.pem" -rawin -in "$WORK/artifacts.txt" -sigfile "$WORK/artifacts.sig" >/dev/null 2>&1 ||
    fail "the manifest's artifact list does not verify with the registry's key: refusing to install it"
  [ -s "$KEY_FILE" ] || { printf '%s\n' "$key" >"$KEY_FILE"; say "Pinned the registry's key in $KEY_FILE"; }
  say "The artifact list is signed by the registry's key"
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
    read_artifacts "$WORK/manifest.yml"
    verify_artifact_list "$WORK/manifest.yml"
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
read -r FINGERPRINT _ < <(printf '%s:%s' "$MACHINE" "$PRODUCT" | sha256sum)
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
  say "Done: $PRODUCT $VERSION installed in $TARGET."
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
if [ "${NO_START:-0}" = 1 ]; then
  say "Then: cd $TARGET && ${COMPOSE[*]} up -d"
else
  # after an update every container is made anew from the new images (podman-compose 1.0 would start
  # the old ones again); the volumes, and so the data, stay
  up=(up -d)
  [ "$UPDATED" = 1 ] && up+=(--force-recreate)
  (cd "$TARGET" && "${COMPOSE[@]}" -p "$(basename "$(cd "$TARGET" && pwd)")" "${up[@]}" >"$WORK/compose.log" 2>&1) || { cat "$WORK/compose.log" >&2; fail "${COMPOSE[*]} up failed"; }
  say "Started with ${COMPOSE[*]} in $TARGET (project $(basename "$(cd "$TARGET" && pwd)"))"
fi
say "Done: $PRODUCT $VERSION installed in $TARGET."
