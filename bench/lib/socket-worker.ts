// A socket load process. The bench starts it (socket-workers.ts) and sends it commands over
// IPC: sign agents in and hold their /ws sockets, timing every marked message they hear; or
// drive an inbound source (live-chat visitors, the bare pipeline) open- or closed-loop.
// It never runs in the server's process nor in the bench's. Times are epoch milliseconds
// with sub-millisecond precision (performance.timeOrigin + performance.now()), the same
// clock in every process of the machine.
import { inboxTopics } from '@app/contracts';
import WebSocket from 'ws';
import {
  conversationOfMarker,
  type InboundSource,
  inboundSourceOf,
  inParallel,
  markerKey,
  markerText,
} from './inbound-sources';
import {
  type ClosedLoopResult,
  type OpenLoopResult,
  percentile,
  type Receipts,
  type WorkerCommand,
} from './socket-workers';

const label = process.argv[2] ?? 'socket-worker';
const now = () => performance.timeOrigin + performance.now();

interface AgentSession {
  userId: string;
  accessToken: string;
}

let sessions: AgentSession[] = [];
let agentCount = 1;
const agentSockets: WebSocket[] = [];
let closedSockets = 0;
let receipts = new Map<string, number[]>();
let elsewhere = 0;
/** Frames the agents' sockets heard after their hello, of every kind. */
let frames = 0;
const sources: InboundSource[] = [];
/** Each conversation is sent through the source that opened it. */
const sourceOf = new Map<number, InboundSource>();

function send(conversation: number, text: string): Promise<void> {
  const source = sourceOf.get(conversation);
  if (!source) return Promise.reject(new Error(`conversation ${conversation} was not prepared`));
  return source.send({ conversation, text });
}

async function signIn(command: Extract<WorkerCommand, { cmd: 'sign-in' }>): Promise<string[]> {
  const indexes = Array.from({ length: command.agents }, (_, i) => i + 1);
  sessions = await inParallel(indexes, 4, async (n) => {
    const response = await fetch(`${command.baseUrl}/api/identity/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `agent${n}@${command.domain}`, password: command.password }),
    });
    if (!response.ok) throw new Error(`sign-in of agent${n}: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { accessToken: string; user: { id: string } };
    return { userId: body.user.id, accessToken: body.accessToken };
  });
  return sessions.map((session) => session.userId);
}

/** Records a marked message-created event when this agent is the one its conversation belongs to. */
function hear(agent: number, raw: string): void {
  // Most frames (counters, ticket updates) carry no marker: skip them before parsing.
  if (!raw.includes('"rt:')) return;
  const at = now();
  const frame = JSON.parse(raw) as {
    type: string;
    topic?: string;
    payload?: { message?: { text?: string } };
  };
  if (frame.type !== 'event' || frame.topic !== inboxTopics.messageCreated) return;
  const text = frame.payload?.message?.text ?? '';
  const conversation = conversationOfMarker(text);
  if (conversation === null) return;
  if (conversation % agentCount !== agent) {
    elsewhere += 1;
    return;
  }
  const key = markerKey(text);
  const times = receipts.get(key);
  if (times) times.push(at);
  else receipts.set(key, [at]);
}

async function connectAgents(command: Extract<WorkerCommand, { cmd: 'connect-agents' }>): Promise<number> {
  agentCount = command.agents;
  const wsBase = command.baseUrl.replace(/^http/, 'ws');
  const slots = Array.from(
    { length: command.agents * command.socketsPerAgent },
    (_, i) => i % command.agents,
  );
  await inParallel(slots, 50, (agent) => {
    const url = command.bare
      ? `${wsBase}/ws?agent=${agent}`
      : `${wsBase}/ws?token=${encodeURIComponent(sessions[agent].accessToken)}`;
    const socket = new WebSocket(url);
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      socket.on('error', (error) => {
        if (!ready) reject(error);
      });
      socket.on('close', () => {
        closedSockets += 1;
        if (!ready) reject(new Error(`agent socket closed before hello (agent${agent + 1})`));
      });
      socket.on('message', (data) => {
        const raw = data.toString();
        if (!ready && raw.startsWith('{"type":"hello"')) {
          ready = true;
          agentSockets.push(socket);
          resolve();
          return;
        }
        frames += 1;
        hear(agent, raw);
      });
    });
  });
  return agentSockets.length;
}

function collectReceipts(): Receipts {
  return {
    receipts: [...receipts.entries()],
    elsewhere,
    openSockets: agentSockets.filter((socket) => socket.readyState === WebSocket.OPEN).length,
    closedSockets,
  };
}

/** Sends at a fixed total rate, whatever the server's pace (open loop), round the conversations. */
async function openLoop(command: Extract<WorkerCommand, { cmd: 'open-loop' }>): Promise<OpenLoopResult> {
  const total = Math.round(command.rate * command.durationSeconds);
  const sent: OpenLoopResult['sent'] = [];
  const errors: Record<string, number> = {};
  const acks: Promise<void>[] = [];
  const fire = (index: number) => {
    const conversation = command.conversations[index % command.conversations.length];
    const text = markerText(command.runTag, conversation, index);
    const record: [string, number, number] = [markerKey(text), now(), -1];
    sent.push(record);
    acks.push(
      send(conversation, text).then(
        () => {
          record[2] = now() - record[1];
        },
        (error: Error) => {
          errors[error.message] = (errors[error.message] ?? 0) + 1;
        },
      ),
    );
  };
  const started = now();
  let issued = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((now() - started) * command.rate) / 1000) + 1);
      while (issued < due) fire(issued++);
      if (issued >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  const offeredRate = issued / ((now() - started) / 1000);
  // A server behind its load keeps answering: wait while answers still come, up to 3 minutes.
  let allAnswered = false;
  void Promise.all(acks).then(() => {
    allAnswered = true;
  });
  const answered = () =>
    sent.filter((record) => record[2] >= 0).length + Object.values(errors).reduce((a, b) => a + b, 0);
  const waitUntil = now() + 180_000;
  let lastCount = 0;
  let lastProgress = now();
  while (!allAnswered && now() < waitUntil && now() - lastProgress < 15_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    if (answered() > lastCount) {
      lastCount = answered();
      lastProgress = now();
    }
  }
  return { sent, errors, offeredRate, drainSeconds: (now() - started) / 1000 - command.durationSeconds };
}

/**
 * As fast as the server answers: `concurrency` messages in flight, each on a conversation
 * with none in flight, each conversation at most `perConversation` messages.
 */
async function closedLoop(
  command: Extract<WorkerCommand, { cmd: 'closed-loop' }>,
): Promise<ClosedLoopResult> {
  const left = new Map(command.conversations.map((conversation) => [conversation, command.perConversation]));
  const busy = new Set<number>();
  const samples: number[] = [];
  const errors: Record<string, number> = {};
  let cursor = 0;
  let sequence = 0;
  let exhausted = false;
  const pick = (): number | null => {
    for (let tries = 0; tries < command.conversations.length; tries += 1) {
      const conversation = command.conversations[cursor++ % command.conversations.length];
      if (!busy.has(conversation) && (left.get(conversation) ?? 0) > 0) return conversation;
    }
    return null;
  };
  const started = now();
  const deadline = started + command.durationSeconds * 1000;
  await Promise.all(
    Array.from({ length: command.concurrency }, async () => {
      while (now() < deadline) {
        const conversation = pick();
        if (conversation === null) {
          exhausted = true;
          return;
        }
        busy.add(conversation);
        left.set(conversation, (left.get(conversation) ?? 0) - 1);
        const t = now();
        try {
          await send(conversation, markerText(command.runTag, conversation, sequence++));
          samples.push(now() - t);
        } catch (error) {
          const message = (error as Error).message;
          errors[message] = (errors[message] ?? 0) + 1;
        } finally {
          busy.delete(conversation);
        }
      }
    }),
  );
  const seconds = (now() - started) / 1000;
  samples.sort((a, b) => a - b);
  return {
    acked: samples.length,
    errors,
    seconds,
    exhausted,
    ackMs: { p50: percentile(samples, 50), p99: percentile(samples, 99), max: samples.at(-1) ?? 0 },
  };
}

async function run(command: WorkerCommand): Promise<unknown> {
  switch (command.cmd) {
    case 'sign-in':
      return signIn(command);
    case 'connect-agents':
      return connectAgents(command);
    case 'receipts':
      return collectReceipts();
    case 'frames':
      return frames;
    case 'reset-receipts':
      receipts = new Map();
      elsewhere = 0;
      return null;
    case 'prepare': {
      const source = inboundSourceOf(command.source);
      sources.push(source);
      const prepared = await source.prepare(command.ctx);
      for (const { conversation } of prepared) sourceOf.set(conversation, source);
      return prepared;
    }
    case 'open-loop':
      return openLoop(command);
    case 'closed-loop':
      return closedLoop(command);
    case 'close':
      for (const socket of agentSockets) socket.close();
      for (const each of sources) await each.close();
      setTimeout(() => process.exit(0), 200);
      return null;
  }
}

process.on('message', (raw) => {
  const { id, command } = raw as { id: number; command: WorkerCommand };
  run(command).then(
    (result) => process.send?.({ id, ok: true, result }),
    (error: Error) => process.send?.({ id, ok: false, error: `${label}: ${error.message}` }),
  );
});
process.on('disconnect', () => process.exit(0));
