/** Being built: replaced by the feature's screen. */
export function DevMailboxPage() {
  return null;
}
