// @vitest-environment jsdom
import { MantineProvider } from '@mantine/core';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { closeSnackbar, showSnackbar } from '../shared/snackbar-store';
import { SnackbarHost } from './snackbar-host';

beforeAll(() => {
  // jsdom has no matchMedia; Mantine asks it for the colour scheme and reduced motion.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

const roots: Root[] = [];

afterEach(() => {
  act(() => {
    closeSnackbar('top');
    closeSnackbar('bottom');
  });
  // Unmounted here, so no transition timer of Mantine's runs after the test environment is gone.
  act(() => {
    for (const root of roots.splice(0)) root.unmount();
  });
  document.body.innerHTML = '';
});

function renderHost() {
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  roots.push(root);
  act(() => {
    root.render(
      <MantineProvider>
        <SnackbarHost />
      </MantineProvider>,
    );
  });
}

describe('SnackbarHost', () => {
  it('shows the top snackbar markup sanitized once its sanitizer has loaded', async () => {
    renderHost();
    act(() =>
      showSnackbar('top', '<b>Tersimpan</b> <img src="x" onerror="alert(1)"><script>alert(2)</script>'),
    );
    await vi.waitFor(() => expect(document.querySelector('[data-snackbar="top"] b')).not.toBeNull());
    const top = document.querySelector('[data-snackbar="top"]')!;
    expect(top.querySelector('b')?.textContent).toBe('Tersimpan');
    expect(top.querySelector('script')).toBeNull();
    expect(top.querySelector('img')?.getAttribute('onerror')).toBeNull();
  });

  it('shows the bottom snackbar as plain text, markup and all', async () => {
    renderHost();
    act(() => showSnackbar('bottom', '<b>Terkirim</b>'));
    await vi.waitFor(() => expect(document.querySelector('[data-snackbar="bottom"]')).not.toBeNull());
    const bottom = document.querySelector('[data-snackbar="bottom"]')!;
    expect(bottom.querySelector('b')).toBeNull();
    expect(bottom.textContent).toContain('<b>Terkirim</b>');
  });
});
