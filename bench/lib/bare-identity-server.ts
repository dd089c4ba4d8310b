// The bare limit for an authenticated call: Fastify 5, jose and pg, nothing else. It verifies
// the same HS256 access token the real server issues (same secret, issuer and algorithm) and
// runs the same user ⋈ client join GET /api/identity/users/me runs. Started in its own process
// by bench/overhead.bench.ts; env DATABASE_URL, PORT, JWT_SECRET, POOL_SIZE.
//   GET /bare/me          token + join, no tenant
//   GET /bare/tenant/me   token + join inside a transaction that enters the tenant as withTenant does
//   GET /api/health
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import pg from 'pg';

const databaseUrl = process.env.DATABASE_URL;
const secret = process.env.JWT_SECRET;
if (!databaseUrl || !secret) throw new Error('DATABASE_URL and JWT_SECRET are required');

const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.POOL_SIZE ?? 10) });
pool.on('error', () => undefined);
const key = new TextEncoder().encode(secret);

// The columns the ORM selects: every column of users and of clients.
const joinSql =
  'select users.*, clients.* from users inner join clients on clients.id = users.client_id ' +
  'where users.client_id = $1 and users.id = $2';
const enterTenantSql = "select set_config('app.client_id', $1, true), set_config('role', 'app_tenant', true)";

interface Caller {
  userId: string;
  clientId: string;
}

async function caller(request: FastifyRequest, reply: FastifyReply): Promise<Caller | null> {
  const token = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
  try {
    if (!token) throw new Error('no token');
    const { payload } = await jwtVerify(token, key, { issuer: 'omni-inbox', algorithms: ['HS256'] });
    return { userId: String(payload.uid), clientId: String(payload.clientId) };
  } catch {
    reply.code(401).send({ statusCode: 401, error: 'Unauthorized', message: 'unauthorized' });
    return null;
  }
}

const app = Fastify({ logger: false });

app.get('/api/health', async () => ({ status: 'ok' }));

app.get('/bare/me', async (request, reply) => {
  const who = await caller(request, reply);
  if (!who) return reply;
  const result = await pool.query(joinSql, [who.clientId, who.userId]);
  if (result.rowCount === 0) return reply.code(401).send({ statusCode: 401 });
  return result.rows[0];
});

app.get('/bare/tenant/me', async (request, reply) => {
  const who = await caller(request, reply);
  if (!who) return reply;
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(enterTenantSql, [who.clientId]);
    const result = await client.query(joinSql, [who.clientId, who.userId]);
    await client.query('commit');
    if (result.rowCount === 0) return reply.code(401).send({ statusCode: 401 });
    return result.rows[0];
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
});

await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });

const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
