/** Being built: replaced by the feature's screen. */
export function AuditLogPage() {
  return null;
}
