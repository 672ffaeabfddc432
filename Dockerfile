# One small image per process, all from this file: `docker build --target <gateway|media|jobs|sessions|export> .`
# (skaffold.yaml builds all five). Multi-stage: the build stage compiles everything once; each runtime image holds
# the production node_modules, the compiled libraries and its own service only, runs as the unprivileged `node`
# user (uid 1000, as the chart's securityContext expects) and works with a read-only root filesystem (scratch in
# /tmp). ffmpeg is installed only in the images of the processes that decode or encode audio/video (media, jobs,
# export); the gateway and sessions images have none.
#
# Base images are pinned here, in the two ARGs below — the one documented place — by tag and by the digest of the
# tag's multi-arch manifest list (what `docker buildx imagetools inspect node:20.20.2-bookworm-slim` prints as
# Digest). The registry is not reachable from where this file is maintained, so each digest was taken from several
# independent public projects pinning the same tag and must agree with the registry at the next build; to move to a
# new Node release, change tag and digest together (a build with a mismatched pair fails, it never runs something
# else). Node 20.20.2 is the version the project is developed and tested on.
ARG NODE_BUILD_IMAGE=node:20.20.2-bookworm@sha256:8f693eaa7e0a8e71560c9a82b55fd54c2ae920a2ba5d2cde28bac7d1c01c9ba5
ARG NODE_RUNTIME_IMAGE=node:20.20.2-bookworm-slim@sha256:2cf067cfed83d5ea958367df9f966191a942351a2df77d6f0193e162b5febfc0

FROM ${NODE_BUILD_IMAGE} AS build
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund \
  && npm run build \
  && npm prune --omit=dev --no-audit --no-fund \
  && rm -rf bench tools frontend/node_modules frontend/src

# What every runtime image shares: production dependencies and the compiled contracts and libraries.
FROM ${NODE_RUNTIME_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/proto/package.json ./proto/package.json
COPY --from=build --chown=root:root /app/proto/dist ./proto/dist
COPY --from=build --chown=root:root /app/libs/platform/package.json ./libs/platform/package.json
COPY --from=build --chown=root:root /app/libs/platform/dist ./libs/platform/dist
COPY --from=build --chown=root:root /app/libs/audio/package.json ./libs/audio/package.json
COPY --from=build --chown=root:root /app/libs/audio/dist ./libs/audio/dist
USER 1000:1000

FROM runtime AS runtime-ffmpeg
USER root
RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/*
USER 1000:1000

FROM runtime AS gateway
COPY --from=build --chown=root:root /app/services/gateway/package.json ./services/gateway/package.json
COPY --from=build --chown=root:root /app/services/gateway/dist ./services/gateway/dist
COPY --from=build --chown=root:root /app/frontend/dist ./frontend/dist
EXPOSE 8080
CMD ["node", "--max-semi-space-size=1", "--max-old-space-size=128", "services/gateway/dist/main.js"]

FROM runtime AS sessions
COPY --from=build --chown=root:root /app/services/sessions/package.json ./services/sessions/package.json
COPY --from=build --chown=root:root /app/services/sessions/dist ./services/sessions/dist
CMD ["node", "services/sessions/dist/main.js"]

FROM runtime-ffmpeg AS media
# The bundled separation network ships with the image.
COPY --from=build --chown=root:root /app/libs/audio/models ./libs/audio/models
COPY --from=build --chown=root:root /app/services/media/package.json ./services/media/package.json
COPY --from=build --chown=root:root /app/services/media/dist ./services/media/dist
# Media's own dependencies that npm could not hoist (another version of the package sits at the root).
COPY --from=build --chown=root:root /app/services/media/node_modules ./services/media/node_modules
CMD ["node", "services/media/dist/main.js"]

FROM runtime-ffmpeg AS jobs
COPY --from=build --chown=root:root /app/services/jobs/package.json ./services/jobs/package.json
COPY --from=build --chown=root:root /app/services/jobs/dist ./services/jobs/dist
CMD ["node", "services/jobs/dist/main.js"]

FROM runtime-ffmpeg AS export
COPY --from=build --chown=root:root /app/services/export/package.json ./services/export/package.json
COPY --from=build --chown=root:root /app/services/export/dist ./services/export/dist
CMD ["node", "services/export/dist/main.js"]
