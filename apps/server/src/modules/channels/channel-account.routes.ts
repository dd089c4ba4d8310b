import {
  channelAccountIdParams,
  channelAccountList,
  channelAccountView,
  channelManagerRoles,
  connectTelegramBody,
  errorObject,
} from '@app/contracts';
import { z } from 'zod';
import type { App } from '../../platform/http/app';
import { forbidden } from '../../platform/http/http-errors';
import { callerOf, permission } from '../../platform/http/route-access';
import type { ChannelAccountService } from './channel-account.service';

const errors = {
  400: errorObject,
  401: errorObject,
  403: errorObject,
  404: errorObject,
  409: errorObject,
  502: errorObject,
};
const security = [{ bearer: [] }];

/** Business settings, channel tab: the client's channel accounts. */
export function registerChannelAccountRoutes(app: App, accounts: ChannelAccountService): void {
  app.get(
    '/api/channels/accounts',
    {
      schema: { tags: ['channels'], security, response: { 200: channelAccountList, ...errors } },
      config: { access: permission('SETTING_STORE') },
    },
    async (request) => ({ accounts: await accounts.list(callerOf(request)) }),
  );

  app.post(
    '/api/channels/telegram',
    {
      schema: {
        tags: ['channels'],
        security,
        body: connectTelegramBody,
        response: { 201: channelAccountView, ...errors },
      },
      config: { access: permission('SETTING_STORE', 'CREATE') },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (!channelManagerRoles.includes(caller.role)) throw forbidden();
      return reply.code(201).send(await accounts.connectTelegram(caller, request.body));
    },
  );

  app.delete(
    '/api/channels/accounts/:id',
    {
      schema: {
        tags: ['channels'],
        security,
        params: channelAccountIdParams,
        response: { 204: z.null(), ...errors },
      },
      config: { access: permission('SETTING_STORE', 'DELETE') },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      if (!channelManagerRoles.includes(caller.role)) throw forbidden();
      await accounts.disconnect(caller, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
