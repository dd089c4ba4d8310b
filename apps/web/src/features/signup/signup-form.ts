import { type ErrorObject, errorKeyOf, signupErrorMessages } from '@app/contracts';
import type { TFunction } from 'i18next';
import type { ZodType } from 'zod';
import { errorText } from '../../shared/i18n';

type SignupErrorKey = keyof typeof signupErrorMessages;

/** Field name → the English text of its first problem, as the contract (or the server) said it. */
export type FieldErrors = Partial<Record<string, string>>;

/**
 * The locale's version of a contract or server text: sign-up's own texts from this feature's
 * locale, the catalogue's from the shared one, anything else as the server wrote it.
 */
export function signupMessage(t: TFunction, message: string): string {
  const own = (Object.keys(signupErrorMessages) as SignupErrorKey[]).find(
    (key) => signupErrorMessages[key] === message,
  );
  if (own) return t(`signup.errors.${own}`);
  const shared = errorKeyOf(message);
  if (shared === 'otpExpired' || shared === 'otpIncorrect') return t(`signup.errors.${shared}`);
  return shared ? t(`errors.${shared}`) : message;
}

/** A failed call's text for the alert under the step. */
export function signupFailureText(t: TFunction, error: ErrorObject): string {
  return error.statusCode === 429 || error.statusCode >= 500
    ? errorText(t, error)
    : signupMessage(t, error.message);
}

/**
 * Checks the values with the same zod contract the server applies: the parsed value when
 * valid, otherwise each field's first message (the top-level path segment names the field).
 */
export function checkWith<Output>(
  schema: ZodType<Output>,
  values: unknown,
): { ok: true; data: Output } | { ok: false; errors: FieldErrors } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}
