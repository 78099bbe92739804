# The Fleetgraph image: every service and the migrations job, as bundled JavaScript on production
# packages only. The container's command picks the service:
#   node dist/<app>/main.js   (gateway, sso, each subgraph: fleet-core, dvir, ...; prepare)
# The base is a build argument: the official image on a normal machine, the locally made one
# where no image registry is reachable (tools/containers/build-images.sh passes fleetgraph/node,
# and fleetgraph/node-build for the build stage).
ARG BASE_IMAGE=node:20-bookworm-slim
# The build stage's base: the same image by default; here, the local one with Node's headers.
ARG BUILD_IMAGE=${BASE_IMAGE}

# The workspace's package.json files alone: the install below is redone only when one changes.
FROM ${BUILD_IMAGE} AS manifests
WORKDIR /src
COPY apps apps
COPY libs libs
COPY tools tools
RUN mkdir /manifests && find apps libs tools -name package.json ! -path '*/node_modules/*' -print0 \
    | tar --null -cf - -T - | tar -xf - -C /manifests

# The workspace with every dependency: bundles the services (tools/containers/src/bundle.ts).
# docker-compose.yml (one instance of each service, run from TypeScript) targets this stage.
FROM ${BUILD_IMAGE} AS build
WORKDIR /app
# A native addon without a prebuilt binary for this platform compiles (better-sqlite3 under corgi).
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY --from=manifests /manifests/ ./
# Install scripts run only for what the services need built (a subset of package.json allowScripts).
RUN npm ci --no-audit --no-fund --ignore-scripts \
 && npm rebuild better-sqlite3 esbuild
COPY apps apps
COPY libs libs
COPY tools tools
COPY nx.json tsconfig.base.json tsconfig.json supergraph.graphql ./
# /runtime is the runtime image's /app: the bundles, the packages they load, and the files the
# apps read beside their sources (SDL, data, explorer client), at their workspace paths.
RUN node --import tsx tools/containers/src/bundle-main.ts --node-modules \
 && mkdir -p /runtime \
 && find apps libs tools/subgraphs -type f ! -name '*.ts' ! -path '*/node_modules/*' -print0 \
    | tar --null -cf - -T - | tar -xf - -C /runtime \
 && cp nx.json supergraph.graphql /runtime/ \
 && if [ -d dist/workspace ]; then cp -r dist/workspace/. /runtime/ && rm -rf dist/workspace; fi \
 && mv dist/node_modules dist/package.json /runtime/ && mv dist /runtime/dist
ENV NODE_ENV=production HOST=0.0.0.0 NODE_OPTIONS=--max-semi-space-size=64
USER node

FROM ${BASE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 \
    FLEETGRAPH_DATA_DIR=/var/lib/fleetgraph \
    DATABASE_MIGRATIONS=wait
# The services' Node.js flags (libs/service-kit/src/node-flags.ts: SERVICE_NODE_FLAGS).
ENV NODE_OPTIONS=--max-semi-space-size=64
RUN mkdir -p /var/lib/fleetgraph/files && chown -R node:node /var/lib/fleetgraph
COPY --from=build /runtime/ ./
USER node
# node is PID 1: every service closes in order on SIGTERM (libs/service-kit shutdown.ts).
STOPSIGNAL SIGTERM
# Any service answers /healthz on its own port (PORT, set per container, else the gateway's).
HEALTHCHECK --interval=5s --timeout=3s --start-period=60s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.HEALTH_PORT||4000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
EXPOSE 4000
CMD ["node", "dist/gateway/main.js"]
