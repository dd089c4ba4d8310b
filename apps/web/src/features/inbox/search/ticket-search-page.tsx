/** Being built: replaced by the feature's screen. */
export function TicketSearchPage() {
  return null;
}
