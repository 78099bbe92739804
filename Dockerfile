# One image for every app; the compose service picks the entry point.
FROM node:20-bookworm-slim
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY apps apps
COPY libs libs
COPY tools tools
COPY nx.json tsconfig.base.json tsconfig.json supergraph.graphql ./
RUN npm ci --no-audit --no-fund
ENV NODE_ENV=production HOST=0.0.0.0
# The services' Node.js flags (libs/service-kit/src/node-flags.ts: SERVICE_NODE_FLAGS, measured there).
ENV NODE_OPTIONS=--max-semi-space-size=64
USER node
