/** One JSON line per event on stdout (errors on stderr). Never pass lead data or IP addresses. */
export type LogLevel = "debug" | "info" | "warn" | "error";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Where a finished line goes: stdout for debug/info, stderr for warn/error by default. */
export type LogSink = (level: LogLevel, line: string) => void;

const consoleSink: LogSink = (level, line) => {
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
};

let threshold: LogLevel = "info";
let sink: LogSink = consoleSink;

/** Sets the minimum level written (from LOG_LEVEL, once, in main.ts). */
export function setLogLevel(level: LogLevel): void {
  threshold = level;
}

/** The minimum level currently written. */
export function logLevel(): LogLevel {
  return threshold;
}

/** Redirects log lines (tests capture them); returns a function that restores the previous sink. */
export function setLogSink(next: LogSink): () => void {
  const previous = sink;
  sink = next;
  return () => {
    sink = previous;
  };
}

function write(level: LogLevel, msg: string, fields: Record<string, unknown> = {}, always = false): void {
  if (!always && ORDER[level] < ORDER[threshold]) return;
  sink(level, JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }));
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
  /**
   * A milestone of the process's life (building the client, listening): an info line written whatever
   * LOG_LEVEL says, so even a quiet server says where it listens.
   */
  milestone: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields, true),
};
