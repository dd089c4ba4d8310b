// The big client's Telegram bot for the realtime bench's webhook runs (`--source telegram`):
// the simulator (bench/lib/telegram-simulator-server.ts, a process of its own) makes a bot, the
// owner connects it through the product's API (getMe, then setWebhook to the product), and the
// bench reads the webhook the product set back from the simulator. Telegram is a single-
// connection channel and the seed gives the big client a Telegram account, so that one is set
// aside for the run and put back after it.
import pg from 'pg';
import { bigClientSlug, json } from './owner-api';

export interface BenchBot {
  webhook: { url: string; secretToken: string };
  /** Disconnects the run's bot (the product deletes its webhook) and puts the seeded account back. */
  release(): Promise<void>;
}

export async function connectBenchBot(options: {
  databaseUrl: string;
  serverUrl: string;
  ownerToken: string;
  simulatorUrl: string;
}): Promise<BenchBot> {
  const client = new pg.Client({ connectionString: options.databaseUrl });
  await client.connect();
  let setAside: string[] = [];
  try {
    const result = await client.query<{ id: string }>(
      `update channel_accounts set deleted_at = now()
        where client_id = (select id from clients where slug = $1) and channel = 'TLG' and deleted_at is null
        returning id`,
      [bigClientSlug],
    );
    setAside = result.rows.map((row) => row.id);
  } finally {
    await client.end();
  }
  const putBack = async () => {
    if (setAside.length === 0) return;
    const again = new pg.Client({ connectionString: options.databaseUrl });
    await again.connect();
    try {
      await again.query('update channel_accounts set deleted_at = null where id = any($1::uuid[])', [
        setAside,
      ]);
    } finally {
      await again.end();
    }
  };
  try {
    const bot = await json<{ token: string }>(`${options.simulatorUrl}/__simulator/bots`, {
      method: 'POST',
      body: JSON.stringify({ username: 'bench_big_bot', firstName: 'Bench Big' }),
    });
    const account = await json<{ id: string }>(`${options.serverUrl}/api/channels/telegram`, {
      method: 'POST',
      token: options.ownerToken,
      body: JSON.stringify({ token: bot.token }),
    });
    const webhook = await json<{ url: string; secretToken: string }>(
      `${options.simulatorUrl}/__simulator/bots/${encodeURIComponent(bot.token)}/webhook`,
    );
    return {
      webhook,
      async release() {
        const response = await fetch(`${options.serverUrl}/api/channels/accounts/${account.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${options.ownerToken}` },
        });
        if (response.status !== 204)
          console.error(`  the run's bot was not disconnected: ${response.status}`);
        await putBack();
      },
    };
  } catch (error) {
    await putBack();
    throw error;
  }
}
