#!/usr/bin/env bash
# Installs or updates a licensed product from the licence registry, then registers this host as a
# deployment node and sends a heartbeat. Needs bash, curl and sha256sum (docker only to load images).
#
#   scripts/install-node.sh <registry-url> <licence-key> <target-dir>
#
# In <target-dir> it leaves: docker-compose.yml (tailored to the licence: it holds the licence token,
# keep it private), artifacts/*.docker.tar.gz (size and SHA-256 verified), .env (VENDOR_DEPLOYMENT_ID,
# plus the secrets you must set), .installed-version and .deployment-key. Run it again to update;
# with HEARTBEAT_ONLY=1 it only sends the heartbeat (cron: every six hours).
#
# Environment: CHANNEL (stable; rc, beta, alpha, dev), PRODUCT (default: the licence's product),
# NODE_HOSTNAME (default: this host's name), NODE_IP (default: its first address), SKIP_DOCKER_LOAD=1.
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
mkdir -p "$TARGET/artifacts"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/install-node.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# A string field of a flat JSON text ("name":"value"), or a literal (true, false, numbers).
json_string() { if [[ "$1" =~ \"$2\":\"([^\"]*)\" ]]; then printf '%s' "${BASH_REMATCH[1]}"; fi; }
json_literal() { if [[ "$1" =~ \"$2\":([-0-9.a-z]+) ]]; then printf '%s' "${BASH_REMATCH[1]}"; fi; }

# api METHOD PATH [JSON-BODY]: sets BODY (the answer) and fails with the registry's error code and message.
api() {
  local method="$1" path="$2" data="${3:-}" status
  local args=(-sS -X "$method" -o "$WORK/body" -w '%{http_code}' -H "x-license-key: $LICENCE_KEY" -H 'accept: application/json')
  if [ -n "$data" ]; then args+=(-H 'content-type: application/json' --data "$data"); fi
  status="$(curl "${args[@]}" "$REGISTRY$path")" || fail "cannot reach $REGISTRY"
  BODY="$(<"$WORK/body")"
  if [ "$status" -ge 400 ]; then
    fail "$method $path: HTTP $status $(json_string "$BODY" code): $(json_string "$BODY" message)"
  fi
}

# --- the licence
api GET /api/v1/license
LICENCE="$BODY"
PRODUCT="${PRODUCT:-$(json_string "$LICENCE" product)}"
say "Licence $(json_string "$LICENCE" key) ($(json_string "$LICENCE" status)): $PRODUCT, plan $(json_string "$LICENCE" plan), maintenance until $(json_string "$LICENCE" maintenanceUntil)"

INSTALLED=""
[ -f "$TARGET/.installed-version" ] && INSTALLED="$(<"$TARGET/.installed-version")"
VERSION="$INSTALLED"

if [ "${HEARTBEAT_ONLY:-0}" != 1 ]; then
  # --- the update check
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
    curl -fsS -H "x-license-key: $LICENCE_KEY" -o "$WORK/manifest.yml" "$MANIFEST_URL" || fail "cannot fetch the manifest $MANIFEST_URL"

    # --- every artifact the manifest lists (x-artifacts): authorize, download through the redirect, verify
    ids=() names=() sizes=() sums=()
    section=""
    while IFS= read -r line; do
      if [[ "$line" =~ ^[^[:space:]#] ]]; then section="${line%%:*}"; continue; fi
      [ "$section" = x-artifacts ] || continue
      if [[ "$line" =~ ^[[:space:]]*-[[:space:]]id:[[:space:]]*(.+)$ ]]; then ids+=("${BASH_REMATCH[1]}")
      elif [[ "$line" =~ ^[[:space:]]+filename:[[:space:]]*(.+)$ ]]; then names+=("${BASH_REMATCH[1]}")
      elif [[ "$line" =~ ^[[:space:]]+size:[[:space:]]*([0-9]+)$ ]]; then sizes+=("${BASH_REMATCH[1]}")
      elif [[ "$line" =~ ^[[:space:]]+sha256:[[:space:]]*([0-9a-f]{64})$ ]]; then sums+=("${BASH_REMATCH[1]}")
      fi
    done <"$WORK/manifest.yml"
    [ "${#ids[@]}" -gt 0 ] && [ "${#ids[@]}" = "${#names[@]}" ] && [ "${#ids[@]}" = "${#sizes[@]}" ] && [ "${#ids[@]}" = "${#sums[@]}" ] ||
      fail "the manifest lists no complete x-artifacts entries"

    for i in "${!ids[@]}"; do
      id="${ids[$i]}" name="${names[$i]}"
      [[ "$name" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || fail "unexpected artifact file name: $name"
      api POST "/api/v1/artifacts/$id/authorize"
      token="$(json_string "$BODY" token)"
      # the token alone: the presigned link the 302 leads to gets no credential
      got="$(curl -fsSL -o "$WORK/$name" -w '%{size_download}' "$REGISTRY/api/v1/artifacts/$id/download?token=$token")" || fail "download of $name failed"
      [ "$got" = "${sizes[$i]}" ] || fail "$name: received $got bytes, expected ${sizes[$i]}"
      read -r sum _ < <(sha256sum "$WORK/$name")
      [ "$sum" = "${sums[$i]}" ] || fail "$name: SHA-256 $sum does not match ${sums[$i]}"
      mv -f "$WORK/$name" "$TARGET/artifacts/$name"
      say "  $name: $got bytes, sha256 verified"
    done
    mv -f "$WORK/manifest.yml" "$TARGET/docker-compose.yml"
  else
    [ -n "$INSTALLED" ] || fail "no release of $PRODUCT on channel $CHANNEL"
    say "$PRODUCT $INSTALLED is up to date (latest on $CHANNEL: $(json_string "$CHECK" latestVersion))"
  fi
fi
[ -n "$VERSION" ] || fail "nothing is installed in $TARGET yet: run without HEARTBEAT_ONLY first"

# --- registration (the same host again keeps its seat) and a heartbeat
HOST="${NODE_HOSTNAME:-${HOSTNAME:-$(uname -n)}}"
ADDRESS="${NODE_IP:-}"
if [ -z "$ADDRESS" ]; then
  read -r ADDRESS _ < <(hostname -I 2>/dev/null || true) || true
fi
ADDRESS="${ADDRESS:-127.0.0.1}"
[[ "$HOST" =~ ^[A-Za-z0-9.-]+$ ]] || fail "host name \"$HOST\" is not usable; set NODE_HOSTNAME"
[[ "$ADDRESS" =~ ^[0-9A-Fa-f.:]+$ ]] || fail "address \"$ADDRESS\" is not usable; set NODE_IP"
api POST /api/v1/deployments/register "{\"hostname\":\"$HOST\",\"ipAddress\":\"$ADDRESS\",\"currentVersion\":\"$VERSION\"}"
DEPLOYMENT_KEY="$(json_string "$BODY" deploymentKey)"
printf '%s\n' "$DEPLOYMENT_KEY" >"$TARGET/.deployment-key"
say "Registered $HOST ($ADDRESS) as deployment $(json_string "$BODY" id), heartbeat every $(json_literal "$BODY" heartbeatIntervalSeconds) s"

UPTIME=0
if [ -r /proc/uptime ]; then read -r UPTIME _ </proc/uptime; UPTIME="${UPTIME%%.*}"; fi
api POST /api/v1/deployments/heartbeat "{\"deploymentKey\":\"$DEPLOYMENT_KEY\",\"metrics\":{\"status\":\"healthy\",\"uptimeSeconds\":$UPTIME}}"
say "Heartbeat sent; next one due by $(json_string "$BODY" nextHeartbeatAt)"

printf '%s\n' "$VERSION" >"$TARGET/.installed-version"

# --- .env: this node's deployment key, and the secrets the compose file requires (yours to choose)
if [ "${HEARTBEAT_ONLY:-0}" != 1 ]; then
  env_file="$TARGET/.env"
  [ -f "$env_file" ] || : >"$env_file"
  kept="" required=""
  while IFS= read -r line; do [[ "$line" == VENDOR_DEPLOYMENT_ID=* ]] || kept+="$line"$'\n'; done <"$env_file"
  printf '%sVENDOR_DEPLOYMENT_ID=%s\n' "$kept" "$DEPLOYMENT_KEY" >"$env_file"
  while IFS= read -r line; do
    while [[ "$line" =~ \$\{([A-Z_][A-Z0-9_]*):\? ]]; do
      name="${BASH_REMATCH[1]}"
      line="${line/\$\{$name:\?/}"
      [[ " $required " == *" $name "* ]] || required+="$name "
    done
  done <"$TARGET/docker-compose.yml"
  missing=""
  for name in $required; do
    grep_line=""
    while IFS= read -r l; do [[ "$l" == "$name="?* ]] && grep_line="$l"; done <"$env_file"
    [ -n "$grep_line" ] || missing+="$name "
  done

  if [ "${SKIP_DOCKER_LOAD:-0}" != 1 ] && command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then
    for f in "$TARGET"/artifacts/*-"$VERSION".docker.tar.gz; do docker load -i "$f"; done
  else
    say "Load the images where Docker runs:  for f in $TARGET/artifacts/*-$VERSION.docker.tar.gz; do docker load -i \"\$f\"; done"
  fi
  [ -z "$missing" ] || say "Set in $env_file (your own secrets): ${missing% }"
  say "Then: cd $TARGET && docker compose up -d"
fi
say "Done: $PRODUCT $VERSION installed in $TARGET."
