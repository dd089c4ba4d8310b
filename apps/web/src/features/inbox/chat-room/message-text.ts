/** A piece of a message's text: plain text, a link that is safe to open, or a line break. */
export type TextPart =
  | { type: 'text'; text: string }
  | { type: 'link'; text: string; href: string }
  | { type: 'break' };

/**
 * Candidates for links: something that starts like a web address. What the pattern
 * finds is only a candidate; `safeHref` decides whether it becomes a link.
 */
const linkCandidate = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;

/** Punctuation that ends a sentence more often than it ends an address. */
const trailingPunctuation = /[.,;:!?)\]}'"»]+$/;

/**
 * The address a link may open, or null. Only http and https leave the page: a
 * `javascript:`, `data:` or any other scheme never becomes clickable, whatever a
 * customer writes. `www.` addresses get https.
 */
export function safeHref(candidate: string): string | null {
  const withScheme = /^www\./i.test(candidate) ? `https://${candidate}` : candidate;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname) return null;
  return url.href;
}

/** Drops sentence punctuation after an address, keeping a closing bracket that has its opening one. */
function trimCandidate(candidate: string): string {
  let trimmed = candidate.replace(trailingPunctuation, '');
  const opened = (trimmed.match(/\(/g) ?? []).length;
  const closed = (trimmed.match(/\)/g) ?? []).length;
  if (opened > closed && candidate.length > trimmed.length && candidate[trimmed.length] === ')') {
    trimmed += ')';
  }
  return trimmed;
}

function splitLine(line: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of line.matchAll(linkCandidate)) {
    const start = match.index ?? 0;
    const candidate = trimCandidate(match[0]);
    const href = safeHref(candidate);
    if (!href) continue;
    if (start > last) parts.push({ type: 'text', text: line.slice(last, start) });
    parts.push({ type: 'link', text: candidate, href });
    last = start + candidate.length;
  }
  if (last < line.length) parts.push({ type: 'text', text: line.slice(last) });
  return parts;
}

/**
 * Splits a message into text, safe links and line breaks, for rendering as React
 * elements (never as markup): HTML in a message shows as the characters it is.
 */
export function splitMessageText(text: string): TextPart[] {
  const parts: TextPart[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((line, index) => {
    if (index > 0) parts.push({ type: 'break' });
    parts.push(...splitLine(line));
  });
  return parts;
}
