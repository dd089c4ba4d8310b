/** Being built: replaced by the feature's screen. */
export function InboxPage() {
  return null;
}
