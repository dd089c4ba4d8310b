/** Being built: replaced by the feature's screen. */
export function ResetByPhonePage() {
  return null;
}
