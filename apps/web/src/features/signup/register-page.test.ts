import { describe, expect, it } from 'vitest';
import { partnerRegisterUrl } from './register-page';

describe('partnerRegisterUrl', () => {
  it('follows only an http(s) address, and nothing when unset', () => {
    expect(partnerRegisterUrl('https://partner.example/daftar')).toBe('https://partner.example/daftar');
    expect(partnerRegisterUrl(' http://partner.example ')).toBe('http://partner.example');
    expect(partnerRegisterUrl('javascript:alert(1)')).toBeNull();
    expect(partnerRegisterUrl('')).toBeNull();
    expect(partnerRegisterUrl(undefined)).toBeNull();
  });
});
