import pg from 'pg';

/** node-postgres's own conversion of a parameter to the text it sends (dates, arrays, JSON). */
const { prepareValue } = (
  pg as unknown as { utils: { prepareValue(value: unknown): string | Buffer | null } }
).utils;

/**
 * The text of one parameter as a quoted literal. node-postgres sends every parameter as
 * untyped text, and PostgreSQL resolves an untyped parameter and a quoted literal by the same
 * rules, so the statement means the same either way. `pg.escapeLiteral` doubles quotes and,
 * when the text holds a backslash, writes an E'' string with the backslashes doubled: safe
 * whatever standard_conforming_strings says.
 */
export function literalOf(value: unknown): string {
  const prepared = prepareValue(value);
  if (prepared === null || prepared === undefined) return 'NULL';
  if (Buffer.isBuffer(prepared)) return pg.escapeLiteral(`\\x${prepared.toString('hex')}`);
  if (prepared.includes('\0')) throw new Error('A query parameter holds a NUL character');
  return pg.escapeLiteral(prepared);
}

const identifierPart = /[A-Za-z0-9_$\u0080-\uffff]/;

/**
 * Writes each `$n` of a statement as the literal of values[n - 1], for a statement that must
 * carry its values in its text (the bench's `explain execute` of a prepared statement; the
 * tenant connections sent every statement this way before they used prepared statements,
 * pipeline.ts). A `$n` that names no value is an error rather than a silent NULL.
 */
export function inlineParams(text: string, values: ReadonlyArray<unknown> = []): string {
  if (values.length === 0) return text;
  const { pieces, params } = splitAtParams(text);
  let out = pieces[0];
  for (let i = 0; i < params.length; i += 1) {
    const index = params[i];
    if (index >= values.length) throw new Error(`Query parameter $${index + 1} has no value`);
    out += literalOf(values[index]) + pieces[i + 1];
  }
  return out;
}

/**
 * A statement's text cut at each `$n` placeholder: `pieces` has one more entry than
 * `params`, which holds each placeholder's zero-based value index. Quoted strings, quoted
 * identifiers, dollar-quoted bodies and comments are passed over whole.
 */
export function splitAtParams(text: string): { pieces: string[]; params: number[] } {
  const pieces: string[] = [];
  const params: number[] = [];
  let copiedUpTo = 0;
  let at = 0;
  while (at < text.length) {
    const char = text[at];
    if (char === "'") {
      at = endOfQuoted(text, at, isEscapeString(text, at));
    } else if (char === '"') {
      at = endOfQuoted(text, at, false);
    } else if (char === '-' && text[at + 1] === '-') {
      const newline = text.indexOf('\n', at);
      at = newline === -1 ? text.length : newline + 1;
    } else if (char === '/' && text[at + 1] === '*') {
      const close = text.indexOf('*/', at + 2);
      at = close === -1 ? text.length : close + 2;
    } else if (char === '$' && (at === 0 || !identifierPart.test(text[at - 1]))) {
      const number = /^\$(\d+)/.exec(text.slice(at, at + 12));
      if (number) {
        const index = Number(number[1]) - 1;
        if (index < 0) throw new Error('Query parameter $0 does not exist');
        pieces.push(text.slice(copiedUpTo, at));
        params.push(index);
        at += number[0].length;
        copiedUpTo = at;
        continue;
      }
      const tag = /^\$[A-Za-z_][A-Za-z0-9_]*\$|^\$\$/.exec(text.slice(at, at + 64));
      if (tag) {
        const close = text.indexOf(tag[0], at + tag[0].length);
        at = close === -1 ? text.length : close + tag[0].length;
      } else at += 1;
    } else at += 1;
  }
  pieces.push(text.slice(copiedUpTo));
  return { pieces, params };
}

/** `E'...'` (and `e'...'`) strings treat a backslash as an escape. */
function isEscapeString(text: string, quoteAt: number): boolean {
  const before = text[quoteAt - 1];
  return (before === 'E' || before === 'e') && (quoteAt < 2 || !identifierPart.test(text[quoteAt - 2]));
}

/** The index just past the quoted run that opens at `openAt`; a doubled quote stays inside. */
function endOfQuoted(text: string, openAt: number, backslashEscapes: boolean): number {
  const quote = text[openAt];
  let at = openAt + 1;
  while (at < text.length) {
    if (backslashEscapes && text[at] === '\\') at += 2;
    else if (text[at] === quote) {
      if (text[at + 1] === quote) at += 2;
      else return at + 1;
    } else at += 1;
  }
  return at;
}
