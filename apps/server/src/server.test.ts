import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { createTestDatabaseUrl, startTestServer } from './test/test-server';

describe('configuration', () => {
  it('stops with a message naming each invalid variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', DATA_DIR: os.tmpdir() });
    } catch (error) {
      expect((error as Error).message).toContain('PORT');
      expect((error as Error).message).toContain('DATABASE_URL');
    }
  });

  it('generates absent secrets once and keeps them under DATA_DIR', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'omni-config-'));
    try {
      const first = loadConfig({ DATA_DIR: dataDir });
      expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
      expect(existsSync(path.join(dataDir, 'secrets.json'))).toBe(true);
      expect(JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')).jwtSecret).toBe(
        first.jwtSecret,
      );
      expect(loadConfig({ DATA_DIR: dataDir }).jwtSecret).toBe(first.jwtSecret);
      expect(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) }).jwtSecret).toBe('x'.repeat(40));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('demo workspace', () => {
  it('is not created with SEED_DEMO=false', async () => {
    const server = await startTestServer({ env: { SEED_DEMO: 'false' } });
    try {
      expect(server.demoClientId).toBeNull();
      const rows = await server.database.query<{ count: number }>('select count(*)::int as count from users');
      expect(rows[0].count).toBe(0);
      const login = await server.request('POST', '/api/identity/auth/login', {
        body: { email: 'owner@demo.test', password: 'Demo1234!' },
      });
      expect(login.status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('restart', () => {
  it('keeps every row, the demo seed stays idempotent, and tokens stay valid', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'omni-restart-'));
    const database = await createTestDatabaseUrl();
    const databaseUrl = database.url;
    const first = await startTestServer({ dataDir, databaseUrl });
    try {
      const pair = await first.login('owner@demo.test');
      const changed = await first.request('PUT', '/api/identity/users/changePassword', {
        token: pair.accessToken,
        body: { currentPassword: 'Demo1234!', newPassword: 'Changed123', confirmPassword: 'Changed123' },
      });
      expect(changed.status).toBe(200);
      const session = await first.login('owner@demo.test', 'Changed123');
      await first.stop();

      const second = await startTestServer({ dataDir, databaseUrl });
      try {
        // Five demo people, two of whom also work in the Bandung branch: no row doubled.
        const count = await second.database.query<{ people: number; rows: number }>(
          'select count(*) filter (where shared_login_user_id is null)::int as people, count(*)::int as rows from users',
        );
        expect(count[0]).toEqual({ people: 5, rows: 7 });
        await expect(second.login('owner@demo.test')).rejects.toThrow();
        await second.login('owner@demo.test', 'Changed123');
        const me = await second.request('GET', '/api/identity/users/me', { token: session.accessToken });
        expect(me.status).toBe(200);
        const refreshed = await second.request('POST', '/api/identity/auth/refresh-access', {
          body: { refreshToken: session.refreshToken },
        });
        expect(refreshed.status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
