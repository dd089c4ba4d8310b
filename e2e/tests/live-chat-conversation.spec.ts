import { expect, type Page, test } from '@playwright/test';
import { demoUsers, signIn } from '../support/demo';
import { agentMessages, openVisitor, startChat, uniqueWord, visitorSays } from '../support/live-chat';

/** Holds the page's chat socket in its connecting state until the returned function is called. */
async function holdChatSocket(page: Page): Promise<() => void> {
  let openGate = () => {};
  const gate = new Promise<void>((resolve) => {
    openGate = resolve;
  });
  await page.routeWebSocket(/\/ws\?/, async (ws) => {
    await gate;
    ws.connectToServer();
  });
  return openGate;
}

/** The room pages the page asks for from now on: the newest page, and pages after a message. */
function roomPageRequests(page: Page): { newest: string[]; after: string[] } {
  const seen = { newest: [] as string[], after: [] as string[] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() !== 'GET' || url.pathname !== '/api/csp/chat') return;
    if (url.searchParams.has('after')) seen.after.push(url.search);
    else if (!url.searchParams.has('before')) seen.newest.push(url.search);
  });
  return seen;
}

test('a visitor writes through the widget; an agent answers live, closes the chat with a remark, and search finds it', async ({
  browser,
  page,
}) => {
  const word = uniqueWord('sepatu');
  const visitorName = `Rina ${word.slice(-5)}`;

  // The agent has the inbox open before the visitor writes: the chat must arrive by itself.
  await signIn(page, demoUsers.agent1);
  await expect(page).toHaveURL(/\/customer-service\/inbox$/);
  await page.getByTestId('tab-unassigned').click();
  const list = page.getByTestId('conversation-list');
  await expect(list.getByTestId('conversation-row').first()).toBeVisible();

  const visitor = await openVisitor(browser);
  await startChat(visitor, visitorName, `${word}@example.com`);
  await visitorSays(visitor, `Halo, saya mau tanya ${word} ukuran 42`);
  await visitorSays(visitor, '<b>tebal</b><img src=x onerror="document.title=\'pwned\'">');

  const row = list.getByTestId('conversation-row').filter({ hasText: visitorName });
  await expect(row).toBeVisible();
  // Opening the room reads its newest page once: the catch-up that follows the room's join
  // asks only for what came after that page.
  const roomPages = roomPageRequests(page);
  await row.click();
  await expect(page).toHaveURL(/\/customer-service\/inbox-chatroom\?referenceId=\d+$/);
  const room = page.getByTestId('chat-room');
  await expect(
    room.getByTestId('message-bubble').filter({ hasText: `saya mau tanya ${word}` }),
  ).toBeVisible();
  await expect.poll(() => roomPages.after.length).toBeGreaterThan(0);
  expect(roomPages.newest).toHaveLength(1);
  // Markup in a message is text on the agent's screen too.
  await expect(room.getByText('<b>tebal</b><img src=x onerror="document.title=\'pwned\'">')).toBeVisible();
  expect(await page.title()).not.toBe('pwned');

  const reply = `Halo Kak ${visitorName}, ukuran 42 masih ada.`;
  await page.getByTestId('composer-input').fill(reply);
  await page.getByTestId('composer-send').click();
  await expect(room.getByTestId('message-bubble').filter({ hasText: reply })).toBeVisible();

  await expect(agentMessages(visitor).filter({ hasText: reply })).toBeVisible();
  // After a reload the visitor still has the whole conversation.
  await visitor.reload();
  await visitor.locator('[data-testid=livechat-widget] .bubble').click();
  await expect(agentMessages(visitor).filter({ hasText: reply })).toBeVisible();
  await expect(
    visitor.locator('[data-testid=livechat-message-visitor]').filter({ hasText: `saya mau tanya ${word}` }),
  ).toBeVisible();
  await page.screenshot({ path: 'test-results/chat-room.png' });

  await page.getByTestId('resolve-button').click();
  await page.getByTestId('close-submit').click();
  // A remark is required.
  await expect(page.getByTestId('close-remark')).toBeVisible();
  await page.getByTestId('close-remark').fill('Pertanyaan stok terjawab');
  await page.getByTestId('close-submit').click();
  await expect(page).toHaveURL(/\/customer-service\/inbox$/);

  await page.goto('/customer-service/chat-history');
  await page.getByPlaceholder(/Cari/).fill(word);
  const hit = page.getByTestId('search-hit').filter({ hasText: visitorName });
  await expect(hit).toBeVisible();
  await expect(hit).toContainText('Pertanyaan stok terjawab');
  await visitor.context().close();
});

test('an agent who reloads in the middle of a conversation misses no message', async ({ browser, page }) => {
  const word = uniqueWord('kaos');
  const visitorName = `Joko ${word.slice(-5)}`;
  const visitor = await openVisitor(browser);
  await startChat(visitor, visitorName, `${word}@example.com`);
  await visitorSays(visitor, `Pesan pertama ${word}`);

  await signIn(page, demoUsers.owner);
  await page.goto('/customer-service/ticket-view');
  const row = page.getByTestId('ticket-row').filter({ hasText: visitorName });
  await expect(row).toBeVisible();
  await row.click();
  const room = page.getByTestId('chat-room');
  await expect(room.getByTestId('message-bubble').filter({ hasText: `Pesan pertama ${word}` })).toBeVisible();
  await page.getByTestId('composer-input').fill('Sebentar ya Kak, kami cek.');
  await page.getByTestId('composer-send').click();
  await expect(agentMessages(visitor).filter({ hasText: 'Sebentar ya Kak' })).toBeVisible();

  // The visitor keeps writing while the agent's page reloads.
  const reloading = page.reload();
  await visitorSays(visitor, `Pesan kedua ${word}`);
  await visitorSays(visitor, `Pesan ketiga ${word}`);
  await reloading;
  await visitorSays(visitor, `Pesan keempat ${word}`);

  const bubbles = page.getByTestId('chat-room').getByTestId('message-bubble');
  for (const text of ['Pesan pertama', 'Sebentar ya Kak', 'Pesan kedua', 'Pesan ketiga', 'Pesan keempat']) {
    await expect(bubbles.filter({ hasText: text })).toHaveCount(1);
  }
  const order = await bubbles.allInnerTexts();
  const positions = ['Pesan pertama', 'Pesan kedua', 'Pesan ketiga', 'Pesan keempat'].map((text) =>
    order.findIndex((bubble) => bubble.includes(text)),
  );
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
  await visitor.context().close();
});

test('messages stored while the agent socket is still coming up appear once it is ready', async ({
  browser,
  page,
}) => {
  const word = uniqueWord('tas');
  const visitorName = `Sari ${word.slice(-5)}`;
  const visitor = await openVisitor(browser);
  await startChat(visitor, visitorName, `${word}@example.com`);
  await visitorSays(visitor, `Pesan pertama ${word}`, { stored: true });

  // Until the gate opens, the agent's chat socket hangs while connecting, as on a slow network.
  const openGate = await holdChatSocket(page);

  await signIn(page, demoUsers.owner);
  await page.goto('/customer-service/ticket-view');
  await page.getByTestId('ticket-row').filter({ hasText: visitorName }).click();
  const bubbles = page.getByTestId('chat-room').getByTestId('message-bubble');
  await expect(bubbles.filter({ hasText: `Pesan pertama ${word}` })).toBeVisible();

  // Stored after the room was fetched and before any socket could carry them.
  await visitorSays(visitor, `Pesan kedua ${word}`, { stored: true });
  await visitorSays(visitor, `Pesan ketiga ${word}`, { stored: true });
  openGate();

  // Within the time a reconnect takes, well before the room's 30 s safety catch-up.
  for (const text of ['Pesan kedua', 'Pesan ketiga']) {
    await expect(bubbles.filter({ hasText: text })).toHaveCount(1, { timeout: 15_000 });
  }
  // And the socket is live: a later message arrives by itself.
  await visitorSays(visitor, `Pesan keempat ${word}`);
  await expect(bubbles.filter({ hasText: 'Pesan keempat' })).toHaveCount(1);
  await visitor.context().close();
});

test('a chat that starts while the agent socket is still coming up appears in the list once it is ready', async ({
  browser,
  page,
}) => {
  const openGate = await holdChatSocket(page);
  await signIn(page, demoUsers.owner);
  await page.goto('/customer-service/ticket-view');
  await expect(page.getByTestId('ticket-row').first()).toBeVisible();

  const word = uniqueWord('topi');
  const visitorName = `Dewi ${word.slice(-5)}`;
  const visitor = await openVisitor(browser);
  await startChat(visitor, visitorName, `${word}@example.com`);
  await visitorSays(visitor, `Halo ${word}`, { stored: true });
  openGate();

  await expect(page.getByTestId('ticket-row').filter({ hasText: visitorName })).toBeVisible({
    timeout: 15_000,
  });
  await visitor.context().close();
});
