/** Being built: replaced by the feature's screen. */
export function LivechatCreatePage() {
  return null;
}
