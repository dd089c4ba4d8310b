import { Outlet } from '@tanstack/react-router';
import { InfoDialog } from './info-dialog';
import { NavigationProgress } from './navigation-progress';
import { SnackbarHost } from './snackbar-host';

/** Wraps every screen, signed in or not: progress bar, snackbars and the information dialog. */
export function RootLayout() {
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <SnackbarHost />
      <InfoDialog />
    </>
  );
}
