import type { RouteAccess } from '../../platform/http/route-access';
import { permission } from '../../platform/http/route-access';

/** Reading and downloading the audit log is the logs setting (core-inbox §6 /setting/logs). */
export const auditReadAccess: RouteAccess = permission('SETTING_LOGS');
