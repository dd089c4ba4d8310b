// npm start: builds the web app and the live-chat widget when their builds are missing,
// then serves web app, API and socket from one process on the embedded database (or
// PostgreSQL with DATABASE_URL).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webIndex = path.join(root, 'apps/web/dist/index.html');
const widgetScript = path.join(root, 'apps/widget/dist/widget.js');

// The live-chat widget is one small file the server hands out at /widget.js.
if (!existsSync(widgetScript)) {
  console.log('Building the live-chat widget (first start)...');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/widget'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

if (!existsSync(webIndex) && !process.env.WEB_DIST) {
  console.log('Building the web app (first start)...');
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: process.env },
);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
