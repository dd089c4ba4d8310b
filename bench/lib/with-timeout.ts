// A time limit for calls into a browser (bench:web), which have none of their own.

/**
 * Rejects when `promise` has not settled within `ms`. Playwright's evaluate and tracing calls
 * have no timeout of their own: a page that never answers must end the part, not the run.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000}s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
