import { expect, test } from '@playwright/test';
import { TelegramSimulator } from '../../apps/server/src/modules/channels/adapters/tlg/telegram.simulator';
import { demoUsers, signIn } from '../support/demo';

/** The simulator listens where playwright.config.ts told the server Telegram is. */
const telegramPort = Number(process.env.E2E_TELEGRAM_PORT ?? 3198);

// One simulator on one port: the journeys of this file never run side by side.
test.describe.configure({ mode: 'serial' });

let simulator: TelegramSimulator;

test.beforeAll(async () => {
  simulator = await TelegramSimulator.start({ port: telegramPort });
});

test.afterAll(async () => {
  await simulator?.stop();
});

test('the owner connects a Telegram bot in business settings and its customers reach the inbox', async ({
  page,
}) => {
  const bot = simulator.addBot({ username: 'toko_e2e_bot', firstName: 'Toko E2E' });

  await signIn(page, demoUsers.owner);
  await page.goto('/setting/store?tab=channel');
  await expect(page.getByRole('heading', { name: 'Pengaturan Bisnis', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Channel', selected: true })).toBeVisible();

  const rows = page.getByTestId('channel-account-row');
  const liveChat = rows.filter({ hasText: 'Live Chat' }).first();
  await expect(liveChat).toBeVisible();
  await expect(liveChat.getByRole('link', { name: 'Kelola di Live chat' })).toHaveAttribute(
    'href',
    '/livechat/create',
  );

  // The demo business already has a bot, and Telegram connects once per business: the
  // button says so, and the old bot has to be disconnected before a new one comes in.
  const connectButton = page.getByRole('button', { name: 'Hubungkan Telegram' });
  const demoBot = rows.filter({ hasText: '@TokoDemoBot' });
  await expect(demoBot).toContainText('Terhubung');
  await expect(connectButton).toBeDisabled();
  await demoBot.getByRole('button', { name: 'Putuskan @TokoDemoBot' }).click();
  const confirm = page.getByRole('dialog', { name: 'Putuskan channel?' });
  await confirm.getByRole('button', { name: 'Ya, putuskan' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(demoBot).toHaveCount(0);

  await connectButton.click();
  const dialog = page.getByRole('dialog', { name: 'Hubungkan bot Telegram' });
  await expect(dialog.getByText('@BotFather', { exact: false }).first()).toBeVisible();
  const tokenInput = dialog.getByRole('textbox', { name: /^Token bot/ });

  // Not shaped like a token: refused before anything is sent.
  await tokenInput.fill('token-asal-asalan');
  await dialog.getByRole('button', { name: 'Hubungkan', exact: true }).click();
  await expect(dialog.getByText('Token tidak valid')).toBeVisible();

  // Shaped like one, but Telegram knows no such bot: the server's "Invalid token", in Indonesian.
  await tokenInput.fill(`${bot.id + 1}:AA${'x'.repeat(33)}`);
  await expect(dialog.getByText('Token tidak valid')).toHaveCount(0);
  const refused = page.waitForResponse(
    (response) => response.url().endsWith('/api/channels/telegram') && response.request().method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Hubungkan', exact: true }).click();
  expect((await refused).status()).toBe(400);
  await expect(dialog.getByText('Token tidak valid')).toBeVisible();

  await tokenInput.fill(bot.token);
  await dialog.getByRole('button', { name: 'Hubungkan', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Toko E2E terhubung')).toBeVisible();

  const telegram = rows.filter({ hasText: '@toko_e2e_bot' });
  await expect(telegram).toContainText('Telegram');
  await expect(telegram).toContainText('Toko E2E');
  await expect(telegram).toContainText('Terhubung');
  await expect(telegram.getByRole('button', { name: 'Putuskan Toko E2E' })).toBeVisible();
  await expect(connectButton).toBeDisabled();
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: '/tmp/channels-tab.png' });

  // The server told Telegram where to deliver; a customer writes to the bot.
  const delivery = await simulator.customerWrites(bot.token, {
    chatId: 7001,
    firstName: 'Rina',
    text: 'Halo dari Telegram',
  });
  expect(delivery.status).toBe(200);

  await page.goto('/customer-service/inbox');
  // The demo has other Rinas; this one is only "Rina", on Telegram.
  const chat = page
    .getByTestId('ticket-row')
    .filter({ has: page.getByText('Rina', { exact: true }) })
    .filter({ hasText: 'Telegram' });
  await expect(chat).toBeVisible();
  await chat.click();
  await expect(
    page.getByTestId('chat-room').getByTestId('message-bubble').filter({ hasText: 'Halo dari Telegram' }),
  ).toBeVisible();
});
