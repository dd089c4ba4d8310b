import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MessageText } from './message-bubble';
import { safeHref, splitMessageText } from './message-text';

describe('safeHref', () => {
  it('accepts http and https addresses, and gives www addresses https', () => {
    expect(safeHref('https://toko.example/produk?id=1')).toBe('https://toko.example/produk?id=1');
    expect(safeHref('http://toko.example')).toBe('http://toko.example/');
    expect(safeHref('www.toko.example/resi')).toBe('https://www.toko.example/resi');
  });

  it('refuses every other scheme', () => {
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref('JaVaScRiPt:alert(1)')).toBeNull();
    expect(safeHref('data:text/html,<script>alert(1)</script>')).toBeNull();
    expect(safeHref('vbscript:msgbox(1)')).toBeNull();
    expect(safeHref('file:///etc/passwd')).toBeNull();
    expect(safeHref('not a url')).toBeNull();
  });
});

describe('splitMessageText', () => {
  it('finds links inside text and leaves sentence punctuation out of them', () => {
    expect(splitMessageText('Cek resi di https://kirim.example/track?no=12. Terima kasih!')).toEqual([
      { type: 'text', text: 'Cek resi di ' },
      { type: 'link', text: 'https://kirim.example/track?no=12', href: 'https://kirim.example/track?no=12' },
      { type: 'text', text: '. Terima kasih!' },
    ]);
  });

  it('keeps a closing bracket that belongs to the address', () => {
    const parts = splitMessageText('(lihat https://id.wikipedia.org/wiki/Batik_(kain))');
    expect(parts[1]).toEqual({
      type: 'link',
      text: 'https://id.wikipedia.org/wiki/Batik_(kain)',
      href: 'https://id.wikipedia.org/wiki/Batik_(kain)',
    });
  });

  it('never makes a javascript: text a link', () => {
    const parts = splitMessageText('klik javascript:alert(document.cookie) ya');
    expect(parts.every((part) => part.type !== 'link')).toBe(true);
  });

  it('turns line breaks into breaks', () => {
    expect(splitMessageText('halo\r\nkak\nbudi')).toEqual([
      { type: 'text', text: 'halo' },
      { type: 'break' },
      { type: 'text', text: 'kak' },
      { type: 'break' },
      { type: 'text', text: 'budi' },
    ]);
  });
});

describe('MessageText', () => {
  const render = (text: string) =>
    renderToStaticMarkup(
      <MantineProvider>
        <MessageText text={text} />
      </MantineProvider>,
    );

  it('shows HTML in a message as text, never as markup', () => {
    const html = render('<img src=x onerror="alert(1)"><script>alert(2)</script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
  });

  it('renders safe links that open in a new tab without access to this page', () => {
    const html = render('lihat https://toko.example dan javascript:alert(1)');
    expect(html).toMatch(/<a [^>]*href="https:\/\/toko.example\/"/);
    expect(html).toContain('rel="noopener noreferrer nofollow"');
    expect(html).toContain('target="_blank"');
    expect(html).not.toContain('href="javascript');
  });
});
