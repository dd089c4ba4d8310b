import type { StoredAttachment } from '../inbox/attachment-store';

/**
 * The seam where a channel adapter plugs in its provider's media download (core-inbox §7
 * 'Inbox media'): providers hand out links that need the channel's credentials or expire
 * within minutes, so the inbox shows a placeholder and asks `GET /api/csp/image`, which
 * finds the resolver for the link's host. A resolver fetches the file (its adapter's
 * fetchMedia), keeps it with `MediaService.saveFile`, and answers the stored attachment;
 * it should remember what it stored, so a second ask of the same link downloads nothing.
 */
export interface MediaResolver {
  /** Hosts it serves; each also matches its subdomains. */
  hosts: ReadonlyArray<string>;
  /** The stored file for the link, or null when the provider no longer has it. */
  resolve(request: { clientId: string; url: URL; mime?: string }): Promise<StoredAttachment | null>;
}

/** True when the host is `domain` or one of its subdomains. */
export function hostMatches(host: string, domain: string): boolean {
  const normalized = host.toLowerCase().replace(/\.$/, '');
  const wanted = domain.toLowerCase();
  return normalized === wanted || normalized.endsWith(`.${wanted}`);
}
