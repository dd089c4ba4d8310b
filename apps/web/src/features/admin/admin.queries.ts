import {
  type AdminUserBody,
  adminErrorMessages,
  adminUserListResponse,
  adminUserView,
  agentGroupListResponse,
  type ErrorObject,
  type FeatureAccessGroupBody,
  featureAccessGroupView,
  featureAccessListResponse,
  messageResponse,
} from '@app/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { api, dataOrThrow } from '../../shared/api-client';
import { errorText } from '../../shared/i18n';

export type AdminErrorKey = keyof typeof adminErrorMessages;

/** The admin catalogue key whose English text the server answered, if any. */
export function adminErrorKeyOf(message: string | undefined): AdminErrorKey | undefined {
  return (Object.keys(adminErrorMessages) as AdminErrorKey[]).find(
    (key) => adminErrorMessages[key] === message,
  );
}

/** The locale's text for a failed admin call: this screen's catalogue first, then the shared one. */
export function adminErrorText(t: TFunction, error: ErrorObject): string {
  const key = adminErrorKeyOf(error.message);
  return key ? t(`admin.errors.${key}`) : errorText(t, error);
}

export const adminUsersKey = ['admin', 'users'] as const;
export const featureAccessKey = ['admin', 'feature-access'] as const;

/** The client's users for the admin table, with the plan's user limit. */
export function adminUsersQueryOptions(search: string) {
  return queryOptions({
    queryKey: [...adminUsersKey, search],
    queryFn: async () =>
      dataOrThrow(
        await api.get('/api/identity/admin-users', {
          query: { search: search || undefined },
          schema: adminUserListResponse,
        }),
      ),
  });
}

export function featureAccessQueryOptions() {
  return queryOptions({
    queryKey: featureAccessKey,
    queryFn: async () =>
      dataOrThrow(
        await api.get('/api/identity/feature-access/list', {
          query: { isDeleted: 'false' },
          schema: featureAccessListResponse,
        }),
      ).content,
  });
}

/** Agent groups the user can join (kept by the inbox settings). */
export function agentGroupsQueryOptions() {
  return queryOptions({
    queryKey: ['admin', 'agent-groups'],
    queryFn: async () =>
      dataOrThrow(await api.get('/api/csp/groups', { schema: agentGroupListResponse })).content,
  });
}

export function saveAdminUser(id: string | null, body: AdminUserBody) {
  return id
    ? api.put(`/api/identity/admin-users/${id}`, body, { schema: adminUserView })
    : api.post('/api/identity/admin-users', body, { schema: adminUserView });
}

export function deleteAdminUser(id: string) {
  return api.request(`/api/identity/admin-users/${id}`, { method: 'DELETE', schema: messageResponse });
}

export function saveFeatureAccessGroup(id: string | null, body: FeatureAccessGroupBody) {
  return id
    ? api.put(`/api/identity/feature-access/${id}`, body, { schema: featureAccessGroupView })
    : api.post('/api/identity/feature-access', body, { schema: featureAccessGroupView });
}

export function deleteFeatureAccessGroup(id: string) {
  return api.request(`/api/identity/feature-access/${id}`, { method: 'DELETE', schema: messageResponse });
}
