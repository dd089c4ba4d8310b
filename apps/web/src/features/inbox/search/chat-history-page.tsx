/** Being built: replaced by the feature's screen. */
export function ChatHistoryPage() {
  return null;
}
