import { describe, expect, it } from 'vitest';
import { oidcStartHref, readOidcReturn } from './oidc-callback';

describe('Google sign-in return', () => {
  it('reads the one-time code the callback left', () => {
    expect(readOidcReturn('?oidc=abc123&redirect=%2Finbox')).toEqual({ code: 'abc123' });
  });

  it('reads a known failure key and treats anything else as a failed sign-in', () => {
    expect(readOidcReturn('?oidcError=emailNotRegistered')).toEqual({ error: 'emailNotRegistered' });
    expect(readOidcReturn('?oidcError=<script>')).toEqual({ error: 'signInFailed' });
  });

  it('answers null on a plain sign-in page', () => {
    expect(readOidcReturn('?redirect=%2Finbox')).toBeNull();
  });

  it('carries the landing path to the start route', () => {
    expect(oidcStartHref('/inbox?tab=1')).toBe('/api/identity/auth/oidc/start?redirect=%2Finbox%3Ftab%3D1');
    expect(oidcStartHref(null)).toBe('/api/identity/auth/oidc/start');
  });
});
