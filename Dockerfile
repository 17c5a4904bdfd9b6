# Blockfog in a container (deploy/README.md, "Docker"). Two stages: the build stage runs the
# same scripts as the README's commands, so CI exercises every step it takes; the runtime
# stage holds only the server, the web client and the runtime libraries.
#
# There is no Docker engine on the CI machines: deploy/check-image.sh reads this file and runs
# the same steps on the host (build, the runtime file layout, a non-root start with this
# file's ENV, the HEALTHCHECK, STOPSIGNAL), as the test deploy.image. Keep the instructions
# below in the forms that script understands (it fails on anything else).

FROM debian:12 AS build
WORKDIR /src
# The package list first, so that source changes do not re-install packages.
COPY scripts/install-deps.sh scripts/install-deps.sh
RUN bash scripts/install-deps.sh
COPY . .
RUN bash scripts/build.sh release-pgo

FROM debian:12-slim
# The shared libraries blockfog-server links (deploy.image checks this list against ldd), and
# curl for the health check.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libssl3 libsqlite3-0 libpq5 curl \
    libtcmalloc-minimal4 libstdc++6 libgcc-s1 \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --system --user-group --uid 10001 --home-dir /data --shell /usr/sbin/nologin blockfog \
 && mkdir -p /data \
 && chown blockfog:blockfog /data
COPY --from=build /src/build/release-pgo/bin/blockfog-server /opt/blockfog/bin/blockfog-server
COPY --from=build /src/web-client /opt/blockfog/web-client
ENV BLOCKFOG_LISTEN=0.0.0.0:8080
ENV BLOCKFOG_DB=/data/blockfog.db
ENV BLOCKFOG_WEB_ROOT=/opt/blockfog/web-client
ENV BLOCKFOG_DRAIN_TIMEOUT=5
VOLUME /data
WORKDIR /data
USER blockfog
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 CMD curl -fsS http://127.0.0.1:8080/healthz
# SIGTERM drains (docs/server.md); give `docker stop` more than the drain time (the default
# 10 s is enough for BLOCKFOG_DRAIN_TIMEOUT=5).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/opt/blockfog/bin/blockfog-server"]
