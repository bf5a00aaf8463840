// The stack of test/phones.test.mjs, all on 127.0.0.1: Debian's redis-server
// (the hand ledger) on a free port, two stud_server replicas (STUD_SERVER) with
// the same sealing key ring, caller authentication with one tenant whose calls
// need seat tickets, --ledger on that Redis, and one built gateway in front of
// each replica. Every process is stopped by its own PID; a process that does
// not start within 15 s fails the test.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
export const TENANT = "phones-test";
export const API_KEY = "5a".repeat(32);

// stud_server's line naming its /metrics address (--metrics_listen), on stderr.
export const METRICS_LISTENING = /"event":"metrics_listening","address":"([^"]+)"/;

// Resolves with { child, address } once `readyPattern` matched a line of
// `stream`, and, when `alsoPattern` is given, once it matched a line of either
// stream too ({ also }: its first group).
export function start(command, args, readyPattern, name, stream = "stdout", alsoPattern = null) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  const lines = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${name} did not start within 15 s:\n${lines.join("\n")}`));
    }, 15_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with ${code} before it was ready:\n${lines.join("\n")}`));
    });
    let found = null; // the ready line's match
    let also = alsoPattern ? undefined : null;
    const ready = () => {
      if (found === null || also === undefined) return;
      clearTimeout(timer);
      resolve({ child, address: found[1], also });
    };
    for (const s of ["stdout", "stderr"]) {
      readline.createInterface({ input: child[s] }).on("line", (line) => {
        if (lines.length < 200) lines.push(line);
        const match = s === stream ? readyPattern.exec(line) : null;
        if (match && found === null) found = match;
        const extra = alsoPattern ? alsoPattern.exec(line) : null;
        if (extra && also === undefined) also = extra[1];
        ready();
      });
    }
  });
}

export function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// metrics: every replica serves /metrics on a port of its own (the stack's
// `metrics`: their host:port, in the order of `upstreams`).
export async function startPhonesStack({ replicas = 2, serverArgs = [], metrics = false } = {}) {
  const server = process.env.STUD_SERVER;
  if (!server) throw new Error("set STUD_SERVER to the stud_server binary");
  const redisBinary = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"].find((p) => fs.existsSync(p));
  if (!redisBinary) throw new Error("redis-server not found: install Debian's redis-server");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stud-phones-"));
  const children = [];
  const stopAll = async () => {
    for (const child of children.reverse()) await stop(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const keyFile = path.join(dir, "keys");
    fs.writeFileSync(keyFile, `3:${"cd".repeat(32)}\n`);
    const tenantFile = path.join(dir, "tenants");
    fs.writeFileSync(tenantFile, `${TENANT}:${API_KEY}:tickets\n`);
    const redisPort = await freePort();
    const redis = await start(
      redisBinary,
      ["--port", String(redisPort), "--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no"],
      /Ready to accept connections/,
      "redis-server",
    );
    children.push(redis.child);
    const upstreams = [];
    const metricsAddresses = [];
    const gateways = [];
    for (let i = 0; i < replicas; i++) {
      const stud = await start(
        server,
        [
          "--listen=127.0.0.1:0",
          `--key_file=${keyFile}`,
          `--metrics_listen=${metrics ? "127.0.0.1:0" : ""}`,
          `--tenant_keys_file=${tenantFile}`,
          `--ledger=redis://127.0.0.1:${redisPort}`,
          ...serverArgs,
        ],
        /^stud_server listening on (\S+)$/,
        `stud_server ${i + 1}`,
        "stdout",
        metrics ? METRICS_LISTENING : null,
      );
      children.push(stud.child);
      upstreams.push(stud.address);
      metricsAddresses.push(stud.also);
      const web = await start(
        process.execPath,
        [path.join(webDir, "dist", "gateway.mjs"), "--listen=127.0.0.1:0", `--upstream=${stud.address}`],
        /^stud_web listening on (\S+)/,
        `stud_web ${i + 1}`,
      );
      children.push(web.child);
      gateways.push(web.address);
    }
    return { dir, redisPort, redisPid: redis.child.pid, upstreams, metrics: metricsAddresses, gateways, stop: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
