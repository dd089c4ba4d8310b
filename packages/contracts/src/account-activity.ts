import { z } from 'zod';

/** One signed-in session's account-activity record (core-inbox §7 Plus). */
export const accountActivity = z.object({
  id: z.string().uuid(),
  clientId: z.string().uuid(),
  userId: z.string().uuid(),
  sessionId: z.string().uuid().nullable(),
  email: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type AccountActivity = z.infer<typeof accountActivity>;

/** The records the caller may see: the whole client's for admins, their own otherwise. */
export const accountActivityListResponse = z.object({ content: z.array(accountActivity) });
export type AccountActivityListResponse = z.infer<typeof accountActivityListResponse>;

/** Deletes a user's records, named by client and e-mail as in the spec. */
export const deleteAccountActivityBody = z.object({
  clientId: z.string().uuid(),
  email: z.string().trim().toLowerCase().email().max(254),
});
export type DeleteAccountActivityBody = z.infer<typeof deleteAccountActivityBody>;

export const deleteAccountActivityResponse = z.object({ deleted: z.number().int() });
