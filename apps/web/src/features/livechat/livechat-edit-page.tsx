/** Being built: replaced by the feature's screen. */
export function LivechatEditPage() {
  return null;
}
