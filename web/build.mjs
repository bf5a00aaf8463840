// Bundles the gateway (dist/gateway.mjs, for Node), the playground and phone
// pages (dist/playground/, for browsers) and @stud/client for the Node tests
// (dist/client/index.mjs) with esbuild. Run after `npm run generate`.
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
// The phone page: one seat's device, built on @stud/client (client/).
await build({
  entryPoints: ["playground/phone.ts"],
  outfile: "dist/playground/phone.js",
  bundle: true,
  platform: "browser",
  format: "esm",
  target: "es2020",
  sourcemap: true,
  logLevel: "warning",
});
// @stud/client as one ES module for the Node tests (test/client.test.mjs); its
// dependencies stay imports, resolved from node_modules like the tests' own.
await build({
  entryPoints: ["client/src/index.ts"],
  outfile: "dist/client/index.mjs",
  bundle: true,
  platform: "neutral",
  format: "esm",
  target: "es2020",
  packages: "external",
  logLevel: "warning",
});
// Gateway modules alone for the tests that call them: the JSON transcoder
// (test/fastpath.test.mjs, checked against protobuf-es: the same
// @bufbuild/protobuf from node_modules) and the upstream pool's hand hint
// (test/hand_affinity.test.mjs).
for (const name of ["transcode", "pool"]) {
  await build({
    entryPoints: [`src/${name}.ts`],
    outfile: `dist/test/${name}.mjs`,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node18",
    packages: "external",
    logLevel: "warning",
  });
}
for (const file of ["index.html", "phone.html", "style.css"]) await cp(`playground/${file}`, `dist/playground/${file}`);
