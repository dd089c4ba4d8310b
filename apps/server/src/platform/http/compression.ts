import { gzip, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The API's answers compressed for clients that accept it, as browsers always do. A page of
 * 50 tickets is about 36 KB of JSON and a room's page of 50 messages about 20 KB; gzipped they
 * are a fifth of that, which is what an agent on a phone's network waits for. The web app's
 * own files are compressed once at build time (`@fastify/static`'s `preCompressed`); this is
 * for what is written per request.
 *
 * gzip at level 3: on a 36 KB ticket page it costs about 70 µs of CPU alone in a loop (about
 * 0.2 ms inside a busy server, bench/history.md, fiftieth stop) and gives 7.5 KB, as small as
 * brotli's quality 1 at the same cost (quality 4: 7.1 KB for 175 µs), and every client
 * decodes it. Done in the request's own thread below `asyncFromBytes`, since the
 * thread pool's hand-off cost about 50 µs more of CPU than the compression itself; larger
 * answers (an export) go to the pool so the event loop is never held for long.
 */
export interface CompressionOptions {
  /** Answers shorter than this go as they are: under one TCP segment, nothing is saved. */
  minBytes?: number;
  /** From this size the compression runs in zlib's thread pool instead of the request's thread. */
  asyncFromBytes?: number;
}

const compressible = /^(application\/json|text\/)/i;

/**
 * Whether the Accept-Encoding header allows gzip: named (or `*`) with a quality above zero.
 * `gzip;q=0` refuses it even where `*` allows everything else.
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  if (!header) return false;
  let named: number | undefined;
  let any: number | undefined;
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [rawName, ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(param)).find(Boolean);
    const quality = q ? Number(q[1]) : 1;
    if (name === 'gzip' || name === 'x-gzip') named = quality;
    else if (name === '*') any = quality;
  }
  return (named ?? any ?? 0) > 0;
}

/** Adds a field to the answer's Vary header, keeping what another hook put there. */
export function addVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  const fields =
    current === undefined
      ? []
      : String(current)
          .split(',')
          .map((value) => value.trim());
  if (fields.some((value) => value === '*' || value.toLowerCase() === field.toLowerCase())) return;
  reply.header('vary', [...fields.filter(Boolean), field].join(', '));
}

function shouldCompress(
  request: FastifyRequest,
  reply: FastifyReply,
  size: number,
  minBytes: number,
): boolean {
  if (size < minBytes || request.method === 'HEAD') return false;
  if (reply.statusCode === 204 || reply.statusCode === 304) return false;
  if (reply.getHeader('content-encoding') !== undefined) return false;
  return compressible.test(String(reply.getHeader('content-type') ?? ''));
}

/** Registers the onSend hook that gzips answers; register it before any route. */
export function registerCompression(app: FastifyInstance, options: CompressionOptions = {}): void {
  const minBytes = options.minBytes ?? 1400;
  const asyncFromBytes = options.asyncFromBytes ?? 256 * 1024;
  const zlibOptions = { level: 3 };

  // Callback style, not async: the hook runs on every answer, and most take the plain path.
  app.addHook('onSend', (request, reply, payload, done) => {
    // Streams (files, the web app's pre-compressed assets) and empty answers pass by.
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    // A string's UTF-8 bytes are at least its UTF-16 units, so only a short one is measured:
    // counting a 33 KB page's bytes again cost a pass over it on every answer, asked for or not.
    const size =
      typeof payload !== 'string' || payload.length >= minBytes ? payload.length : Buffer.byteLength(payload);
    if (!shouldCompress(request, reply, size, minBytes)) return done(null, payload);
    // The answer depends on the header even when it goes plain, for every cache on the way.
    addVary(reply, 'Accept-Encoding');
    if (!acceptsGzip(request.headers['accept-encoding'])) return done(null, payload);
    const send = (compressed: Buffer) => {
      reply.header('content-encoding', 'gzip');
      reply.removeHeader('content-length');
      done(null, compressed);
    };
    if (size < asyncFromBytes) return send(gzipSync(payload, zlibOptions));
    gzip(payload, zlibOptions, (error, compressed) => (error ? done(error) : send(compressed)));
  });
}
