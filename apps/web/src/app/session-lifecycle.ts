import { isPublicPath } from '@app/contracts';
import type { QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { onSessionEnded, watchOtherTabs } from '../shared/session';
import { showSnackbar } from '../shared/snackbar-store';
import { showInfoDialog } from './info-dialog-store';
import type { AppRouter } from './router';

/**
 * What happens when a session ends (core-inbox §4): endSession has already cleared the
 * stored client state (all but the language) and the server revoked the token, the push
 * status and the account-activity record; here the cached data of the old user is
 * dropped and the app goes to /login. An expired session keeps the address so the user
 * returns to it; a changed password says why the user must sign in again.
 */
export function connectSessionLifecycle(router: AppRouter, queryClient: QueryClient): () => void {
  const stopWatchingTabs = watchOtherTabs();
  const stopListening = onSessionEnded((reason) => {
    const here = router.state.location;
    const comeBackTo = reason === 'expired' && !isPublicPath(here.pathname) ? here.href : undefined;
    void router
      .navigate({ to: '/login', search: comeBackTo ? { redirect: comeBackTo } : {}, replace: true })
      .then(() => queryClient.clear());
    if (reason === 'expired') showSnackbar('bottom', i18next.t('errors.sessionExpired'), 'warning');
    if (reason === 'password-changed') showInfoDialog(i18next.t('changePassword.success'));
  });
  return () => {
    stopWatchingTabs();
    stopListening();
  };
}
