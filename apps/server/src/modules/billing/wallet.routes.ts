import { errorObject, walletQuery, walletResponse } from '@app/contracts';
import type { App } from '../../platform/http/app';
import { notFound } from '../../platform/http/http-errors';
import { callerOf } from '../../platform/http/route-access';

/**
 * GET wallet/byClientId (core-inbox §7 Plus): the client's chat-credit and bonus balance.
 * Every signed-in user may read their own client's; billing will fill the numbers in.
 */
export function registerWalletRoutes(app: App): void {
  app.get(
    '/api/plus/wallet/byClientId',
    {
      schema: {
        tags: ['plus'],
        security: [{ bearer: [] }],
        querystring: walletQuery,
        response: { 200: walletResponse, 401: errorObject, 404: errorObject },
      },
      config: { access: 'authenticated' },
    },
    async (request) => {
      const caller = callerOf(request);
      if (request.query.clientId && request.query.clientId !== caller.clientId) throw notFound();
      return { clientId: caller.clientId, chatCredit: { balance: 0, balanceBonus: 0 } };
    },
  );
}
