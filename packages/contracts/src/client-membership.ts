import { z } from 'zod';
import { roles } from './permissions';

/** What client switching answers when it refuses (no spec text; worded like the others). */
export const clientMembershipErrorMessages = {
  notMember: 'You have no account in this client',
} as const;

/** One client the signed-in person can enter, with their role there (issue 14, multi-client). */
export const clientMembershipView = z.object({
  id: z.string().uuid(),
  name: z.string(),
  role: z.enum(roles),
  /** The client of the session that asked. */
  current: z.boolean(),
});
export type ClientMembershipView = z.infer<typeof clientMembershipView>;

/** GET users/clients: the holder's client first, then the others by name. */
export const clientMembershipListResponse = z.object({ content: z.array(clientMembershipView) });
export type ClientMembershipListResponse = z.infer<typeof clientMembershipListResponse>;

/** POST users/switch-client: the client to open a session in. */
export const switchClientBody = z.object({ clientId: z.string().uuid() });
export type SwitchClientBody = z.infer<typeof switchClientBody>;
