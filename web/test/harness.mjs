// Starts a real stud_server (STUD_SERVER) and the built gateway (dist/gateway.mjs)
// on 127.0.0.1 port 0, and stops both by their own PIDs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath } from "node:url";

const webDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

function startProcess(command, args, readyPattern, name) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${name} did not start within 15 s`));
    }, 15_000);
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code} before it was ready`)));
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      const match = readyPattern.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, address: match[1] });
      }
    });
  });
}

function stop(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

// The built gateway alone in front of `upstream`; returns { gateway (base URL), pid, stop() }.
export async function startGatewayOnly(upstream, extraArgs = []) {
  const web = await startProcess(
    process.execPath,
    [path.join(webDir, "dist", "gateway.mjs"), "--listen=127.0.0.1:0", `--upstream=${upstream}`, ...extraArgs],
    /^stud_web listening on (\S+)/,
    "stud_web",
  );
  return { gateway: web.address, pid: web.child.pid, stop: () => stop(web.child) };
}

// stud_server with its Connect listener (--connect_listen=127.0.0.1:0, announced on stderr as the
// JSON line "connect_listening"; the other stderr lines are passed on) and the same --key_file
// as startStack. Returns { upstream (gRPC address), connect (the listener's base URL), dir, stop() }.
export async function startConnectServer(serverArgs = []) {
  const server = process.env.STUD_SERVER;
  if (!server) throw new Error("set STUD_SERVER to the stud_server binary");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stud-connect-"));
  const keyFile = path.join(dir, "keys");
  fs.writeFileSync(keyFile, `3:${"ab".repeat(32)}\n`);
  const child = spawn(
    server,
    ["--listen", "127.0.0.1:0", "--key_file", keyFile, "--metrics_listen", "", "--connect_listen=127.0.0.1:0", ...serverArgs],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const connect = new Promise((resolve) => {
    readline.createInterface({ input: child.stderr }).on("line", (line) => {
      const match = /"event":"connect_listening","address":"([^"]+)"/.exec(line);
      if (match) resolve(`http://${match[1]}`);
      else process.stderr.write(`${line}\n`);
    });
  });
  const upstream = new Promise((resolve) => {
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      const match = /^stud_server listening on (\S+)$/.exec(line);
      if (match) resolve(match[1]);
    });
  });
  let timer;
  const failed = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error("stud_server did not start within 15 s")), 15_000);
    child.once("exit", (code) => reject(new Error(`stud_server exited with ${code} before it was ready`)));
  });
  try {
    const [address, base] = await Promise.race([Promise.all([upstream, connect]), failed]);
    return {
      upstream: address,
      connect: base,
      dir,
      stop: async () => {
        await stop(child);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child.kill("SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

// serverArgs: extra stud_server flags. Returns { upstream, gateway (base URL), stop() }.
export async function startStack(serverArgs = []) {
  const server = process.env.STUD_SERVER;
  if (!server) throw new Error("set STUD_SERVER to the stud_server binary");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stud-web-"));
  const keyFile = path.join(dir, "keys");
  fs.writeFileSync(keyFile, `3:${"ab".repeat(32)}\n`);
  const stud = await startProcess(
    server,
    ["--listen", "127.0.0.1:0", "--key_file", keyFile, "--metrics_listen", "", ...serverArgs],
    /^stud_server listening on (\S+)$/,
    "stud_server",
  );
  const web = await startProcess(
    process.execPath,
    [path.join(webDir, "dist", "gateway.mjs"), "--listen=127.0.0.1:0", `--upstream=${stud.address}`],
    /^stud_web listening on (\S+)/,
    "stud_web",
  ).catch(async (error) => {
    await stop(stud.child);
    throw error;
  });
  return {
    upstream: stud.address,
    gateway: web.address,
    dir,
    stop: async () => {
      await stop(web.child);
      await stop(stud.child);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
