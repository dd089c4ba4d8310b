import { describe, expect, it } from 'vitest';
import { fieldErrorOfServer, textColourOn, validateWidgetForm, type WidgetFormValues } from './livechat-form';

const valid: WidgetFormValues = {
  name: 'Toko Demo chat',
  domain: 'https://toko.example.com',
  logoFileId: '6f1c2b9e-3f0a-4c7d-9a55-0d5b2a7c1e11',
  logoUrl: null,
  colour: '#0C8F6A',
  onlineTitle: 'Halo!',
  onlineMessage: 'Kami siap membantu.',
  offlineTitle: 'Sedang offline',
  offlineMessage: 'Tinggalkan pesan.',
  prechatFields: [{ key: 'a', label: 'Nomor pesanan', customizedData: 'orderNumber', required: true }],
  consentText: 'Saya setuju.',
};

describe('validateWidgetForm', () => {
  it('gives the request body when every rule holds', () => {
    const { body, errors } = validateWidgetForm(valid);
    expect(errors).toEqual({});
    expect(body?.prechatFields).toEqual([
      { label: 'Nomor pesanan', customizedData: 'orderNumber', required: true },
    ]);
  });

  it('names each broken field with the locale key of its message', () => {
    const { body, errors } = validateWidgetForm({
      ...valid,
      name: ' ',
      domain: 'toko.example.com',
      logoFileId: '',
      onlineTitle: 'x'.repeat(31),
      offlineMessage: 'x'.repeat(81),
      prechatFields: [
        { key: 'a', label: '', customizedData: 'phone', required: true },
        { key: 'b', label: 'Telepon', customizedData: 'phone', required: false },
        { key: 'c', label: 'Catatan', customizedData: null, required: false },
      ],
      consentText: '',
    });
    expect(body).toBeUndefined();
    expect(errors).toEqual({
      name: 'livechat.errors.nameRequired',
      domain: 'livechat.errors.domainScheme',
      logoFileId: 'livechat.errors.logoRequired',
      onlineTitle: 'livechat.errors.titleTooLong',
      offlineMessage: 'livechat.errors.messageTooLong',
      'prechatFields.0.label': 'livechat.errors.labelRequired',
      'prechatFields.1.customizedData': 'livechat.errors.customizedDataDuplicate',
      'prechatFields.2.customizedData': 'livechat.errors.customizedDataRequired',
      consentText: 'livechat.errors.consentRequired',
    });
  });
});

describe('fieldErrorOfServer', () => {
  it('puts domain and logo answers under their fields, and prefixed ones under the named field', () => {
    const error = (message: string) => ({ statusCode: 400, error: 'Bad Request', message });
    expect(fieldErrorOfServer(error('Domain not found'))).toEqual({
      domain: 'livechat.errors.domainNotFound',
    });
    expect(fieldErrorOfServer(error('Logo must be at most 320x320 pixels'))).toEqual({
      logoFileId: 'livechat.errors.logoDimensions',
    });
    expect(fieldErrorOfServer(error('body.offlineTitle: Title must be at most 30 characters'))).toEqual({
      offlineTitle: 'livechat.errors.titleTooLong',
    });
    expect(fieldErrorOfServer(error('Fail to send request'))).toBeNull();
  });
});

describe('textColourOn', () => {
  it('writes white on dark colours and dark on light ones', () => {
    expect(textColourOn('#0F172A')).toBe('#ffffff');
    expect(textColourOn('#FDE68A')).toBe('#1a1b1e');
    expect(textColourOn('#fff')).toBe('#1a1b1e');
  });
});
