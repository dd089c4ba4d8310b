/**
 * Element building for the widget. Text is only ever set through `textContent`, so what a
 * visitor or an agent writes shows as text and never runs as HTML.
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Record<string, string | boolean>> = {},
  children: Array<Node | string | null> = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === false || value === undefined) continue;
    if (name === 'text') element.textContent = String(value);
    else element.setAttribute(name === 'cls' ? 'class' : name, value === true ? '' : value);
  }
  for (const child of children) {
    if (child !== null) element.append(child);
  }
  return element;
}

const svgNs = 'http://www.w3.org/2000/svg';

/** A small icon from a fixed path of ours (never from data). */
export function icon(path: string): SVGSVGElement {
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  const shape = document.createElementNS(svgNs, 'path');
  shape.setAttribute('d', path);
  svg.append(shape);
  return svg;
}

export const icons = {
  chat: 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H8l-5 4V5a2 2 0 0 1 1-2zm3 6v2h10V9H7zm0-3v2h10V6H7zm0 6v2h7v-2H7z',
  close: 'M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z',
  send: 'M2 21 23 12 2 3v7l15 2-15 2z',
  attach:
    'M16.5 6v11.5a4 4 0 0 1-8 0V5a2.5 2.5 0 0 1 5 0v10.5a1 1 0 0 1-2 0V6H10v9.5a2.5 2.5 0 0 0 5 0V5a4 4 0 0 0-8 0v12.5a5.5 5.5 0 0 0 11 0V6z',
};
