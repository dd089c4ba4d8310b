import type { TicketListResponse } from '@app/contracts';
import type { TestServer } from '../../test/test-server';

/** A list's query fields; undefined leaves a field of the defaults out. */
export type ListQuery = Record<string, string | number | undefined>;

/** The ticket table; the inbox is `/api/csp/chatRoom`. */
export const ticketTablePath = '/api/ticket/ticket/list';

/**
 * A page of a ticket list as the token's user asks for it: the creation range's tickets, 100
 * to a page, unless the query says otherwise. Answers the body with the status beside it.
 */
export async function listTickets(
  server: TestServer,
  token: string,
  range: Record<string, string>,
  query: ListQuery = {},
  path = ticketTablePath,
): Promise<TicketListResponse & { status: number }> {
  const params = new URLSearchParams({ ...range, pageSize: '100' });
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) params.delete(key);
    else params.set(key, String(value));
  }
  const response = await server.request<TicketListResponse>('GET', `${path}?${params}`, { token });
  return { ...response.body, status: response.status };
}

export const idsOf = (response: TicketListResponse) => response.content.map((ticket) => ticket.id);
