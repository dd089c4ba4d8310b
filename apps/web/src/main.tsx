import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/app-providers';
import { reloadForNewVersion } from './app/app-version';
import { createQueryClient } from './app/query-client';
import { createAppRouter } from './app/router';
import { connectSessionLifecycle } from './app/session-lifecycle';
import { rememberTimezone } from './shared/display-format';
import { initI18n } from './shared/i18n';
import { startServiceWorker } from './shared/service-worker';

async function start() {
  // Resolves at once in Indonesian; another stored language fetches its strings first.
  await initI18n();
  rememberTimezone();
  // Vite reports a failed chunk here and then rejects the import; the lazy screen that
  // asked for it turns the rejection into the reload prompt, so the event is only logged.
  window.addEventListener('vite:preloadError', (event) => {
    console.warn('A part of the app failed to load', (event as Event & { payload?: unknown }).payload);
  });

  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient);
  connectSessionLifecycle(router, queryClient);

  const container = document.getElementById('root');
  if (!container) throw new Error('The page has no #root element');
  createRoot(container).render(
    <StrictMode>
      <AppProviders router={router} queryClient={queryClient} />
    </StrictMode>,
  );
  startServiceWorker();
}

if (!reloadForNewVersion()) void start();
