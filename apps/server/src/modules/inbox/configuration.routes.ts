import {
  agentGroupListResponse,
  assignableAgentListResponse,
  inboxConfiguration,
  inboxConfigurationBody,
} from '@app/contracts';
import type { App } from '../../platform/http/app';
import { callerOf, permission } from '../../platform/http/route-access';
import { inboxRouteErrors } from './chat-room.routes';
import type { InboxSettingsService } from './inbox-settings.service';

const security = [{ bearer: [] }];
const read = permission('CUSTOMER_SERVICE_INBOX');

/** The chat-service configuration, and the transfer dialog's agents and groups. */
export function registerConfigurationRoutes(app: App, settings: InboxSettingsService): void {
  app.get(
    '/api/csp/configuration',
    {
      schema: { tags: ['inbox'], security, response: { 200: inboxConfiguration, ...inboxRouteErrors } },
      config: { access: read },
    },
    async (request) => settings.configuration(callerOf(request)),
  );

  app.put(
    '/api/csp/configuration',
    {
      schema: {
        tags: ['inbox'],
        security,
        body: inboxConfigurationBody,
        response: { 200: inboxConfiguration, ...inboxRouteErrors },
      },
      config: { access: permission('CUSTOMER_SERVICE_SETTING', 'UPDATE') },
    },
    async (request) => settings.saveConfiguration(callerOf(request), request.body),
  );

  app.get(
    '/api/csp/groups',
    {
      schema: { tags: ['inbox'], security, response: { 200: agentGroupListResponse, ...inboxRouteErrors } },
      config: { access: read },
    },
    async (request) => settings.groups(callerOf(request)),
  );

  app.get(
    '/api/csp/agents',
    {
      schema: {
        tags: ['inbox'],
        security,
        response: { 200: assignableAgentListResponse, ...inboxRouteErrors },
      },
      config: { access: read },
    },
    async (request) => settings.agents(callerOf(request)),
  );
}
