import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/** Who "signs in at Google" next, and how the provider misbehaves, set per test. */
export interface OidcProviderPerson {
  email: string;
  emailVerified?: boolean;
  /** Flip a byte of the id_token's signature. */
  tamperSignature?: boolean;
  /** Put this nonce in the id_token instead of the one the client sent. */
  nonceOverride?: string;
}

interface IssuedCode {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  nonce: string;
  person: OidcProviderPerson;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The person the next /authorize signs in. */
  person: OidcProviderPerson;
  /** Token requests refused so far, with the reason, for assertions. */
  refusals: string[];
  close(): Promise<void>;
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * A small OpenID provider for tests, speaking the real protocol: discovery, JWKS with an
 * RS256 key made at start, /authorize that signs `person` in at once and redirects back
 * with a code, and /token that checks the client secret and the PKCE verifier.
 */
export async function startTestOidcProvider(): Promise<TestOidcProvider> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const clientId = 'omni-inbox-test';
  const clientSecret = randomBytes(16).toString('hex');
  const codes = new Map<string, IssuedCode>();
  let issuer = '';
  const provider = { person: { email: 'owner@demo.test' } as OidcProviderPerson, refusals: [] as string[] };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
        id_token_signing_alg_values_supported: ['RS256'],
      });
    }
    if (url.pathname === '/jwks') return json(200, { keys: [jwk] });
    if (url.pathname === '/authorize') {
      const query = url.searchParams;
      const redirectUri = query.get('redirect_uri') ?? '';
      if (query.get('client_id') !== clientId || query.get('code_challenge_method') !== 'S256') {
        return json(400, { error: 'invalid_request' });
      }
      const code = randomBytes(16).toString('hex');
      codes.set(code, {
        clientId,
        redirectUri,
        codeChallenge: query.get('code_challenge') ?? '',
        nonce: query.get('nonce') ?? '',
        person: { ...provider.person },
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', query.get('state') ?? '');
      response.writeHead(302, { location: back.toString() });
      return response.end();
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const form = await readForm(request);
      const issued = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const refuse = (reason: string) => {
        provider.refusals.push(reason);
        return json(400, { error: 'invalid_grant', error_description: reason });
      };
      if (!issued) return refuse('unknown code');
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
        return refuse('bad client');
      }
      if (form.get('redirect_uri') !== issued.redirectUri) return refuse('redirect_uri mismatch');
      const challenge = createHash('sha256')
        .update(form.get('code_verifier') ?? '')
        .digest('base64url');
      if (challenge !== issued.codeChallenge) return refuse('PKCE verifier mismatch');
      const { person } = issued;
      let idToken = await new SignJWT({
        email: person.email,
        email_verified: person.emailVerified ?? true,
        nonce: person.nonceOverride ?? issued.nonce,
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(issuer)
        .setAudience(clientId)
        .setSubject(`google-${person.email}`)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
      if (person.tamperSignature) {
        const [header, payload, signature] = idToken.split('.');
        const flipped = (signature?.[0] === 'A' ? 'B' : 'A') + (signature?.slice(1) ?? '');
        idToken = `${header}.${payload}.${flipped}`;
      }
      return json(200, { access_token: 'unused', token_type: 'Bearer', expires_in: 300, id_token: idToken });
    }
    return json(404, { error: 'not_found' });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(provider, {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  });
}
