import { Text, type TextProps } from '@mantine/core';

/** A piece of a search snippet: plain text, or a hit the server marked with [[ and ]]. */
export interface SnippetPart {
  text: string;
  hit: boolean;
}

/**
 * Splits a snippet at the server's [[ ]] markers. An opening marker without its closing
 * one is kept as text: a customer may well type "[[" themselves.
 */
export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let rest = snippet;
  while (rest.length > 0) {
    const open = rest.indexOf('[[');
    const close = open >= 0 ? rest.indexOf(']]', open + 2) : -1;
    if (open < 0 || close < 0) {
      parts.push({ text: rest, hit: false });
      break;
    }
    if (open > 0) parts.push({ text: rest.slice(0, open), hit: false });
    const hit = rest.slice(open + 2, close);
    if (hit) parts.push({ text: hit, hit: true });
    rest = rest.slice(close + 2);
  }
  return parts;
}

/**
 * The snippet with its hits in <mark>, built as React nodes: the text is the customer's
 * and is never read as markup.
 */
export function HighlightSnippet({ snippet, ...props }: { snippet: string } & TextProps) {
  let offset = 0;
  const nodes = snippetParts(snippet).map((part) => {
    // A part's place in the snippet is its identity: the same snippet gives the same keys.
    const key = offset;
    offset += part.text.length + (part.hit ? 4 : 0);
    return part.hit ? (
      <mark
        key={key}
        style={{ background: 'var(--mantine-color-yellow-2)', padding: '0 2px', borderRadius: 3 }}
      >
        {part.text}
      </mark>
    ) : (
      <span key={key}>{part.text}</span>
    );
  });
  return <Text {...props}>{nodes}</Text>;
}
