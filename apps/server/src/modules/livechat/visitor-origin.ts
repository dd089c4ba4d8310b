import type { FastifyReply, FastifyRequest } from 'fastify';
import { addVary } from '../../platform/http/compression';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An origin in a form two spellings of the same site share: lower case, default ports
 * dropped, and every loopback name as `localhost` (a laptop install is opened both as
 * localhost and 127.0.0.1, and both are the same machine). Null when it is no http origin.
 */
export function normalizeOrigin(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const host = loopbackHosts.has(url.hostname) ? 'localhost' : url.hostname.toLowerCase();
    const defaultPort = url.protocol === 'http:' ? '80' : '443';
    const port = url.port && url.port !== defaultPort ? `:${url.port}` : '';
    return `${url.protocol}//${host}${port}`;
  } catch {
    return null;
  }
}

/** `www.shop.com` and `shop.com` are one shop: the widget works on both. */
const withoutWww = (origin: string) => origin.replace('://www.', '://');

/**
 * Decides which pages may talk to a widget: the widget's own domain, and the app's own
 * origin (the demo visitor page and previews inside the dashboard). A request without an
 * Origin header is not from a browser page and is let through: an origin check only keeps
 * other websites' pages out, it is no authentication.
 */
export class VisitorOriginPolicy {
  constructor(private readonly publicUrl: string | undefined) {}

  /** The browser's Origin header, when there is one. */
  originOf(request: FastifyRequest): string | null {
    const origin = request.headers.origin;
    return typeof origin === 'string' && origin !== 'null' ? origin : null;
  }

  /** True when the origin is the app itself: PUBLIC_URL, or the host the request came to. */
  isAppOrigin(request: FastifyRequest, origin: string): boolean {
    const normalized = normalizeOrigin(origin);
    if (!normalized) return false;
    if (this.publicUrl && normalizeOrigin(this.publicUrl) === normalized) return true;
    return normalizeOrigin(`${request.protocol}://${request.host}`) === normalized;
  }

  /** True when the origin is the widget's domain. */
  matchesDomain(domain: string, origin: string): boolean {
    const expected = normalizeOrigin(domain);
    const actual = normalizeOrigin(origin);
    return expected !== null && actual !== null && withoutWww(expected) === withoutWww(actual);
  }

  /** Whether a browser page of this origin may use the widget. */
  allows(request: FastifyRequest, domain: string): boolean {
    const origin = this.originOf(request);
    if (!origin) return true;
    return this.matchesDomain(domain, origin) || this.isAppOrigin(request, origin);
  }

  /**
   * Lets the page read the answer (CORS) when its origin may use the widget. An error that
   * came before the widget was known (a 429, a bad id) is readable by any page: it carries
   * only a generic text, and the widget needs it to tell the visitor what happened.
   */
  allowCors(request: FastifyRequest, reply: FastifyReply, domain: string | null, isError: boolean): void {
    const origin = this.originOf(request);
    if (!origin) return;
    const allowed = domain ? this.allows(request, domain) : isError || this.isAppOrigin(request, origin);
    if (!allowed) return;
    reply.header('access-control-allow-origin', origin);
    addVary(reply, 'Origin');
  }
}
