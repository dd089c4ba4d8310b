import { serializerCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';

/**
 * Response schemas whose answers a presenter builds field by field (a page of tickets, of
 * messages, of search hits): nothing beyond the contract can reach them, so outside tests
 * they are written with JSON.stringify instead of being checked by zod on every request,
 * which cost more than the query on the busiest pages (issue 13, "Inbox at scale"). Tests
 * check them like every other answer, so a presenter that drifts from its contract fails
 * there. Every other schema is always checked, and strips what it does not declare.
 */
const presentedSchemas = new WeakSet<object>();

/**
 * An answer already written as JSON text (by PostgreSQL, say: see inbox/json-views.ts), sent
 * as it is where the route's schema is `presented`. Under tests it is parsed and checked
 * against the contract like any other presented answer.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * A copy of the schema marked as presented; the schema itself stays checked wherever else it
 * is used. Its route may answer the schema's object or a `JsonText` of it.
 */
export function presented<T extends z.ZodType>(schema: T): z.ZodType<z.output<T> | JsonText, z.input<T>> {
  const copy = schema.clone() as T;
  presentedSchemas.add(copy);
  return copy as unknown as z.ZodType<z.output<T> | JsonText, z.input<T>>;
}

type SerializerInput = { schema: unknown; method: string; url: string; httpStatus?: string };

/** Fastify's serializer compiler: zod for every response, but JSON.stringify for presented ones when trusted. */
export function responseSerializerCompiler(options: { trustPresented: boolean }) {
  return (route: SerializerInput) => {
    const checked = serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
    if (!route.schema || !presentedSchemas.has(route.schema as object)) return checked;
    if (options.trustPresented)
      return (data: unknown) => (data instanceof JsonText ? data.text : JSON.stringify(data));
    return (data: unknown) => checked(data instanceof JsonText ? JSON.parse(data.text) : data);
  };
}
