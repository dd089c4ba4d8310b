import pg from 'pg';

/** node-postgres's own pieces, which it exports but does not type: its result and value writer. */
interface DriverResult {
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): unknown;
  addRow(row: unknown): void;
  addCommandComplete(message: unknown): void;
}
const driver = pg as unknown as {
  Result: new (rowMode: 'array' | undefined, types: unknown) => DriverResult;
  utils: { prepareValue(value: unknown): unknown };
};
const prepareValue = driver.utils.prepareValue;

/**
 * Several statements in one message of PostgreSQL's extended protocol: a parse (once per
 * connection for a statement with parameters), bind, describe and execute for each, then one
 * sync. PostgreSQL runs them in one implicit transaction (or inside the open one), so a
 * tenant set-up and the statement it guards travel together as before, and a statement seen
 * before on the connection is neither parsed nor analysed again: its plan source is kept,
 * and PostgreSQL may keep its plan too (plan_cache_mode decides).
 *
 * Measured on the ticket list at a million tickets (16 connections), parsing and planning
 * were a quarter of PostgreSQL's time per page when every statement came as text.
 */
export interface PipelineStep {
  text: string;
  values: readonly unknown[];
  rowMode?: 'array';
  types?: unknown;
}

/** A statement as the pipeline sends it. */
export const stepOf = (
  text: string,
  values: readonly unknown[] = [],
  extra: Partial<PipelineStep> = {},
): PipelineStep => ({
  text,
  values,
  ...extra,
});

export const beginStep = stepOf('begin');
export const commitStep = stepOf('commit');

/** How many prepared statements one connection keeps; the least lately used is closed past it. */
export const preparedPerConnection = 200;

/** The statements prepared on one connection: text → name, least lately used first. */
class PreparedStatements {
  private readonly names = new Map<string, string>();
  /** Names to close before the next pipeline (evicted, or perhaps half-made by a failed one). */
  readonly closing: string[] = [];
  private counter = 0;

  /** The statement's name, and whether it still has to be parsed. */
  use(text: string): { name: string; parse: boolean } {
    const known = this.names.get(text);
    if (known !== undefined) {
      // Least lately used first: move it to the end.
      this.names.delete(text);
      this.names.set(text, known);
      return { name: known, parse: false };
    }
    this.counter += 1;
    const name = `p${this.counter}`;
    this.names.set(text, name);
    return { name, parse: true };
  }

  /** Closes the oldest statements past the limit, keeping those of the pipeline being sent. */
  trim(keep: ReadonlySet<string>): void {
    for (const [text, name] of this.names) {
      if (this.names.size <= preparedPerConnection) return;
      if (keep.has(name)) continue;
      this.names.delete(text);
      this.closing.push(name);
    }
  }

  /** Forgets statements a failed pipeline may not have made; they are closed and made again. */
  forget(parsed: ReadonlyArray<{ text: string; name: string }>): void {
    for (const { text, name } of parsed) {
      if (this.names.get(text) === name) this.names.delete(text);
      this.closing.push(name);
    }
  }
}

const preparedOf = new WeakMap<object, PreparedStatements>();

interface WireConnection {
  stream: { cork?: () => void; uncork?: () => void };
  parse(query: { text: string; name: string; types: unknown[] }): void;
  bind(config: { portal: string; statement: string; values: readonly unknown[] }): void;
  describe(message: { type: 'P' | 'S'; name: string }): void;
  execute(config: { portal: string; rows: number }): void;
  close(message: { type: 'P' | 'S'; name: string }): void;
  sync(): void;
}

interface BackendMessage {
  fields: unknown[];
}

/**
 * A pg "submittable": the client hands it the connection and then each backend message
 * of its turn. Each step's rows come back in its own result.
 */
class Pipeline {
  callback?: (error: Error | null, results?: pg.QueryResult[]) => void;
  private readonly results: DriverResult[] = [];
  private current = 0;
  /** A row the result could not read: the pipeline fails once PostgreSQL is done with it. */
  private failure: Error | undefined;
  private parsed: Array<{ text: string; name: string }> = [];
  private statements: PreparedStatements | undefined;

  constructor(private readonly steps: ReadonlyArray<PipelineStep>) {}

  submit(connection: WireConnection): Error | null {
    // Every value is written out first: one that cannot be (a circular object, say) fails
    // the pipeline before anything of it is sent.
    let values: unknown[][];
    try {
      values = this.steps.map((step) => step.values.map((value) => prepareValue(value)));
    } catch (error) {
      return error as Error;
    }
    let statements = preparedOf.get(connection);
    if (!statements) {
      statements = new PreparedStatements();
      preparedOf.set(connection, statements);
    }
    this.statements = statements;
    const plan = this.steps.map((step) => {
      if (step.values.length === 0) return { step, name: '', parse: true };
      const { name, parse } = statements.use(step.text);
      return { step, name, parse };
    });
    statements.trim(new Set(plan.map((each) => each.name)));
    connection.stream.cork?.();
    try {
      for (const name of statements.closing.splice(0)) connection.close({ type: 'S', name });
      plan.forEach(({ step, name, parse }, index) => {
        if (parse) {
          connection.parse({ text: step.text, name, types: [] });
          if (name) this.parsed.push({ text: step.text, name });
        }
        connection.bind({ portal: '', statement: name, values: values[index] });
        connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '', rows: 0 });
        this.results.push(new driver.Result(step.rowMode, step.types));
      });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: BackendMessage): void {
    this.results[this.current]?.addFields(message.fields);
  }

  handleDataRow(message: BackendMessage): void {
    const result = this.results[this.current];
    if (!result || this.failure) return;
    try {
      result.addRow(result.parseRow(message.fields));
    } catch (error) {
      this.failure = error as Error;
    }
  }

  handleCommandComplete(message: unknown): void {
    this.results[this.current]?.addCommandComplete(message);
    this.current += 1;
  }

  handleEmptyQuery(): void {
    this.current += 1;
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: { sendCopyFail(message: string): void }): void {
    connection.sendCopyFail('COPY is not supported in a pipeline');
  }

  handleCopyData(): void {}

  /** PostgreSQL skips the rest until the sync: statements parsed after the failure were not made. */
  handleError(error: Error): void {
    this.statements?.forget(this.parsed);
    this.finish(error);
  }

  handleReadyForQuery(): void {
    if (this.failure) this.statements?.forget(this.parsed);
    this.finish(this.failure ?? null);
  }

  private finish(error: Error | null): void {
    const callback = this.callback;
    this.callback = undefined;
    if (!callback) return;
    if (error) callback(error);
    else callback(null, this.results as unknown as pg.QueryResult[]);
  }
}

/** Runs the steps in one message on the client; resolves with each step's result. */
export function runPipeline(
  client: pg.ClientBase,
  steps: ReadonlyArray<PipelineStep>,
): Promise<pg.QueryResult[]> {
  return new Promise((resolve, reject) => {
    const pipeline = new Pipeline(steps);
    pipeline.callback = (error, results) => (error ? reject(error) : resolve(results ?? []));
    (client as unknown as { query(submittable: Pipeline): void }).query(pipeline);
  });
}
