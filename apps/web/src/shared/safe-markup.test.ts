// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizeMarkup } from './safe-markup';

describe('sanitizeMarkup', () => {
  it('keeps formatting but drops scripts, event handlers and javascript: links', () => {
    const clean = sanitizeMarkup(
      '<b>Saved</b><script>window.hacked = true</script><img src="x" onerror="window.hacked = true"><a href="javascript:alert(1)">link</a>',
    );
    expect(clean).toContain('<b>Saved</b>');
    expect(clean).not.toContain('<script');
    expect(clean).not.toContain('onerror');
    expect(clean).not.toContain('javascript:');
  });

  it('produces markup that runs nothing when inserted into the page', () => {
    const host = document.createElement('div');
    host.innerHTML = sanitizeMarkup(
      '<img src="x" onerror="window.__ran = true"><svg onload="window.__ran = true"></svg>',
    );
    document.body.append(host);
    expect((window as { __ran?: boolean }).__ran).toBeUndefined();
    expect(host.querySelector('[onerror],[onload]')).toBeNull();
  });
});
