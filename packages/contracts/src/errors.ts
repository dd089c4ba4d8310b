/**
 * Error texts the product shows (core-inbox §8). The server answers with these English
 * texts in `message`; the web app finds the key by text and shows the locale's version.
 */
export const errorMessages = {
  generic: 'Fail to send request',
  invalidCredentials: 'Email or password is invalid',
  menuAccessForbidden: 'You have no permission to access this menu.',
  unauthorized: 'Unauthorized',
  sessionExpired: 'Session expired, please sign in again',
  notFound: 'Not found',
  routeNotFound: 'Route not found',
  malformedJson: 'Body is not valid JSON',
  bodyTooLarge: 'Request body is too large',
  tooManyRequests: 'Too many request',
  userInactive: 'User is inactive or has been deleted',
  currentPasswordIncorrect: 'Current password is incorrect',
  passwordMismatch: "New password and confirm password don't match",
  passwordFormat: 'Password must be at least 8 characters and contain letters and numbers',
  passwordAlreadyUsed: 'Password already used',
  passwordChangeFailed: 'An error occurred, please try again',
  failedFetchingData: 'Failed fetching data',
  mfaCodeInvalid: 'The code you entered is invalid. Please try again.',
  mfaAlreadyEnabled: '2-step verification is already on',
  mfaNotEnabled: '2-step verification is not on',
  mfaRequiredByClient: 'Your organisation requires 2-step verification',
  emailNotRegistered: 'Email not registered',
  otpExpired: 'OTP has expired',
  otpIncorrect: 'Incorrect OTP',
  resetSessionTimedOut: 'Session timed out, try again',
} as const;

export type ErrorKey = keyof typeof errorMessages;

/** The error object every failed call answers with (core-inbox §8). */
export interface ErrorObject {
  statusCode: number;
  error: string;
  message: string;
}

/** The catalogue key whose text equals the message, if any. */
export function errorKeyOf(message: string | undefined): ErrorKey | undefined {
  if (!message) return undefined;
  return (Object.keys(errorMessages) as ErrorKey[]).find((key) => errorMessages[key] === message);
}
