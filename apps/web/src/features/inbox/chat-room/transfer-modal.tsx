import {
  Badge,
  Button,
  Center,
  Group,
  Indicator,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Tabs,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconSearch, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { memo, type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { initialsOf } from '../../../shared/display-format';
import { agentsQueryOptions, groupsQueryOptions } from './chat-room.queries';

export type TransferTarget = { assigneeId: string } | { groupId: string };

function OptionRow(props: {
  selected: boolean;
  current: boolean;
  onClick: () => void;
  avatar: ReactNode;
  title: string;
  subtitle?: string | null;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <UnstyledButton
      onClick={props.onClick}
      px="sm"
      py={8}
      data-testid={props.testId}
      aria-pressed={props.selected}
      style={{
        borderRadius: 8,
        background: props.selected ? 'var(--mantine-color-brand-0)' : undefined,
        outline: props.selected ? '1px solid var(--mantine-color-brand-3)' : undefined,
      }}
    >
      <Group gap="sm" wrap="nowrap">
        {props.avatar}
        <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={500} truncate>
            {props.title}
          </Text>
          {props.subtitle ? (
            <Text size="xs" c="dimmed" truncate>
              {props.subtitle}
            </Text>
          ) : null}
        </Stack>
        {props.current ? (
          <Badge size="xs" variant="light" color="gray" tt="none">
            {t('chatRoom.transfer.current')}
          </Badge>
        ) : null}
      </Group>
    </UnstyledButton>
  );
}

/** Assigns or transfers the chat to an agent (with their availability) or to a group. */
// Memoized: the chat room re-renders on every page of messages, which changes nothing here.
export const TransferModal = memo(function TransferModal(props: {
  opened: boolean;
  currentAssigneeId: string | null;
  currentGroupId: string | null;
  onClose: () => void;
  onSubmit: (target: TransferTarget) => void;
}) {
  const { t } = useTranslation();
  const agents = useQuery({ ...agentsQueryOptions(), enabled: props.opened });
  const groups = useQuery({ ...groupsQueryOptions(), enabled: props.opened });
  const [tab, setTab] = useState<string | null>('agents');
  const [search, setSearch] = useState('');
  const [target, setTarget] = useState<TransferTarget | null>(null);

  useEffect(() => {
    if (props.opened) {
      setSearch('');
      setTarget(null);
    }
  }, [props.opened]);

  const needle = search.trim().toLowerCase();
  const agentRows = useMemo(
    () =>
      (agents.data ?? [])
        .filter((agent) => !needle || `${agent.name} ${agent.email ?? ''}`.toLowerCase().includes(needle))
        .sort((a, b) => Number(b.agentStatus === 'ONLINE') - Number(a.agentStatus === 'ONLINE')),
    [agents.data, needle],
  );
  const groupRows = (groups.data ?? []).filter(
    (group) => !needle || group.name.toLowerCase().includes(needle),
  );
  const loading = tab === 'agents' ? agents.isPending : groups.isPending;
  const rows = tab === 'agents' ? agentRows.length : groupRows.length;

  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={<Text fw={650}>{t('chatRoom.transfer.title')}</Text>}
      size={464}
      centered
    >
      <Tabs value={tab} onChange={setTab}>
        <Tabs.List grow mb="sm">
          <Tabs.Tab value="agents">{t('chatRoom.transfer.agents')}</Tabs.Tab>
          <Tabs.Tab value="groups">{t('chatRoom.transfer.groups')}</Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <TextInput
        leftSection={<IconSearch size={14} />}
        placeholder={t('chatRoom.transfer.search')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        mb="sm"
        size="sm"
      />
      <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars>
        {loading ? (
          <Center py="xl">
            <Loader size="sm" />
          </Center>
        ) : rows === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="xl">
            {t('chatRoom.transfer.empty')}
          </Text>
        ) : tab === 'agents' ? (
          <Stack gap={2}>
            {agentRows.map((agent) => (
              <OptionRow
                key={agent.id}
                testId="transfer-agent"
                selected={target !== null && 'assigneeId' in target && target.assigneeId === agent.id}
                current={agent.id === props.currentAssigneeId}
                onClick={() => setTarget({ assigneeId: agent.id })}
                title={agent.name}
                subtitle={
                  agent.agentStatus === 'ONLINE'
                    ? t('chatRoom.transfer.online')
                    : t('chatRoom.transfer.offline')
                }
                avatar={
                  <Indicator
                    color={agent.agentStatus === 'ONLINE' ? 'green' : 'gray'}
                    offset={4}
                    size={9}
                    withBorder
                    position="bottom-end"
                  >
                    <Text
                      component="span"
                      size="xs"
                      fw={600}
                      w={32}
                      h={32}
                      bg="gray.1"
                      style={{ borderRadius: 32, display: 'grid', placeItems: 'center' }}
                    >
                      {initialsOf(agent.name, agent.email ?? '?')}
                    </Text>
                  </Indicator>
                }
              />
            ))}
          </Stack>
        ) : (
          <Stack gap={2}>
            {groupRows.map((group) => (
              <OptionRow
                key={group.id}
                selected={target !== null && 'groupId' in target && target.groupId === group.id}
                current={group.id === props.currentGroupId}
                onClick={() => setTarget({ groupId: group.id })}
                title={group.name}
                subtitle={group.description}
                avatar={<IconUsers size={20} color="var(--mantine-color-gray-6)" />}
              />
            ))}
          </Stack>
        )}
      </ScrollArea.Autosize>
      <Group justify="flex-end" gap="sm" mt="md">
        <Button variant="default" onClick={props.onClose}>
          {t('chatRoom.cancel')}
        </Button>
        <Button
          disabled={!target}
          onClick={() => target && props.onSubmit(target)}
          data-testid="transfer-submit"
        >
          {t('chatRoom.transfer.submit')}
        </Button>
      </Group>
    </Modal>
  );
});
