import { inboxLimits, type TicketDetailResponse } from '@app/contracts';
import {
  Avatar,
  Divider,
  Group,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
  ThemeIcon,
  UnstyledButton,
} from '@mantine/core';
import { IconMail, IconNote, IconPhone } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { memo, type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChannelBadge } from '../../../shared/channel-badge';
import { initialsOf } from '../../../shared/display-format';
import { StatusBadge } from '../shared/ticket-badges';
import { dateTimeOf } from './chat-dates';
import classes from './chat-room.module.css';
import { categoriesQueryOptions, groupsQueryOptions, tagsQueryOptions } from './chat-room.queries';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={8} px="md" py="md">
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        {title}
      </Text>
      {children}
    </Stack>
  );
}

function ContactLine({ icon, value }: { icon: ReactNode; value: string | null }) {
  const { t } = useTranslation();
  return (
    <Group gap={8} wrap="nowrap" align="flex-start">
      <ThemeIcon variant="light" color="gray" size={24} radius="md" aria-hidden>
        {icon}
      </ThemeIcon>
      <Text size="sm" c={value ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }} pt={2}>
        {value || t('common.notAvailable')}
      </Text>
    </Group>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** The subject field: saved when the agent leaves it or presses Enter, only if it changed. */
function SubjectField(props: {
  value: string | null;
  disabled: boolean;
  onSave: (subject: string | null) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(props.value ?? '');
  useEffect(() => setDraft(props.value ?? ''), [props.value]);
  const save = () => {
    const next = draft.trim() || null;
    if (next !== (props.value ?? null)) props.onSave(next);
  };
  return (
    <TextInput
      size="xs"
      label={t('chatRoom.panel.subject')}
      placeholder={t('chatRoom.panel.subjectPlaceholder')}
      value={draft}
      maxLength={inboxLimits.subjectMax}
      disabled={props.disabled}
      onChange={(event) => setDraft(event.currentTarget.value)}
      onBlur={save}
      onKeyDown={(event) => {
        if (event.key === 'Enter') event.currentTarget.blur();
      }}
      data-testid="subject-input"
    />
  );
}

/**
 * The right-hand panel: who the customer is, the channel account, the ticket's subject,
 * category and tags, and the contact's earlier tickets (each opens its own room).
 */
// Memoized: the chat room re-renders on every page of messages, which changes nothing here.
export const CustomerPanel = memo(function CustomerPanel(props: {
  detail: TicketDetailResponse;
  canEdit: boolean;
  language: string;
  timeZone: string;
  onCategory: (categoryId: string | null) => void;
  onTags: (tags: string[]) => void;
  onSubject: (subject: string | null) => void;
  onOpenTicket: (ticketId: number) => void;
}) {
  const { t } = useTranslation();
  const { contact, ticket, channel, earlierTickets } = props.detail;
  const categories = useQuery(categoriesQueryOptions());
  const tags = useQuery(tagsQueryOptions());
  const groups = useQuery(groupsQueryOptions());
  const group = groups.data?.find((candidate) => candidate.id === ticket.groupId);
  const closed = ticket.status === 'CLOSED' || ticket.status === 'RESOLVED';

  return (
    <aside className={classes.panel} aria-label={t('chatRoom.panel.label')} data-testid="customer-panel">
      <Stack gap={4} align="center" px="md" pt="lg" pb="md">
        <Avatar color="brand" radius="xl" size={56} fz={20}>
          {initialsOf(contact.name, contact.phone ?? contact.email ?? '?')}
        </Avatar>
        <Text fw={650} ta="center" style={{ overflowWrap: 'anywhere' }}>
          {contact.name}
        </Text>
        <Text size="xs" c="dimmed">
          {t('chatRoom.panel.contactSince', {
            date: dateTimeOf(contact.createdAt, props.language, props.timeZone),
          })}
        </Text>
      </Stack>
      <Divider color="var(--app-border-subtle)" />
      <Section title={t('chatRoom.panel.contact')}>
        <ContactLine icon={<IconPhone size={14} />} value={contact.phone} />
        <ContactLine icon={<IconMail size={14} />} value={contact.email} />
        <ContactLine icon={<IconNote size={14} />} value={contact.notes} />
      </Section>
      <Divider color="var(--app-border-subtle)" />
      <Section title={t('chatRoom.panel.channel')}>
        <Group gap={8} wrap="nowrap">
          <ChannelBadge code={ticket.mediaPlatform} />
          <Text size="sm" truncate>
            {channel.name}
          </Text>
        </Group>
      </Section>
      <Divider color="var(--app-border-subtle)" />
      <Section title={t('chatRoom.panel.ticket')}>
        <SubjectField value={ticket.subject} disabled={!props.canEdit} onSave={props.onSubject} />
        <Select
          size="xs"
          label={t('chatRoom.panel.category')}
          placeholder={t('chatRoom.panel.categoryPlaceholder')}
          data={(categories.data ?? []).map((category) => ({ value: category.id, label: category.name }))}
          value={ticket.categoryId}
          onChange={(value) => props.onCategory(value)}
          clearable
          searchable
          disabled={!props.canEdit}
          nothingFoundMessage={t('chatRoom.panel.nothingFound')}
          data-testid="category-select"
        />
        <TagsInput
          size="xs"
          label={t('chatRoom.panel.tags')}
          placeholder={ticket.tags.length ? '' : t('chatRoom.panel.tagsPlaceholder')}
          data={tags.data ?? []}
          value={ticket.tags}
          onChange={props.onTags}
          maxTags={inboxLimits.tagsPerTicket}
          clearable={false}
          disabled={!props.canEdit}
          splitChars={[',']}
          data-testid="tags-input"
        />
        <Group grow gap="sm" align="flex-start">
          <Field label={t('chatRoom.panel.created')}>
            <Text size="xs">{dateTimeOf(ticket.createdAt, props.language, props.timeZone)}</Text>
          </Field>
          <Field label={t('chatRoom.panel.group')}>
            <Text size="xs">{group?.name ?? t('common.notAvailable')}</Text>
          </Field>
        </Group>
        {closed && ticket.remarks ? (
          <Field label={t('chatRoom.panel.remarks')}>
            <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
              {ticket.remarks}
            </Text>
          </Field>
        ) : null}
      </Section>
      <Divider color="var(--app-border-subtle)" />
      <Section title={t('chatRoom.panel.earlier', { count: earlierTickets.length })}>
        {earlierTickets.length === 0 ? (
          <Text size="xs" c="dimmed">
            {t('chatRoom.panel.noEarlier')}
          </Text>
        ) : (
          <Stack gap={6}>
            {earlierTickets.map((earlier) => (
              <UnstyledButton
                key={earlier.id}
                className={classes.earlierTicket}
                onClick={() => props.onOpenTicket(earlier.id)}
                data-testid="earlier-ticket"
              >
                <Group justify="space-between" gap={6} wrap="nowrap">
                  <Text size="xs" fw={600}>
                    #{earlier.id}
                  </Text>
                  <StatusBadge ticket={earlier} />
                </Group>
                <Text size="xs" c="dimmed" lineClamp={1} mt={2}>
                  {earlier.subject || earlier.lastMessagePreview || t('common.notAvailable')}
                </Text>
                <Text size="xs" c="dimmed" mt={2}>
                  {dateTimeOf(earlier.createdAt, props.language, props.timeZone)}
                </Text>
              </UnstyledButton>
            ))}
          </Stack>
        )}
      </Section>
    </aside>
  );
});
