/** Being built: replaced by the feature's screen. */
export function ChatRoomPage() {
  return null;
}
