import { consentBody, consentResponse, errorObject } from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { callerOf } from '../../platform/http/route-access';
import { type ConsentService, consentDocuments } from './consent.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject };

/** The consent document and the user's answer to the consent dialog (core-inbox §4, §7). */
export function registerConsentRoutes(app: App, consent: ConsentService): void {
  app.put(
    '/api/identity/users/consent',
    {
      schema: {
        tags: ['identity'],
        security: [{ bearer: [] }],
        body: consentBody,
        response: { 200: consentResponse, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => consent.record(callerOf(request), request.body),
  );

  // The document is public text, like the configured link the spec fetches it from.
  app.get(
    '/api/identity/consent-document',
    {
      schema: {
        tags: ['identity'],
        querystring: z.object({ lang: z.enum(['id', 'en']).default('id') }),
        response: { 200: z.string() },
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      reply.type('text/plain; charset=utf-8');
      return consentDocuments[request.query.lang];
    },
  );
}
