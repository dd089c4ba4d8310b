/** Being built: replaced by the feature's screen. */
export function ForgotPasswordPage() {
  return null;
}
