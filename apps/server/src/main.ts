import { defaultLandingPath } from '@app/contracts';
import { ConfigError, loadConfig } from './config';
import { demoBranch, demoPassword, demoUsers } from './modules/identity/demo-seed';
import { type ServerRole, startServer } from './server';

/** Entry point: `tsx src/main.ts [--role=all|web|worker]`. */
async function main(): Promise<void> {
  const roleArgument = process.argv.find((arg) => arg.startsWith('--role='))?.split('=')[1];
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(roleArgument ? { ...process.env, ROLE: roleArgument } : process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const server = await startServer(config, { role: config.ROLE as ServerRole });

  const base = config.PUBLIC_URL ?? server.url;
  const lines = [
    '',
    `  Omni Inbox is running (${config.ROLE}, ${server.database.driver}${config.databaseDriver === 'pglite' ? ` at ${config.dataDir}` : ''})`,
  ];
  if (server.url) lines.push(`  Open ${base}${defaultLandingPath}`, `  API docs ${base}/api/docs`);
  if (server.demoClientId) {
    lines.push('', `  Demo workspace "Toko Demo", password ${demoPassword}:`);
    for (const user of demoUsers) lines.push(`    ${user.email.padEnd(22)} ${user.role}`);
    const members = demoBranch.members.map((member) => member.email).join(', ');
    lines.push(`  Also members of "${demoBranch.name}" (Switch client): ${members}`);
  }
  console.log(`${lines.join('\n')}\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await server.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
