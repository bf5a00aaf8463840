// Cross-origin calls from pages served by another origin (a platform's web
// app calling the gateway directly): off unless --cors_origins lists the
// origins allowed ("*" for any). An allowed origin gets the Connect, gRPC-Web
// and forwarded request headers (tenant keys, trace context) and may read the
// gRPC status headers; a preflight is answered here, before any RPC runs.
// Another origin gets no CORS headers, so its browser refuses to send.
import { cors } from "@connectrpc/connect";
import type http from "node:http";
import { isForwardedHeader } from "./forward.js";

type Request = { method?: string; headers: http.IncomingHttpHeaders };
type Response = { setHeader(name: string, value: string): unknown; writeHead(status: number): unknown; end(): unknown };

const ALLOWED = new Set(cors.allowedHeaders.map((h) => h.toLowerCase()));

export function corsPolicy(origins: string[]): (req: Request, res: Response) => boolean {
  const any = origins.includes("*");
  const allowed = new Set(origins);
  // Sets the CORS headers of an allowed origin; true when the request was a
  // preflight, answered here.
  return (req, res) => {
    const origin = req.headers.origin;
    if (origins.length === 0 || typeof origin !== "string" || !(any || allowed.has(origin))) return false;
    res.setHeader("access-control-allow-origin", origin);
    res.setHeader("vary", "Origin");
    res.setHeader("access-control-expose-headers", cors.exposedHeaders.join(", "));
    if (req.method !== "OPTIONS" || req.headers["access-control-request-method"] === undefined) return false;
    const asked = String(req.headers["access-control-request-headers"] ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h && (ALLOWED.has(h) || isForwardedHeader(h)));
    res.setHeader("access-control-allow-methods", cors.allowedMethods.join(", "));
    if (asked.length > 0) res.setHeader("access-control-allow-headers", asked.join(", "));
    res.setHeader("access-control-max-age", "7200");
    res.writeHead(204);
    res.end();
    return true;
  };
}
