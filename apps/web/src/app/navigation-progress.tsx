import { useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Phase = 'idle' | 'running' | 'finishing';

/**
 * The thin bar at the top of the window while a navigation runs (guards, lazy screens).
 * It creeps towards 80 % while waiting and completes when the new screen is ready, so a
 * slow network shows progress without pretending to know how long it will take.
 */
export function NavigationProgress() {
  const { t } = useTranslation();
  const busy = useRouterState({ select: (state) => state.status === 'pending' || state.isLoading });
  const [phase, setPhase] = useState<Phase>('idle');

  useEffect(() => {
    if (busy) {
      setPhase('running');
      return;
    }
    setPhase((current) => (current === 'running' ? 'finishing' : current));
    const timer = setTimeout(() => setPhase('idle'), 450);
    return () => clearTimeout(timer);
  }, [busy]);

  const width = phase === 'running' ? '80%' : phase === 'finishing' ? '100%' : '0%';
  return (
    <div
      role="progressbar"
      aria-label={t('common.loading')}
      aria-hidden={phase === 'idle'}
      data-busy={busy || undefined}
      style={{
        position: 'fixed',
        top: 0,
        left: 0,
        height: 3,
        zIndex: 1000,
        width,
        opacity: phase === 'running' ? 1 : 0,
        background: 'linear-gradient(90deg, var(--mantine-color-brand-4), var(--mantine-color-brand-6))',
        boxShadow: '0 0 8px var(--mantine-color-brand-4)',
        transition: {
          running: 'width 2.5s cubic-bezier(0.1, 0.6, 0.3, 1), opacity 0.1s',
          finishing: 'width 0.2s ease-out, opacity 0.25s ease 0.15s',
          idle: 'none',
        }[phase],
        pointerEvents: 'none',
      }}
    />
  );
}
