import { z } from 'zod';

/**
 * A room a socket listens in: a whole client, one user, one ticket, everyone of a client
 * who sees every chat (`inbox`), or everyone who sees the unassigned queue (`queue`).
 */
export const roomName = z.string().regex(/^(client|user|ticket|inbox|queue):[0-9a-zA-Z-]{1,64}$/);

/** Messages a socket client sends. */
export const socketClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), room: roomName }),
  z.object({ type: z.literal('unsubscribe'), room: roomName }),
  z.object({ type: z.literal('ping') }),
]);
export type SocketClientMessage = z.infer<typeof socketClientMessage>;

/** Messages the server sends; every event carries its increasing cursor. */
export const socketServerMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), cursor: z.string() }),
  z.object({
    type: z.literal('event'),
    cursor: z.string(),
    topic: z.string(),
    payload: z.record(z.string(), z.unknown()),
    at: z.string(),
  }),
  z.object({ type: z.literal('resync'), cursor: z.string() }),
  z.object({ type: z.literal('subscribed'), room: roomName }),
  z.object({ type: z.literal('error'), message: z.string() }),
  z.object({ type: z.literal('pong') }),
]);
export type SocketServerMessage = z.infer<typeof socketServerMessage>;

/** Event topics of the platform and identity. */
export const eventTopics = {
  agentStatusChanged: 'agent.status_changed',
  sessionRevoked: 'identity.session_revoked',
  passwordChanged: 'identity.password_changed',
  userSignedIn: 'identity.user_signed_in',
} as const;

/** Payload of agent.status_changed, sent to the client room. */
export const agentStatusChangedPayload = z.object({
  userId: z.string().uuid(),
  status: z.enum(['ONLINE', 'OFFLINE']),
});

/** Reconnection rules of the chat socket (core-inbox §4, §9). */
export const socketReconnect = {
  attempts: 10,
  factor: 1.3,
  minDelayFromMs: 1000,
  minDelayToMs: 5000,
  maxDelayMs: 10_000,
  connectTimeoutMs: 4000,
  resetAfterUptimeMs: 5000,
  reconnectAfterCloseMs: 1000,
} as const;
