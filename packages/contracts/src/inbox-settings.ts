import { z } from 'zod';
import { csPositions } from './inbox';

/** The inbox's settings: ticket categories, the chat-service configuration, groups and agents. */

export const categoryView = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string().nullable(),
});
export const categoryInput = z.object({
  name: z.string().trim().min(1).max(50),
  description: z.string().trim().max(200).nullable().optional(),
});

export const categoryListResponse = z.object({ content: z.array(categoryView) });

const configurationFlag = z.union([z.literal(0), z.literal(1)]);
/** The chat-service configuration (core-inbox §3); every switch is 0 until set. */
export const inboxConfiguration = z.object({
  featureCs: z.number().int().min(0),
  isAutoAssignFeature: configurationFlag,
  isDisplayChatroomEmoji: configurationFlag,
  isDisplayChatroomAttachment: configurationFlag,
  isDisplayChatroomCSName: configurationFlag,
});
export type InboxConfiguration = z.infer<typeof inboxConfiguration>;
export const inboxConfigurationBody = inboxConfiguration.partial();

/** A group a chat can be transferred to. */
export const agentGroupView = z.object({
  id: z.string().uuid(),
  name: z.string(),
  description: z.string().nullable(),
  isDefault: z.boolean(),
  memberIds: z.array(z.string().uuid()),
});
export const agentGroupListResponse = z.object({ content: z.array(agentGroupView) });

/** A user a chat can be assigned to, with their availability. */
export const assignableAgentView = z.object({
  id: z.string().uuid(),
  name: z.string(),
  email: z.string(),
  csPosition: z.enum(csPositions).nullable(),
  agentStatus: z.enum(['ONLINE', 'OFFLINE']),
});
export const assignableAgentListResponse = z.object({ content: z.array(assignableAgentView) });
