/** Being built: replaced by the feature's screen. */
export function TwoFactorSetupPage() {
  return null;
}
