/** Being built: replaced by the feature's screen. */
export function TicketViewPage() {
  return null;
}
