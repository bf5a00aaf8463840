// --workers: one gateway process per core sharing one listening port (Node's
// cluster module; the primary accepts connections and hands them to the
// workers in turn). Node runs a process's JavaScript on one thread, so a
// single process uses one core whatever the machine has.
//
// The primary serves nothing itself: it starts the workers, announces the
// port once every worker listens, replaces a worker that dies while serving,
// sums the workers' metrics for /metrics, and on SIGTERM/SIGINT passes the
// signal on (each worker drains) and exits 0 once all have exited. A worker
// that exits before it ever listened (port in use) ends the primary with the
// worker's exit code instead of a restart loop.
import cluster, { type Worker } from "node:cluster";
import client from "prom-client";
import { logLine } from "./logging.js";
import { METRICS_REQUEST, METRICS_RESPONSE } from "./metrics.js";

// Sent by a worker once it accepts calls.
export const LISTENING = "stud_web:listening";

export function runPrimary(count: number, onListening: (port: number) => void): void {
  const aggregator = new client.AggregatorRegistry();
  const listening = new Map<number, number>();
  let announced = false;
  let draining = false;
  let exitCode = 0;

  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on("message", (message: { type?: string; port?: number; id?: number }) => {
      if (message?.type === LISTENING && typeof message.port === "number") {
        listening.set(worker.id, message.port);
        if (!announced && listening.size === count) {
          announced = true;
          onListening(message.port);
        }
      } else if (message?.type === METRICS_REQUEST) {
        aggregator.clusterMetrics().then(
          (text) => worker.isConnected() && worker.send({ type: METRICS_RESPONSE, id: message.id, text }),
          () => worker.isConnected() && worker.send({ type: METRICS_RESPONSE, id: message.id }),
        );
      }
    });
    return worker;
  };

  cluster.on("exit", (worker, code, signal) => {
    const served = listening.delete(worker.id);
    const left = Object.keys(cluster.workers ?? {}).length;
    if (draining) {
      if (left === 0) process.exit(exitCode);
      return;
    }
    if (!served) {
      // Never listened: the worker said why; more of them would say it again.
      draining = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill("SIGTERM");
      exitCode = code || 1;
      if (left === 0) process.exit(exitCode);
      return;
    }
    logLine("warn", "worker_exited", { pid: worker.process.pid, exit: String(signal ?? code), action: "starting another" });
    fork();
  });

  for (let i = 0; i < count; i++) fork();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      logLine("info", "draining", { signal, workers: Object.keys(cluster.workers ?? {}).length });
      draining = true;
      const workers = Object.values(cluster.workers ?? {});
      if (workers.length === 0) process.exit(0);
      for (const worker of workers) worker?.process.kill(signal);
    });
  }
}
