import { matchRoute } from '@app/contracts';
import { Button } from '@mantine/core';
import { IconArrowLeft, IconCompass, IconHome, IconTools } from '@tabler/icons-react';
import { useLocation, useNavigate, useRouter } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { StatusScreen } from '../shared/status-screen';
import { usePageTitle } from '../shared/use-page-title';
import { useSession } from '../shared/use-session';
import { visibleMenu } from './menu-items';
import { landingPathFor } from './route-guard';

/**
 * Inside the shell: a path of the route table whose screen is not built yet ("not
 * available yet"), or an unknown path (404). Both offer a way back.
 */
export function ShellNotFoundPage() {
  const { t } = useTranslation();
  const router = useRouter();
  const navigate = useNavigate();
  const pathname = useLocation({ select: (location) => location.pathname });
  const session = useSession();
  usePageTitle('notFound.pageTitle');

  const known = matchRoute(pathname) !== undefined;
  const landing = session ? landingPathFor(session.ability) : '/login';
  const firstScreen = session ? visibleMenu(session.ability)[0]?.items[0]?.path : undefined;
  const canGoBack = router.history.canGoBack();
  // Back goes to the previous page; with no history (e.g. straight after sign-in) it
  // goes to the first screen of the menu, which always exists.
  const goBack = () => {
    if (canGoBack) router.history.back();
    else void navigate({ href: firstScreen ?? '/setting/self-change-password' });
  };

  return (
    <StatusScreen
      icon={known ? <IconTools size={44} stroke={1.5} /> : <IconCompass size={44} stroke={1.5} />}
      code={known ? undefined : t('notFound.code')}
      title={known ? t('notFound.unbuiltTitle') : t('notFound.title')}
      description={known ? t('notFound.unbuiltDescription') : t('notFound.description')}
      actions={
        <>
          <Button leftSection={<IconArrowLeft size={16} />} onClick={goBack}>
            {t('common.back')}
          </Button>
          {pathname !== landing ? (
            <Button
              variant="default"
              leftSection={<IconHome size={16} />}
              onClick={() => navigate({ href: landing })}
            >
              {t('notFound.home')}
            </Button>
          ) : null}
        </>
      }
    />
  );
}

/** Outside the shell (signed out on a public path that has no screen). */
export function StandaloneNotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  usePageTitle('notFound.pageTitle');
  return (
    <StatusScreen
      minHeight="100vh"
      icon={<IconCompass size={44} stroke={1.5} />}
      code={t('notFound.code')}
      title={t('notFound.title')}
      description={t('notFound.description')}
      actions={
        <Button leftSection={<IconHome size={16} />} onClick={() => navigate({ to: '/login' })}>
          {t('notFound.home')}
        </Button>
      }
    />
  );
}
