import { Readable } from 'node:stream';
import {
  errorObject,
  isInlineMedia,
  mediaErrors,
  mediaImageQuery,
  mediaImageResponse,
  mediaLimits,
  multiAttachmentResponse,
  signedLinkQuery,
  storedFileView,
  uploadLinkQuery,
  uploadLinkResponse,
} from '@app/contracts';
import type { FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { badRequest, forbidden, HttpError } from '../../platform/http/http-errors';
import { callerOf, permission } from '../../platform/http/route-access';
import { mayUploadMedia, userOwnerRef } from './media.policy';
import type { MediaService, OpenedMedia } from './media.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 404: errorObject };
const security = [{ bearer: [] }];
const fileParams = z.object({ fileId: z.string().max(64) });

/** `attachment; filename=...` with an ASCII fallback and the exact UTF-8 name beside it. */
function dispositionOf(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\w.-]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Sends a stored file so that it can never act as a page of ours: the stored type with
 * nosniff, `attachment` unless it is an image, audio or video, and a CSP that allows
 * nothing. Other sites may embed it (the live-chat widget runs on the customer's site).
 */
function sendMedia(reply: FastifyReply, opened: OpenedMedia, expires: number): FastifyReply {
  const secondsLeft = Math.max(0, expires - Math.floor(Date.now() / 1000));
  return reply
    .type(opened.file.mime)
    .header('content-length', opened.size)
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-disposition',
      dispositionOf(isInlineMedia(opened.file.mime) ? 'inline' : 'attachment', opened.file.name),
    )
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('cache-control', `private, max-age=${secondsLeft}`)
    .send(opened.stream);
}

/** Inbox media (core-inbox §7): upload links and their PUT, signed reads, provider media, multi-file upload. */
export function registerMediaRoutes(app: App, media: MediaService): void {
  app.get(
    '/api/csp/upload/getLink',
    {
      schema: {
        tags: ['media'],
        security,
        querystring: uploadLinkQuery,
        response: { 200: uploadLinkResponse, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => {
      const caller = callerOf(request);
      if (!mayUploadMedia(caller)) throw forbidden();
      return media.createUpload(caller.clientId, userOwnerRef(caller), request.query);
    },
  );

  app.get(
    '/api/media/:fileId',
    {
      schema: { tags: ['media'], params: fileParams, querystring: signedLinkQuery },
      // The signed link is the authority, so that <img> and <video> can load it.
      config: { access: 'public' },
    },
    async (request, reply) => {
      const opened = await media.readSigned(request.params.fileId, request.query);
      return sendMedia(reply, opened, request.query.expires);
    },
  );

  app.get(
    '/api/csp/image',
    {
      schema: {
        tags: ['media'],
        security,
        querystring: mediaImageQuery,
        response: { 200: mediaImageResponse, ...errors },
      },
      config: { access: permission('CUSTOMER_SERVICE_INBOX') },
    },
    async (request) => {
      const caller = callerOf(request);
      return {
        url: await media.readableLink(caller.clientId, request.query.media, { mime: request.query.mime }),
      };
    },
  );

  app.post(
    '/api/csp/image/multiAttachment',
    {
      schema: {
        tags: ['media'],
        security,
        consumes: ['multipart/form-data'],
        response: { 200: multiAttachmentResponse, 413: errorObject, ...errors },
      },
      config: { access: permission('CUSTOMER_SERVICE_INBOX') },
    },
    async (request) => {
      const caller = callerOf(request);
      if (!request.isMultipart()) throw badRequest(mediaErrors.noFiles);
      const saved = [];
      // One past each limit, so that exceeding it is seen here rather than cut off silently.
      const files = request.files({
        limits: { fileSize: mediaLimits.uploadMaxBytes + 1, files: mediaLimits.filesPerUpload + 1 },
      });
      try {
        for await (const part of files) {
          if (saved.length >= mediaLimits.filesPerUpload) throw badRequest(mediaErrors.tooManyFiles);
          const stored = await media.saveStream(
            caller.clientId,
            userOwnerRef(caller),
            { name: part.filename || 'file', mime: part.mimetype },
            part.file,
          );
          saved.push(media.viewOf(caller.clientId, stored));
        }
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HttpError(413, mediaErrors.fileTooLarge);
        if (code === 'FST_FILES_LIMIT') throw badRequest(mediaErrors.tooManyFiles);
        throw error;
      }
      if (saved.length === 0) throw badRequest(mediaErrors.noFiles);
      return { attachments: saved };
    },
  );

  // The upload takes the raw body as a stream of any type, up to the largest file a channel
  // allows; only this scope parses bodies that way.
  app.register(async (scope) => {
    const upload = scope.withTypeProvider<ZodTypeProvider>();
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    upload.put(
      '/api/media/upload/:fileId',
      {
        bodyLimit: mediaLimits.uploadMaxBytes,
        schema: {
          tags: ['media'],
          params: fileParams,
          querystring: signedLinkQuery,
          response: { 200: storedFileView, 409: errorObject, 413: errorObject, ...errors },
        },
        // The signature in the link (made by getLink for a signed-in user) is the authority.
        config: { access: 'public' },
      },
      async (request) => {
        const declared = Number(request.headers['content-length']);
        return media.completeUpload(request.params.fileId, request.query, {
          contentType: request.headers['content-type'],
          declaredSize: Number.isFinite(declared) ? declared : undefined,
          content: (request.body as Readable | undefined) ?? Readable.from([]),
        });
      },
    );
  });
}
