// stud_web: the HTTP gateway in front of stud_server.
//   node dist/gateway.mjs [--listen=127.0.0.1:8080] [--upstream=127.0.0.1:50051]
//                        [--default_timeout_ms=10000] [--static_dir=DIR]
// Prints "stud_web listening on http://HOST:PORT" once it accepts calls
// (--listen=127.0.0.1:0 picks a free port). SIGTERM/SIGINT: stop accepting,
// finish the calls in flight, exit 0.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startGateway } from "./gateway.js";

const FLAGS: Record<string, { value: string; help: string }> = {
  listen: { value: "127.0.0.1:8080", help: "host:port to serve HTTP/1.1 and HTTP/2 (h2c) on; port 0 picks one" },
  upstream: { value: "127.0.0.1:50051", help: "stud_server's gRPC address" },
  default_timeout_ms: { value: "10000", help: "deadline for stud_server when the caller sets none" },
  static_dir: { value: "", help: "directory of the playground page (default: the built one beside this file)" },
  cors_origins: {
    value: "",
    help: "comma-separated origins whose pages may call the gateway (https://app.example; * for any); empty: same origin only",
  },
};

function usage(): string {
  return (
    "usage: stud_web [--flag=value ...]\n" +
    Object.entries(FLAGS)
      .map(([name, flag]) => `  --${name} (default "${flag.value}"): ${flag.help}`)
      .join("\n")
  );
}

function parseFlags(argv: string[]): Record<string, string> {
  const values: Record<string, string> = Object.fromEntries(Object.entries(FLAGS).map(([k, f]) => [k, f.value]));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") {
      console.log(usage());
      process.exit(0);
    }
    const match = /^--([a-z_]+)(?:=(.*))?$/.exec(arg);
    if (!match || !(match[1] in FLAGS)) {
      console.error(`stud_web: unknown argument "${arg}"\n${usage()}`);
      process.exit(2);
    }
    values[match[1]] = match[2] ?? argv[++i] ?? "";
  }
  return values;
}

const flags = parseFlags(process.argv.slice(2));
const colon = flags.listen.lastIndexOf(":");
const port = Number(flags.listen.slice(colon + 1));
const timeout = Number(flags.default_timeout_ms);
if (colon < 0 || !Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`stud_web: --listen must be host:port, got "${flags.listen}"`);
  process.exit(2);
}
if (!Number.isInteger(timeout) || timeout <= 0) {
  console.error(`stud_web: --default_timeout_ms must be a positive integer, got "${flags.default_timeout_ms}"`);
  process.exit(2);
}
const here = path.dirname(fileURLToPath(import.meta.url));
const gateway = await startGateway({
  upstream: flags.upstream,
  host: flags.listen.slice(0, colon).replace(/^\[|\]$/g, ""),
  port,
  staticDir: flags.static_dir || path.join(here, "playground"),
  defaultTimeoutMs: timeout,
  corsOrigins: flags.cors_origins
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean),
}).catch((error: NodeJS.ErrnoException) => {
  console.error(`stud_web: cannot listen on ${flags.listen}: ${error.code ?? error.message}`);
  process.exit(1);
});
const host = flags.listen.slice(0, colon);
console.log(`stud_web listening on http://${host}:${gateway.port} (stud_server at ${flags.upstream})`);
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    console.log(`stud_web: ${signal}, draining`);
    void gateway.close().then(() => process.exit(0));
  });
}
