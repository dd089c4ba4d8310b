/** Being built: replaced by the feature's screen. */
export function ActivateMfaPage() {
  return null;
}
