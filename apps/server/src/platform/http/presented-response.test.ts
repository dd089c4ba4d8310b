import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonText, presented, responseSerializerCompiler } from './presented-response';

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

describe('answers written as JSON text', () => {
  it('are sent as they are when trusted, and checked against the contract under tests', async () => {
    const text = '{"items":[{"id":1}]}';
    const trusted = await appWith(true, new JsonText(text));
    const sent = await trusted.inject('/presented');
    expect(sent.body).toBe(text);
    expect(sent.headers['content-type']).toMatch(/^application\/json/);
    await trusted.close();

    const checked = await appWith(false, new JsonText(text));
    expect((await checked.inject('/presented')).json()).toEqual({ items: [{ id: 1 }] });
    await checked.close();
    const drifted = await appWith(false, new JsonText('{"items":[{"id":"one"}]}'));
    expect((await drifted.inject('/presented')).statusCode).toBe(500);
    await drifted.close();
  });
});
