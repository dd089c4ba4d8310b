/** Being built: replaced by the feature's screen. */
export function AdminUsersPage() {
  return null;
}
