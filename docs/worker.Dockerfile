# syntax=docker/dockerfile:1
# An app worker's image (docs/deploy.md "App workers"): a team's own Nest app with its @JobHandler providers, run
# through `tickwheel/worker` (docs/workers.md). It needs no database driver build, no DB or Redis: only
# TICKWHEEL_URL, TICKWHEEL_APP_ID and TICKWHEEL_SECRET at run time (the chart's `appWorkers` sets exactly these).
#
# Your project has package.json (with "tickwheel": "file:./vendor/tickwheel-0.2.0.tgz" from `npm pack`, or a
# registry version), package-lock.json, tsconfig.json and src/ with a main that starts the worker; build with:
#   docker build -f worker.Dockerfile -t registry.example.com/billing-worker:1.4.2 .
# Tickwheel needs Node 22 LTS (or 24): its package.json's engines.
ARG NODE_IMAGE=node:22.23-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Tickwheel's package brings better-sqlite3 (its standalone shape) as a dependency: its binaries come prebuilt in
# its package (nothing compiles), and a worker never loads it.
COPY package.json package-lock.json ./
COPY vendor ./vendor
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
RUN npx tsc -p tsconfig.json && npm prune --omit=dev

FROM ${NODE_IMAGE} AS runtime
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# Numeric uid:gid so Kubernetes' runAsNonRoot can verify it (the chart's pods run as 1000 on a read-only root).
USER 1000:1000
# tini forwards SIGTERM: the worker drains (docs/workers.md "Lifecycle") before it exits.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]
