import { Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../shared/page-header';
import { showSnackbar } from '../../shared/snackbar-store';
import { usePageTitle } from '../../shared/use-page-title';
import { createWidget, livechatWidgetsKey, useLivechatWidgetEvents, widgetKey } from './livechat.queries';
import { emptyWidgetForm } from './livechat-form';
import { LivechatWidgetForm } from './livechat-widget-form';
import { LivechatWidgetList } from './livechat-widget-list';

/** /livechat/create (CREATE_LIVE_CHAT): a new widget, with the client's existing ones beside it. */
export function LivechatCreatePage() {
  const { t } = useTranslation();
  usePageTitle('livechat.pageTitleCreate');
  useLivechatWidgetEvents();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [initial] = useState(() => emptyWidgetForm(t));

  return (
    <Stack gap={0} maw={1180}>
      <PageHeader title={t('livechat.createTitle')} description={t('livechat.createSubtitle')} />
      <LivechatWidgetForm
        initial={initial}
        submitLabel={t('livechat.actions.create')}
        submit={createWidget}
        onSaved={(widget) => {
          queryClient.setQueryData(widgetKey(widget.id), widget);
          void queryClient.invalidateQueries({ queryKey: livechatWidgetsKey, exact: true });
          showSnackbar('bottom', t('livechat.created'), 'success');
          void navigate({ to: '/livechat/edit/$id', params: { id: widget.id } });
        }}
        aside={<LivechatWidgetList />}
      />
    </Stack>
  );
}
