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

/** A copy of the schema marked as presented; the schema itself stays checked wherever else it is used. */
export function presented<T extends z.ZodType>(schema: T): T {
  const copy = schema.clone() as T;
  presentedSchemas.add(copy);
  return copy;
}

type SerializerInput = { schema: unknown; method: string; url: string; httpStatus?: string };

/** Fastify's serializer compiler: zod for every response, but JSON.stringify for presented ones when trusted. */
export function responseSerializerCompiler(options: { trustPresented: boolean }) {
  return (route: SerializerInput) => {
    if (options.trustPresented && route.schema && presentedSchemas.has(route.schema as object))
      return (data: unknown) => JSON.stringify(data);
    return serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);
  };
}
