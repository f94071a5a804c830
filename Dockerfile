# Multi-stage build on the official Deno image (2.9.x). The final image runs as the non-root `deno` user.
# docker build -t zapflow . && docker run -p 8000:8000 -v zapflow-data:/data -v zapflow-backups:/backups zapflow
FROM denoland/deno:2.9.6 AS build
WORKDIR /app
ENV DENO_NO_UPDATE_CHECK=1
# Dependencies first, so a source change does not re-download them.
COPY deno.json deno.lock ./
RUN deno install
COPY . .
# The version shown in the start log, /healthz and the dashboard: the context has no .git, so pass the
# release tag: docker build --build-arg APP_VERSION=v1.0.0 -t zapflow:v1.0.0 .
ARG APP_VERSION=dev
# The client bundle (static/assets/, hashed, with a manifest), then every server module in the cache.
RUN deno task build && deno cache src/main.ts src/db/migrate_cli.ts src/db/backup_cli.ts scripts/admin_cli.ts

FROM denoland/deno:2.9.6
WORKDIR /app
ENV PORT=8000 HOST=0.0.0.0 DATA_DIR=/data DENO_NO_UPDATE_CHECK=1
COPY --from=build --chown=deno:deno /app /app
COPY --from=build --chown=deno:deno /deno-dir /deno-dir
RUN mkdir -p /data /backups && chown deno:deno /data /backups
USER deno
# The embedded database (when DATABASE_URL is unset) lives in /data, its backups in /backups: never inside
# /data, where each backup would contain the earlier ones. Scheduled backups: -e BACKUP_DIR=/backups
# (off by default, and only for the embedded database); one by hand: docker exec <container> deno task
# db:backup --out /backups (it works while the server runs).
VOLUME /data
VOLUME /backups
EXPOSE 8000
# Healthy = ready to serve: the database answers and every migration is applied (/readyz).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["deno", "eval", "const r = await fetch('http://127.0.0.1:' + (Deno.env.get('PORT') ?? '8000') + '/readyz'); Deno.exit(r.ok ? 0 : 1)"]
# Run it with a restart policy and a descriptor limit, e.g. `docker run --restart unless-stopped
# --ulimit nofile=65536:65536 ...` (docker-compose.yml sets both): the process exits only on purpose (code 1,
# with a log line) and keeps its connections within the soft limit it finds at start.
# Exec form: the process is PID 1 and gets SIGTERM directly, so it drains requests and stops the jobs.
# Small young-generation semi-spaces: request garbage dies young, and the default ones kept ~40 MB more
# resident under load (docs/PERFORMANCE.md, memory).
# Running Deno itself (its path in this image) only lets a first start create the embedded database in a
# short-lived child process, whose memory goes back to the system (src/db/pglite.ts).
CMD ["deno", "run", "--v8-flags=--max-semi-space-size=8,--max-old-space-size=1024", "--allow-net", "--allow-env", "--allow-read", "--allow-write=/data,/backups", "--allow-ffi", "--allow-sys", "--allow-run=/usr/bin/deno", "src/main.ts"]
