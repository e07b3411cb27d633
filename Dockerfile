# Berth in a container: `docker compose up -d` with compose.yaml beside this file, or
#   docker build -t berth .
# BASE and BUILD_BASE default to the official Node images. A machine that cannot pull them
# builds local equivalents from Debian packages (scripts/base-image.sh prints the build
# arguments to pass). Written for the legacy builder and BuildKit alike: no RUN --mount.
ARG BASE=node:24-bookworm-slim
ARG BUILD_BASE=node:24-bookworm

# Build stage: python3, make and g++ come with BUILD_BASE, for the native addons that compile
# when no prebuilt binary fits (re2, whose prebuilt downloads come from GitHub).
FROM ${BUILD_BASE} AS build
WORKDIR /src
ENV npm_config_fund=false \
    npm_config_audit=false \
    npm_config_update_notifier=false
# Manifests first: the install layer is reused until a manifest or the lockfile changes.
COPY package.json package-lock.json tsconfig.base.json ./
COPY packages/contracts/package.json packages/contracts/
COPY packages/agent/package.json packages/agent/
COPY packages/server/package.json packages/server/
COPY packages/web/package.json packages/web/
# Addons compile against the image's own Node headers (never downloaded), on every core.
RUN npm_config_nodedir=/usr/local JOBS=max \
    npm ci -w @berth/contracts -w @berth/agent -w @berth/server -w @berth/web --include-workspace-root
# The web app shows the changelog as its release notes.
COPY CHANGELOG.md ./
COPY packages/contracts packages/contracts
# The server runs the agent's health-check probe for its direct hosts (decision 023).
COPY packages/agent packages/agent
COPY packages/server packages/server
COPY packages/web packages/web
RUN npm run build
# What runs, laid out in /app: the server's production dependencies and the four builds.
COPY deploy/assemble-app.sh /tmp/
RUN sh /tmp/assemble-app.sh /app

# The agent (packages/agent) in /agent: its build, the contracts' build and their production
# dependencies (ws, zod), nothing of the server or the web app.
FROM build AS agent-app
COPY deploy/assemble-agent.sh /tmp/
RUN sh /tmp/assemble-agent.sh /agent

# What both images run on: tini as PID 1 hands signals to Node and reaps (the official slim
# image has none), and uid 1000 is free for the image's own user (the official images' `node`
# user gives way).
FROM ${BASE} AS runtime
RUN set -eu; \
    if ! command -v tini >/dev/null; then \
      apt-get update; \
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tini; \
      rm -rf /var/lib/apt/lists/*; \
    fi; \
    if id -u node >/dev/null 2>&1; then userdel --remove node; fi; \
    if getent group node >/dev/null; then groupdel node; fi

# The agent, for a host Berth reaches through it: `docker build --target agent -t berth-agent .`
# (README: "Add a host through an agent"). It runs as uid 1000 and reaches the socket through
# its group (--group-add, as Berth does); reading the host's /proc mounted at /host/proc needs
# nothing more. It serves no port: it dials Berth. No HEALTHCHECK: whether it is connected is
# what Berth's host list shows (offline with the reason within 10 s), an unhealthy mark restarts
# nothing outside Swarm, and a probe process every few seconds would cost more CPU than the
# agent itself uses idle.
FROM runtime AS agent
# Kept equal to packages/agent/package.json's version (a test checks).
ARG AGENT_VERSION=0.1.0
LABEL org.opencontainers.image.title="Berth agent" \
      org.opencontainers.image.description="Connects a Docker host to Berth over one outbound connection, without exposing the Docker API" \
      org.opencontainers.image.version="${AGENT_VERSION}" \
      org.opencontainers.image.licenses="MIT"
# /var/lib/berth-agent keeps the agent's secret; a new named volume takes its owner and mode.
RUN set -eu; \
    groupadd --gid 1000 berth-agent; \
    useradd --uid 1000 --gid berth-agent --no-create-home --home-dir /var/lib/berth-agent \
      --shell /usr/sbin/nologin berth-agent; \
    mkdir -p /var/lib/berth-agent; \
    chown berth-agent:berth-agent /var/lib/berth-agent; \
    chmod 700 /var/lib/berth-agent
COPY --from=agent-app /agent /agent
ENV BERTH_AGENT_DATA_DIR=/var/lib/berth-agent \
    BERTH_AGENT_HOST_PROC=/host/proc
VOLUME /var/lib/berth-agent
USER berth-agent
WORKDIR /agent
# A 1 MB young generation and one V8 worker thread: 5 MB less resident memory with 100
# containers and no more CPU (bench/agents; docs/measurements/agents.md).
ENTRYPOINT ["/usr/bin/tini", "--", "node", "--max-semi-space-size=1", "--v8-pool-size=1", "/agent/packages/agent/dist/main.js"]

# Berth itself: the last stage, so `docker build .` builds it.
FROM runtime
# Kept equal to package.json's version (a test checks); a release build may pass its own.
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="Berth" \
      org.opencontainers.image.description="Self-hosted dashboard for operators who run Docker engines on several hosts" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="MIT"
# uid 1000 is berth. /data is the data directory; a new named volume takes its owner and mode
# from here.
RUN set -eu; \
    groupadd --gid 1000 berth; \
    useradd --uid 1000 --gid berth --no-create-home --home-dir /data --shell /usr/sbin/nologin berth; \
    mkdir -p /data; \
    chown berth:berth /data; \
    chmod 700 /data; \
    printf '%s\n' '#!/bin/sh' \
      '# A small young generation keeps the idle server near 105 MB resident (bench/startup).' \
      'exec node --max-semi-space-size=2 /app/packages/server/dist/cli/berth.js "$@"' \
      >/usr/local/bin/berth; \
    chmod 755 /usr/local/bin/berth
COPY --from=build /app /app
ENV BERTH_DATA_DIR=/data
VOLUME /data
EXPOSE 8080
USER berth
WORKDIR /app
# Node itself asks (no curl in the image), through node:http: fetch would triple the probe's CPU
# (about 300 ms against 90 ms here). The port follows BERTH_PORT.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "require('http').get({ host: '127.0.0.1', port: process.env.BERTH_PORT || 8080, path: '/api/health', timeout: 4000 }, (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1)).on('timeout', () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "berth"]
CMD ["start"]
