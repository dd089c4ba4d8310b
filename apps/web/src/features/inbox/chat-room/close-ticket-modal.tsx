import { inboxLimits } from '@app/contracts';
import { Alert, Button, Group, Modal, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { memo, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeTicketStatus } from './chat-room.queries';
import { useChatErrorText } from './use-chat-error-text';

export type ClosingStatus = 'CLOSED' | 'RESOLVED';

/**
 * Closes or resolves the chat with the remark the spec requires. When the contact has
 * other active chats, a second step says so and closes them all (commerce: resolving a
 * number with several active chats closes all of them after confirmation).
 */
// Memoized: the chat room re-renders on every page of messages, which changes nothing here.
export const CloseTicketModal = memo(function CloseTicketModal(props: {
  opened: boolean;
  initialStatus: ClosingStatus;
  /** Facebook, Instagram and Telegram chats past 24 hours can only be resolved. */
  onlyResolve: boolean;
  ticketId: number;
  otherActiveCount: number;
  onClose: () => void;
  onDone: (status: ClosingStatus) => void;
}) {
  const { t } = useTranslation();
  const errorOf = useChatErrorText();
  const [status, setStatus] = useState<ClosingStatus>(props.initialStatus);
  const [remark, setRemark] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!props.opened) return;
    setStatus(props.onlyResolve ? 'RESOLVED' : props.initialStatus);
    setRemark('');
    setTouched(false);
    setConfirming(false);
    setError(null);
  }, [props.opened, props.initialStatus, props.onlyResolve]);

  const remarkMissing = remark.trim().length === 0;

  async function submit() {
    setTouched(true);
    if (remarkMissing) return;
    if (props.otherActiveCount > 0 && !confirming) {
      setConfirming(true);
      return;
    }
    setSubmitting(true);
    setError(null);
    const result = await changeTicketStatus({
      ticketId: props.ticketId,
      status,
      remarks: remark.trim(),
      includeOtherActive: props.otherActiveCount > 0,
    });
    setSubmitting(false);
    if (result.ok) props.onDone(status);
    else setError(errorOf(result.error));
  }

  const actionLabel = t(status === 'RESOLVED' ? 'chatRoom.actions.resolve' : 'chatRoom.actions.close');
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={<Text fw={650}>{t('chatRoom.closeModal.title')}</Text>}
      size={464}
      centered
    >
      {confirming ? (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
            {t('chatRoom.closeModal.othersWarning', { count: props.otherActiveCount })}
          </Alert>
          {error ? (
            <Text size="sm" c="red.7" role="alert">
              {error}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)} disabled={submitting}>
              {t('common.back')}
            </Button>
            <Button color="red" onClick={submit} loading={submitting} data-testid="close-confirm-all">
              {t('chatRoom.closeModal.confirmAll', { count: props.otherActiveCount + 1 })}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="md">
          <SegmentedControl
            fullWidth
            value={status}
            onChange={(value) => setStatus(value as ClosingStatus)}
            data={[
              { value: 'RESOLVED', label: t('chatRoom.actions.resolve') },
              { value: 'CLOSED', label: t('chatRoom.actions.close'), disabled: props.onlyResolve },
            ]}
          />
          {props.onlyResolve ? (
            <Text size="xs" c="dimmed">
              {t('chatRoom.closeModal.onlyResolve')}
            </Text>
          ) : null}
          <Textarea
            label={t('chatRoom.closeModal.remark')}
            placeholder={t('chatRoom.closeModal.remarkPlaceholder')}
            required
            autosize
            minRows={3}
            maxRows={6}
            maxLength={inboxLimits.remarksMax}
            value={remark}
            onChange={(event) => setRemark(event.currentTarget.value)}
            onBlur={() => setTouched(true)}
            error={touched && remarkMissing ? t('chatRoom.closeModal.remarkRequired') : null}
            data-autofocus
            data-testid="close-remark"
          />
          {error ? (
            <Text size="sm" c="red.7" role="alert">
              {error}
            </Text>
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={props.onClose} disabled={submitting}>
              {t('chatRoom.cancel')}
            </Button>
            <Button onClick={submit} loading={submitting} data-testid="close-submit">
              {actionLabel}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
});
