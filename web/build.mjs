// Bundles the gateway (dist/gateway.mjs, for Node) and the playground page
// (dist/playground/, for browsers) with esbuild. Run after `npm run generate`.
import { build } from "esbuild";
import { cp, mkdir } from "node:fs/promises";

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/gateway.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node18",
  // Everything in one file: the image needs Node and this bundle, no node_modules.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  sourcemap: true,
  logLevel: "warning",
});
await mkdir("dist/playground", { recursive: true });
await build({
  entryPoints: ["playground/app.ts"],
  outfile: "dist/playground/app.js",
  bundle: true,
  platform: "browser",
  format: "esm",
  target: "es2020",
  sourcemap: true,
  logLevel: "warning",
});
await cp("playground/index.html", "dist/playground/index.html");
await cp("playground/style.css", "dist/playground/style.css");
