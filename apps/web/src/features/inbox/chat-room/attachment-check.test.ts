import { describe, expect, it } from 'vitest';
import {
  channelTakesFiles,
  checkFiles,
  displayFileName,
  formatFileSize,
  textLimitOf,
} from './attachment-check';
import { dayKeyOf } from './chat-dates';
import { mediaSourceOf } from './media-source';

const megabyte = 1024 * 1024;
const file = (name: string, type: string, size: number) => ({ name, type, size });

describe('checkFiles', () => {
  it('splits files into accepted and refused by the channel rules, naming the reason', () => {
    const photo = file('foto.jpg', 'image/jpeg', 2 * megabyte);
    const bigPhoto = file('besar.png', 'image/png', 6 * megabyte);
    const invoice = file('invoice.pdf', 'application/pdf', megabyte);
    const result = checkFiles('WAP', [photo, bigPhoto, invoice], 0);
    expect(result.accepted).toEqual([photo, invoice]);
    expect(result.refused).toEqual([{ file: bigPhoto, reason: 'size' }]);
  });

  it('refuses documents on Instagram and anything on Shopee', () => {
    const invoice = file('invoice.pdf', 'application/pdf', 1000);
    expect(checkFiles('IGM', [invoice], 0).refused).toEqual([{ file: invoice, reason: 'type' }]);
    const photo = file('foto.jpg', 'image/jpeg', 1000);
    expect(checkFiles('SHP', [photo], 0).refused).toEqual([{ file: photo, reason: 'type' }]);
  });

  it('refuses a type whose extension the channel does not take', () => {
    const gif = file('lucu.gif', 'image/gif', 1000);
    expect(checkFiles('WAP', [gif], 0).refused[0].reason).toBe('type');
    expect(checkFiles('IGM', [gif], 0).accepted).toEqual([gif]);
  });

  it('stops at the most attachments one message carries', () => {
    const files = Array.from({ length: 3 }, (_, index) => file(`f${index}.pdf`, 'application/pdf', 10));
    const result = checkFiles('WAP', files, 8);
    expect(result.accepted).toHaveLength(2);
    expect(result.refused).toEqual([{ file: files[2], reason: 'count' }]);
  });
});

describe('channel limits', () => {
  it('uses the channel caption limit once files are attached', () => {
    expect(textLimitOf('TLG', true)).toBe(512);
    expect(textLimitOf('TLG', false)).toBe(4096);
    expect(textLimitOf('WAP', true)).toBe(4096);
  });

  it('knows which channels take files at all', () => {
    expect(channelTakesFiles('WAP')).toBe(true);
    expect(channelTakesFiles('TPD')).toBe(false);
  });
});

describe('formatFileSize', () => {
  it('writes sizes from bytes up, one decimal below 10', () => {
    expect(formatFileSize(512)).toBe('512 B');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(25 * megabyte)).toBe('25 MB');
  });
});

describe('displayFileName', () => {
  it('drops the storage timestamp prefix, keeping names that have none', () => {
    expect(displayFileName('1795378094836_invoice-00231.pdf')).toBe('invoice-00231.pdf');
    expect(displayFileName('2026_laporan.pdf')).toBe('2026_laporan.pdf');
  });
});

describe('mediaSourceOf', () => {
  const base = 'https://app.example/customer-service/inbox-chatroom';
  it('uses our own media links as they are', () => {
    expect(mediaSourceOf('/api/media/abc?expires=1&signature=x', base)).toBe('own');
  });
  it('resolves links on a messaging provider host first', () => {
    expect(mediaSourceOf('https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1', base)).toBe(
      'provider',
    );
    expect(mediaSourceOf('https://scontent.cdninstagram.com/v/t51/1.jpg', base)).toBe('provider');
  });
  it('refuses schemes that must never load', () => {
    expect(mediaSourceOf('javascript:alert(1)', base)).toBe('refused');
    expect(mediaSourceOf('data:text/html,hi', base)).toBe('refused');
  });
});

describe('dayKeyOf', () => {
  it('counts days in the client zone, not in UTC', () => {
    // 18:30 UTC is already the next morning in Jakarta (UTC+7).
    expect(dayKeyOf('2026-03-01T18:30:00Z', 'Asia/Jakarta')).toBe('2026-03-02');
    expect(dayKeyOf('2026-03-01T16:30:00Z', 'Asia/Jakarta')).toBe('2026-03-01');
  });
});
