// The Telegram Bot API simulator as a process of its own, for the benchmarks (started through
// processes.ts startScriptProcess, which polls its /api/health) and for developers:
//   PORT=4630 npx tsx bench/lib/telegram-simulator-server.ts
// Other processes add bots and read webhooks and sent messages over its /__simulator API.
import { TelegramSimulator } from '../../apps/server/src/modules/channels/adapters/tlg/telegram.simulator';

const simulator = await TelegramSimulator.start({ port: Number(process.env.PORT ?? 0) });
console.log(`telegram simulator listening on ${simulator.url}`);

const stop = async () => {
  await simulator.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
