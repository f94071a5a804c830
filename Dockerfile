# Multi-stage build on the official Deno image (2.9.x). The final image runs as the non-root `deno` user.
FROM denoland/deno:2.9.6 AS build
WORKDIR /app
COPY deno.json deno.lock* ./
COPY . .
RUN deno install && deno task build && deno cache src/main.ts

FROM denoland/deno:2.9.6
WORKDIR /app
ENV PORT=8000 HOST=0.0.0.0 DATA_DIR=/data
COPY --from=build --chown=deno:deno /app /app
COPY --from=build --chown=deno:deno /deno-dir /deno-dir
RUN mkdir -p /data && chown deno:deno /data
USER deno
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s CMD ["deno", "eval", "const r = await fetch('http://127.0.0.1:' + (Deno.env.get('PORT') ?? '8000') + '/healthz'); Deno.exit(r.ok ? 0 : 1)"]
CMD ["deno", "run", "--allow-net", "--allow-env", "--allow-read", "--allow-write=/data", "--allow-ffi", "--allow-sys", "src/main.ts"]
