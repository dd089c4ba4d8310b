import type { MailboxEntry } from '@app/contracts';
import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconMail, IconMessage } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorObjectOf } from '../../shared/api-client';
import { browserTimezone } from '../../shared/display-format';
import { errorText } from '../../shared/i18n';
import { PageHeader } from '../../shared/page-header';
import { usePageTitle } from '../../shared/use-page-title';
import { mailboxQueryOptions } from './password-reset.queries';

const pageSize = 20;
const statusColor: Record<MailboxEntry['status'], string> = {
  PENDING: 'yellow',
  SENT: 'green',
  KEPT: 'blue',
  FAILED: 'red',
};

function formatWhen(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language === 'id' ? 'id-ID' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: browserTimezone(),
  }).format(new Date(iso));
}

/** One message; its text is shown as text (never rendered as HTML). */
function MailCard({ mail }: { mail: MailboxEntry }) {
  const { t, i18n } = useTranslation();
  const Icon = mail.channel === 'EMAIL' ? IconMail : IconMessage;
  return (
    <Card padding="md" data-testid="mailbox-entry">
      <Group justify="space-between" wrap="nowrap" mb={6}>
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Icon size={18} stroke={1.6} aria-hidden />
          <Text fw={600} size="sm" truncate>
            {mail.subject}
          </Text>
        </Group>
        <Badge color={statusColor[mail.status]} variant="light">
          {t(`passwordReset.mailbox.status.${mail.status}`)}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed" mb="xs">
        {t('passwordReset.mailbox.to', {
          recipient: mail.recipient,
          channel: t(`passwordReset.mailbox.channel.${mail.channel}`),
          when: formatWhen(mail.createdAt, i18n.resolvedLanguage ?? 'id'),
        })}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {mail.text}
      </Text>
      {mail.error ? (
        <Text size="xs" c="red" mt="xs">
          {t('passwordReset.mailbox.error', { error: mail.error })}
        </Text>
      ) : null}
    </Card>
  );
}

/**
 * The local mailbox (issue 14): mail and one-time codes the client was sent, readable
 * here when no SMTP or SMS provider is configured, so the flows work on a fresh machine.
 */
export function DevMailboxPage() {
  const { t } = useTranslation();
  usePageTitle('passwordReset.mailbox.pageTitle');
  const [pageNumber, setPageNumber] = useState(1);
  const mailbox = useQuery(mailboxQueryOptions(pageNumber, pageSize));
  const pages = Math.max(1, Math.ceil((mailbox.data?.total ?? 0) / pageSize));

  return (
    <Stack gap={0} maw={880}>
      <PageHeader
        title={t('passwordReset.mailbox.title')}
        description={t('passwordReset.mailbox.subtitle')}
      />
      {mailbox.isPending ? (
        <Stack gap="sm">
          <Skeleton h={96} />
          <Skeleton h={96} />
        </Stack>
      ) : mailbox.isError ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {errorText(t, errorObjectOf(mailbox.error))}
        </Alert>
      ) : mailbox.data.content.length === 0 ? (
        <Text c="dimmed">{t('passwordReset.mailbox.empty')}</Text>
      ) : (
        <Stack gap="sm" data-testid="mailbox-list">
          {mailbox.data.content.map((mail) => (
            <MailCard key={mail.id} mail={mail} />
          ))}
          {pages > 1 ? (
            <Group justify="space-between" mt="sm">
              <Button
                variant="default"
                disabled={pageNumber <= 1}
                onClick={() => setPageNumber((page) => page - 1)}
              >
                {t('passwordReset.mailbox.previous')}
              </Button>
              <Text size="sm" c="dimmed">
                {t('passwordReset.mailbox.page', { page: pageNumber, pages })}
              </Text>
              <Button
                variant="default"
                disabled={pageNumber >= pages}
                onClick={() => setPageNumber((page) => page + 1)}
              >
                {t('passwordReset.mailbox.next')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      )}
    </Stack>
  );
}
