import { STATUS_CODES } from 'node:http';
import { type ErrorObject, errorMessages } from '@app/contracts';

/** A failure with the status and the exact text the client should see. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string = errorMessages.unauthorized) => new HttpError(401, message);
export const forbidden = (message: string = errorMessages.menuAccessForbidden) => new HttpError(403, message);
export const notFound = (message: string = errorMessages.notFound) => new HttpError(404, message);

/** The error object of core-inbox §8 for a status and message. */
export function errorObject(statusCode: number, message?: string): ErrorObject {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'error',
    message: message || errorMessages.generic,
  };
}
