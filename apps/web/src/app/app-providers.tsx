import { MantineProvider, mergeThemeOverrides } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppRouter } from './router';
import { cssVariablesResolver, theme } from './theme';

/** Theme, data cache and router, in the order each needs the one before. */
export function AppProviders({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  const { t } = useTranslation();
  // A field's clear button (a date picker's, say) is an icon: it gets its name in the user's language.
  const localTheme = useMemo(
    () =>
      mergeThemeOverrides(theme, {
        components: { InputClearButton: { defaultProps: { 'aria-label': t('common.clear') } } },
      }),
    [t],
  );
  return (
    <MantineProvider
      theme={localTheme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="light"
    >
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
