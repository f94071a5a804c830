// A TCP proxy for fault tests: forwards a local port to a target (PostgreSQL) and can take the target away
// — every open connection cut and new ones refused, as when the database is stopped — then bring it back.

export interface TcpProxy {
  /** Local port clients connect to. */
  readonly port: number;
  /** Cuts every open connection and refuses new ones until `restore()`. */
  cut(): void;
  /** Listens again on the same port. */
  restore(): void;
  close(): Promise<void>;
}

/** Starts forwarding 127.0.0.1:<free port> to `target`. */
export function startTcpProxy(target: { hostname: string; port: number }): TcpProxy {
  let listener: Deno.Listener | null = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const open = new Set<Deno.Conn>();
  const accepting = new Set<Promise<void>>();

  const pipe = async (from: Deno.Conn, to: Deno.Conn) => {
    try {
      await from.readable.pipeTo(to.writable);
    } catch {
      // the other side went away: close both below
    }
    for (const conn of [from, to]) {
      try {
        conn.close();
      } catch {
        // already closed
      }
      open.delete(conn);
    }
  };

  const accept = async (l: Deno.Listener) => {
    for await (const client of l) {
      open.add(client);
      Deno.connect(target).then((server) => {
        open.add(server);
        pipe(client, server);
        pipe(server, client);
      }, () => {
        client.close();
        open.delete(client);
      });
    }
  };
  const listen = (l: Deno.Listener) => {
    const done = accept(l).catch(() => {});
    accepting.add(done);
    done.finally(() => accepting.delete(done));
  };
  listen(listener);

  return {
    port,
    cut() {
      listener?.close();
      listener = null;
      for (const conn of open) {
        try {
          conn.close();
        } catch {
          // already closed
        }
      }
      open.clear();
    },
    restore() {
      if (listener) return;
      listener = Deno.listen({ hostname: "127.0.0.1", port });
      listen(listener);
    },
    async close() {
      this.cut();
      await Promise.all(accepting);
    },
  };
}
