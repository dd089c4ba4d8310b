import { snackbarTimeoutMs } from '@app/contracts';
import { Notification, Portal, Transition } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconInfoCircle, IconX } from '@tabler/icons-react';
import { type CSSProperties, lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  closeSnackbar,
  type Snackbar,
  type SnackbarPosition,
  type SnackbarTone,
  useSnackbars,
} from '../shared/snackbar-store';

const toneColor: Record<SnackbarTone, string> = {
  info: 'brand',
  success: 'green',
  warning: 'orange',
  error: 'red',
};

const toneIcon: Record<SnackbarTone, typeof IconInfoCircle> = {
  info: IconInfoCircle,
  success: IconCircleCheck,
  warning: IconAlertTriangle,
  error: IconX,
};

/**
 * The top snackbar's markup, sanitized: DOMPurify is its own chunk, fetched with the first
 * top snackbar rather than with the first page, which shows none.
 */
const SafeMarkup = lazy(() =>
  import('../shared/safe-markup').then(({ sanitizeMarkup }) => ({
    default: ({ markup }: { markup: string }) => (
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the spec's top snackbar shows markup; sanitizeMarkup strips anything that could run.
      <span dangerouslySetInnerHTML={{ __html: sanitizeMarkup(markup) }} />
    ),
  })),
);

const slotStyle: Record<SnackbarPosition, CSSProperties> = {
  top: { top: 16, left: 0, right: 0, justifyContent: 'center' },
  bottom: { bottom: 16, left: 16 },
};

function SnackbarSlot({ position, snackbar }: { position: SnackbarPosition; snackbar: Snackbar | null }) {
  const { t } = useTranslation();
  // The last message stays rendered while the exit transition plays.
  const [shown, setShown] = useState(snackbar);
  if (snackbar && snackbar !== shown) setShown(snackbar);

  useEffect(() => {
    if (!snackbar) return;
    const timer = setTimeout(() => closeSnackbar(position, snackbar.id), snackbarTimeoutMs);
    return () => clearTimeout(timer);
  }, [position, snackbar]);

  const Icon = shown ? toneIcon[shown.tone] : IconInfoCircle;
  return (
    <div
      style={{
        position: 'fixed',
        zIndex: 400,
        display: 'flex',
        pointerEvents: 'none',
        ...slotStyle[position],
      }}
    >
      <Transition
        mounted={snackbar !== null}
        transition={position === 'top' ? 'slide-down' : 'slide-up'}
        duration={180}
      >
        {(styles) =>
          shown ? (
            <Notification
              style={{
                ...styles,
                pointerEvents: 'auto',
                width: position === 'top' ? 520 : 400,
                maxWidth: 'calc(100vw - 32px)',
              }}
              data-snackbar={position}
              color={toneColor[shown.tone]}
              icon={<Icon size={18} stroke={2} />}
              withBorder
              radius="md"
              onClose={() => closeSnackbar(position)}
              closeButtonProps={{ 'aria-label': t('common.close'), title: t('common.close') }}
            >
              {position === 'top' ? (
                <Suspense fallback={<span />}>
                  <SafeMarkup markup={shown.message} />
                </Suspense>
              ) : (
                shown.message
              )}
            </Notification>
          ) : (
            <span />
          )
        }
      </Transition>
    </div>
  );
}

/** Renders the two snackbars; each closes with its x or after 5000 ms. */
export function SnackbarHost() {
  const { top, bottom } = useSnackbars();
  return (
    <Portal>
      <SnackbarSlot position="top" snackbar={top} />
      <SnackbarSlot position="bottom" snackbar={bottom} />
    </Portal>
  );
}
