import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { presented, responseSerializerCompiler } from './presented-response';

const page = z.object({ items: z.array(z.object({ id: z.number() })) });

async function appWith(trustPresented: boolean, answer: unknown) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler({ trustPresented }));
  app.get('/presented', { schema: { response: { 200: presented(page) } } }, async () => answer);
  app.get('/checked', { schema: { response: { 200: page } } }, async () => answer);
  return app;
}

describe('presented responses', () => {
  it('are written as the presenter built them when trusted; other schemas are still checked and stripped', async () => {
    const app = await appWith(true, { items: [{ id: 1, extra: 'x' }] });
    expect((await app.inject('/presented')).json()).toEqual({ items: [{ id: 1, extra: 'x' }] });
    expect((await app.inject('/checked')).json()).toEqual({ items: [{ id: 1 }] });
    await app.close();
  });

  it('are checked against their contract when not trusted (as under tests), so drift fails', async () => {
    const app = await appWith(false, { items: [{ id: 'not a number' }] });
    expect((await app.inject('/presented')).statusCode).toBe(500);
    await app.close();
  });
});
