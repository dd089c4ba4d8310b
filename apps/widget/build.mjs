// Builds the live-chat widget into one self-running file, dist/widget.js, and prints its
// gzipped size: the widget loads on every page of a customer's site, so it must stay under
// 30 KB gzipped (the build fails above that).
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = path.dirname(fileURLToPath(import.meta.url));
const outfile = path.join(root, 'dist/widget.js');
const limitBytes = 30 * 1024;

mkdirSync(path.dirname(outfile), { recursive: true });
await build({
  entryPoints: [path.join(root, 'src/main.ts')],
  outfile,
  bundle: true,
  minify: true,
  format: 'iife',
  // Old enough for the phones visitors still use, new enough for shadow DOM and fetch.
  target: 'es2019',
  legalComments: 'none',
  logLevel: 'warning',
});

const bytes = readFileSync(outfile);
const gzipped = gzipSync(bytes, { level: 9 }).length;
const kb = (count) => (count / 1024).toFixed(1);
console.log(`widget.js: ${kb(bytes.length)} KB, ${kb(gzipped)} KB gzipped (limit ${kb(limitBytes)} KB)`);
if (gzipped > limitBytes) {
  console.error('widget.js is larger than 30 KB gzipped');
  process.exit(1);
}
