# HAProxy from Debian, with the official image's contract: the configuration at
# /usr/local/etc/haproxy/haproxy.cfg, in the foreground.
FROM fleetgraph/base-debian
RUN apt-get update && apt-get install -y --no-install-recommends haproxy \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /usr/local/etc/haproxy
STOPSIGNAL SIGUSR1
CMD ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]
