import { Outlet } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { useInfoDialogMessage } from './info-dialog-store';
import { NavigationProgress } from './navigation-progress';
import { SnackbarHost } from './snackbar-host';

/**
 * The information dialog (Mantine's Modal with its focus trap and scroll lock) is its own
 * chunk: only a session ended by a password change shows it, so it loads with that message.
 */
const InfoDialog = lazy(() => import('./info-dialog').then((module) => ({ default: module.InfoDialog })));

/** Mounts the information dialog at its first message and keeps it, so it closes with its transition. */
function InfoDialogWhenShown() {
  const shown = useInfoDialogMessage() !== null;
  const [wanted, setWanted] = useState(false);
  if (shown && !wanted) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <InfoDialog />
    </Suspense>
  ) : null;
}

/** Wraps every screen, signed in or not: progress bar, snackbars and the information dialog. */
export function RootLayout() {
  return (
    <>
      <NavigationProgress />
      <Outlet />
      <SnackbarHost />
      <InfoDialogWhenShown />
    </>
  );
}
