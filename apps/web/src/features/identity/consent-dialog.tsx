import { consentResponse } from '@app/contracts';
import { Alert, Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useMounted } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../shared/api-client';
import { currentLanguage } from '../../shared/i18n';
import { meQueryKey } from './identity.queries';

/** The consent document is served as plain text, not JSON, so it is fetched directly. */
async function fetchConsentDocument(language: string): Promise<string> {
  const response = await fetch(`/api/identity/consent-document?lang=${language}`);
  if (!response.ok) throw new Error(`consent document: ${response.status}`);
  return response.text();
}

/**
 * The user-consent dialog of the app shell (core-inbox §4): shown to a signed-in user who
 * has not agreed, once 6 hours have passed since they last answered (or, never having
 * answered, since their account was created; the shell decides with `consentDue` and
 * loads this chunk only then). Dismiss records only the time; Approve records the agreement.
 */
export function ConsentDialog({ due }: { due: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [answered, setAnswered] = useState(false);
  const [saving, setSaving] = useState(false);
  // Mounted with `due` already true; opening after mount lets it transition in.
  const mounted = useMounted();
  const opened = mounted && due && !answered;
  const language = currentLanguage();
  const document = useQuery({
    queryKey: ['identity', 'consent-document', language],
    queryFn: () => fetchConsentDocument(language),
    enabled: due && !answered,
    staleTime: Number.POSITIVE_INFINITY,
  });

  async function answer(agreed: boolean) {
    setSaving(true);
    await api.put(
      '/api/identity/users/consent',
      { consentTimestamp: new Date().toISOString(), agreed },
      { schema: consentResponse },
    );
    setSaving(false);
    // Closed either way: a failed save asks again on the next visit rather than trapping the user.
    setAnswered(true);
    await queryClient.invalidateQueries({ queryKey: meQueryKey });
  }

  return (
    <Modal
      opened={opened}
      onClose={() => void answer(false)}
      title={<Text fw={650}>{t('admin.consent.title')}</Text>}
      centered
      size="lg"
      closeOnClickOutside={false}
    >
      <Stack>
        {document.isError ? (
          <Alert color="red" variant="light">
            {t('admin.consent.loadFailed')}
          </Alert>
        ) : (
          <ScrollArea.Autosize mah={360}>
            <Text size="sm" style={{ whiteSpace: 'pre-line' }} data-testid="consent-document">
              {document.data ?? ''}
            </Text>
          </ScrollArea.Autosize>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => void answer(false)} disabled={saving}>
            {t('admin.consent.dismiss')}
          </Button>
          <Button onClick={() => void answer(true)} loading={saving}>
            {t('admin.consent.approve')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
