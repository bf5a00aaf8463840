# stud_web container image: the web gateway (web/) and its playground page.
#   deploy/build-image.sh --web [TAG]
# (context = the repository root; deploy/web.Dockerfile.dockerignore trims it.)
#
# The builder generates the TypeScript code from proto/ (buf + protoc-gen-es
# from the npm registry, pinned by web/package-lock.json) and bundles the
# gateway into one file with esbuild, so the runtime stage is Debian slim with
# Node.js and that bundle only: no node_modules, no build tools.
# Health: GET /healthz (the process) and /readyz (stud_server answers its gRPC
# health check); metrics: GET /metrics, on the same port.
FROM debian:12.11 AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs npm grpc-proto ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
# Behind a TLS-inspecting proxy the registry's certificate chain needs the
# proxy's CA: build-image.sh passes the host's CA bundle as the secret
# "npm_cafile" (docker/buildah --secret); without it Debian's CAs are used.
RUN --mount=type=secret,id=npm_cafile \
    if [ -s /run/secrets/npm_cafile ]; then export NPM_CONFIG_CAFILE=/run/secrets/npm_cafile; fi \
 && npm install --no-audit --no-fund --loglevel=error
COPY proto /src/proto
COPY web/ ./
RUN npm run build

FROM debian:12.11-slim AS runtime
ARG STUD_GIT_COMMIT=unknown
ARG STUD_VERSION=0.1.0
LABEL org.opencontainers.image.version="${STUD_VERSION}" org.opencontainers.image.revision="${STUD_GIT_COMMIT}"
RUN printf 'path-exclude /usr/share/doc/*\npath-exclude /usr/share/man/*\npath-exclude /usr/share/locale/*\n' \
      > /etc/dpkg/dpkg.cfg.d/01-stud-slim \
 && apt-get update \
 && apt-get install -y --no-install-recommends nodejs \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/cache/apt/archives/*.deb \
 && groupadd --system --gid 10001 stud \
 && useradd --system --uid 10001 --gid stud --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin stud
COPY --from=build /src/web/dist/gateway.mjs /opt/stud-web/gateway.mjs
COPY --from=build /src/web/dist/playground /opt/stud-web/playground
# 8080: the public port; 9465: /metrics with --metrics_port=9465 (k8s/components/web).
EXPOSE 8080 9465
USER 10001:10001
ENTRYPOINT ["node", "/opt/stud-web/gateway.mjs"]
CMD ["--listen=0.0.0.0:8080", "--upstream=stud:50051"]
