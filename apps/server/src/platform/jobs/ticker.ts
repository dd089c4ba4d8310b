/**
 * Work a worker process runs every so often, one run at a time: a run falling due while the
 * last one still goes is not doubled, and `run()` asks for one now, after the one under way
 * (which may have started before what the caller wants it to see).
 */
export class Ticker<T> {
  private timer?: NodeJS.Timeout;
  private running?: Promise<T>;

  constructor(private readonly work: () => Promise<T>) {}

  /** Runs every `intervalMs`; 0 never starts the timer (runs come only from `run()`). */
  start(intervalMs: number): void {
    if (intervalMs <= 0) return;
    this.timer = setInterval(() => {
      if (!this.running) void this.run();
    }, intervalMs);
  }

  run(): Promise<T> {
    const run: Promise<T> = (this.running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.work())
      .finally(() => {
        if (this.running === run) this.running = undefined;
      });
    this.running = run;
    return run;
  }

  /** Stops the timer and waits for the run under way. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
