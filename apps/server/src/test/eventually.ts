type Falsy = undefined | null | false;

/**
 * Resolves with the first truthy value `check` gives, trying every `intervalMs` (100 ms) until
 * `timeoutMs` (20 s); then throws `message`.
 */
export async function eventually<T>(
  check: () => Promise<T | Falsy> | T | Falsy,
  timeoutMs = 20_000,
  { intervalMs = 100, message = 'condition not met in time' }: { intervalMs?: number; message?: string } = {},
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
