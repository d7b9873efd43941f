// Builds the Activity's client into ../static (or the folder given as the first argument):
// activity.js with Discord's SDK, activity-mock.js with the SDK's mock (for the browser
// tests only). The output is committed and shipped in the Python package, so installing
// the bot needs no Node; tests/web/activity/test_build.py rebuilds it and compares.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const outdir = path.resolve(process.argv[2] ?? path.join(here, "..", "static"));

await build({
  entryPoints: {
    activity: path.join(here, "src", "main.js"),
    "activity-mock": path.join(here, "src", "mock.js"),
  },
  outdir,
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020", "chrome100", "safari15"],
  legalComments: "none",
  charset: "utf8",
  logLevel: "warning",
});
