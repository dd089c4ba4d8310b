import type { LivechatWidgetView } from '@app/contracts';
import { Alert, Button, Group, Modal, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertCircle, IconArrowLeft, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorObjectOf } from '../../shared/api-client';
import { PageHeader } from '../../shared/page-header';
import { showSnackbar } from '../../shared/snackbar-store';
import { usePageTitle } from '../../shared/use-page-title';
import {
  deleteWidget,
  livechatWidgetsKey,
  updateWidget,
  useLivechatWidgetEvents,
  widgetKey,
  widgetQueryOptions,
} from './livechat.queries';
import { livechatErrorText, widgetFormOf } from './livechat-form';
import { LivechatInstallCard } from './livechat-install-card';
import { LivechatWidgetForm } from './livechat-widget-form';
import { LivechatWidgetList } from './livechat-widget-list';

/** Deletes the widget after a confirmation that names its domain. */
function DeleteWidgetButton({ widget }: { widget: LivechatWidgetView }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [opened, { open, close }] = useDisclosure(false);
  const [deleting, setDeleting] = useState(false);

  async function confirm() {
    setDeleting(true);
    const result = await deleteWidget(widget.id);
    setDeleting(false);
    close();
    if (!result.ok) {
      showSnackbar('bottom', livechatErrorText(t, result.error), 'error');
      return;
    }
    showSnackbar('bottom', t('livechat.deleted'), 'success');
    // Leave first: while the edit screen still watches the widget, removing it would refetch a 404.
    await navigate({ to: '/livechat/create' });
    queryClient.removeQueries({ queryKey: widgetKey(widget.id) });
    void queryClient.invalidateQueries({ queryKey: livechatWidgetsKey, exact: true });
  }

  return (
    <>
      <Button variant="subtle" color="red" leftSection={<IconTrash size={16} />} onClick={open}>
        {t('livechat.actions.delete')}
      </Button>
      <Modal opened={opened} onClose={close} title={t('livechat.deleteTitle')} centered size={464}>
        <Stack gap="lg">
          <Text size="sm">{t('livechat.deleteConfirm', { domain: widget.domain })}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('livechat.actions.cancel')}
            </Button>
            <Button
              color="red"
              loading={deleting}
              onClick={() => void confirm()}
              data-testid="livechat-delete-confirm"
            >
              {t('livechat.actions.delete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** /livechat/edit/$id (EDIT_LIVE_CHAT): the widget's settings, embed code and connection. */
export function LivechatEditPage() {
  const { t } = useTranslation();
  usePageTitle('livechat.pageTitleEdit');
  useLivechatWidgetEvents();
  const { id = '' } = useParams({ strict: false }) as { id?: string };
  const queryClient = useQueryClient();
  const widget = useQuery(widgetQueryOptions(id));

  if (widget.isPending)
    return (
      <Stack gap="lg" maw={1180}>
        <Skeleton h={60} />
        <Skeleton h={420} />
      </Stack>
    );

  if (widget.isError)
    return (
      <Stack gap="md" maw={640}>
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertCircle size={18} />}
          title={t('livechat.loadFailed')}
        >
          {livechatErrorText(t, errorObjectOf(widget.error))}
        </Alert>
        <Button
          component={Link}
          to="/livechat/create"
          variant="light"
          leftSection={<IconArrowLeft size={16} />}
          w="fit-content"
        >
          {t('livechat.actions.back')}
        </Button>
      </Stack>
    );

  const current = widget.data;
  return (
    <Stack gap={0} maw={1180}>
      <PageHeader
        title={t('livechat.editTitle', { name: current.name })}
        description={t('livechat.editSubtitle')}
      />
      <LivechatWidgetForm
        key={current.id}
        initial={widgetFormOf(current)}
        submitLabel={t('livechat.actions.save')}
        submit={(body) => updateWidget(current.id, body)}
        onSaved={(saved) => {
          queryClient.setQueryData(widgetKey(saved.id), saved);
          void queryClient.invalidateQueries({ queryKey: livechatWidgetsKey, exact: true });
          showSnackbar('bottom', t('livechat.saved'), 'success');
        }}
        before={<LivechatInstallCard widget={current} />}
        aside={<LivechatWidgetList currentId={current.id} />}
        actions={<DeleteWidgetButton widget={current} />}
      />
    </Stack>
  );
}
