import { type CSSVariablesResolver, createTheme, type MantineColorsTuple } from '@mantine/core';

/** Brand green-teal: the colour people associate with chat, dark enough for white text. */
const brand: MantineColorsTuple = [
  '#e7f8f2',
  '#d3efe6',
  '#a6dfcc',
  '#75ceb0',
  '#4dbf98',
  '#33b68a',
  '#1ea57a',
  '#0c8f6a',
  '#007f5d',
  '#006e4f',
];

const fontFamily =
  "Inter, 'Segoe UI', -apple-system, BlinkMacSystemFont, Roboto, 'Noto Sans', 'Helvetica Neue', Arial, sans-serif";

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  colors: { brand },
  fontFamily,
  headings: { fontFamily, fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    TextInput: { defaultProps: { radius: 'md' } },
    PasswordInput: { defaultProps: { radius: 'md' } },
    Card: { defaultProps: { radius: 'lg', withBorder: true, shadow: 'xs', padding: 'xl' } },
    Paper: { defaultProps: { radius: 'lg' } },
  },
});

/** A softer page background than plain gray so white cards stand out gently. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--app-page-background': '#f5f7f8', '--app-border-subtle': '#e7ebee' },
  dark: {
    '--app-page-background': 'var(--mantine-color-dark-8)',
    '--app-border-subtle': 'var(--mantine-color-dark-4)',
  },
});
