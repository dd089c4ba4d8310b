import { MantineProvider } from '@mantine/core';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { HighlightSnippet, snippetParts } from './highlight-snippet';

describe('snippetParts', () => {
  it('marks the text between [[ and ]]', () => {
    expect(snippetParts('paket [[sudah]] dikirim [[kemarin]]')).toEqual([
      { text: 'paket ', hit: false },
      { text: 'sudah', hit: true },
      { text: ' dikirim ', hit: false },
      { text: 'kemarin', hit: true },
    ]);
  });

  it('keeps an unclosed marker as text', () => {
    expect(snippetParts('a [[b')).toEqual([{ text: 'a [[b', hit: false }]);
  });

  it('handles a snippet without hits and an empty one', () => {
    expect(snippetParts('halo')).toEqual([{ text: 'halo', hit: false }]);
    expect(snippetParts('')).toEqual([]);
  });
});

describe('HighlightSnippet', () => {
  it('renders hits as <mark> and markup in the text as plain text', async () => {
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    // jsdom has no media queries; Mantine's provider asks for the colour scheme through one.
    window.matchMedia ??= (query: string) =>
      ({
        matches: false,
        media: query,
        onchange: null,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
        addListener: () => undefined,
        removeListener: () => undefined,
        dispatchEvent: () => false,
      }) as MediaQueryList;
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    await act(async () => {
      root.render(
        <MantineProvider>
          <HighlightSnippet snippet={'<img src=x onerror="alert(1)"> mau [[retur]] <b>sekarang</b>'} />
        </MantineProvider>,
      );
    });
    expect(container.querySelectorAll('mark')).toHaveLength(1);
    expect(container.querySelector('mark')?.textContent).toBe('retur');
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    await act(async () => root.unmount());
    container.remove();
  });
});
