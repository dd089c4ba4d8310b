import {
  auditLogEntry,
  auditLogPage,
  auditLogQuery,
  auditTypeListResponse,
  errorObject,
  postAuditLogBody,
} from '@app/contracts';
import type { App } from '../../platform/http/app';
import { callerOf } from '../../platform/http/route-access';
import { auditReadAccess } from './audit.policy';
import type { AuditService } from './audit.service';

const errors = { 400: errorObject, 401: errorObject, 403: errorObject, 404: errorObject };
const security = [{ bearer: [] }];

/**
 * The audit log (core-inbox §7 POST logs, GET logs/byclient; ticket service GET auditLogs).
 * Every read is the caller's own client: another client's rows are never reachable.
 */
export function registerAuditRoutes(app: App, audit: AuditService): void {
  app.post(
    '/api/log/logs',
    {
      schema: {
        tags: ['log'],
        security,
        body: postAuditLogBody,
        response: { 200: auditLogEntry, ...errors },
      },
      config: { access: 'authenticated' },
    },
    async (request) => audit.post(callerOf(request), request.body, request.ip),
  );

  app.get(
    '/api/log/logs/byclient',
    {
      schema: {
        tags: ['log'],
        security,
        querystring: auditLogQuery,
        response: { 200: auditLogPage, ...errors },
      },
      config: { access: auditReadAccess },
    },
    async (request) => audit.list(callerOf(request), request.query),
  );

  app.get(
    '/api/log/logs/types',
    {
      schema: {
        tags: ['log'],
        security,
        response: { 200: auditTypeListResponse, ...errors },
      },
      config: { access: auditReadAccess },
    },
    async (request) => ({ content: await audit.types(callerOf(request)) }),
  );

  app.get(
    '/api/log/logs/download',
    {
      schema: { tags: ['log'], security, querystring: auditLogQuery },
      config: { access: auditReadAccess },
    },
    async (request, reply) => {
      const csv = await audit.download(callerOf(request), request.query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .send(csv);
    },
  );

  // The ticket service reads the same rows under the same permission: one rule for one log.
  app.get(
    '/api/ticket/auditLogs',
    {
      schema: {
        tags: ['ticket'],
        security,
        querystring: auditLogQuery,
        response: { 200: auditLogPage, ...errors },
      },
      config: { access: auditReadAccess },
    },
    async (request) => audit.list(callerOf(request), request.query),
  );
}
