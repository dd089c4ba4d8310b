import DOMPurify from 'dompurify';

/**
 * Markup that may be shown with innerHTML: scripts, event handlers and javascript: URLs
 * are removed, formatting (bold, links, line breaks) stays.
 */
export function sanitizeMarkup(markup: string): string {
  return DOMPurify.sanitize(markup, { USE_PROFILES: { html: true } });
}
