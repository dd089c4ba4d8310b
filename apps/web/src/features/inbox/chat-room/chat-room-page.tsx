import {
  type ChannelCode,
  inboxTopics,
  type TicketDetailResponse,
  type TicketPriority,
  ticketEventPayload,
} from '@app/contracts';
import { Button } from '@mantine/core';
import { IconMessageOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorObjectOf } from '../../../shared/api-client';
import { realtimeEvents } from '../../../shared/realtime-events';
import { showSnackbar } from '../../../shared/snackbar-store';
import { StatusScreen } from '../../../shared/status-screen';
import { usePageTitle } from '../../../shared/use-page-title';
import { useSession } from '../../../shared/use-session';
import { meQueryOptions } from '../../identity/identity.queries';
import { channelTakesFiles } from './attachment-check';
import classes from './chat-room.module.css';
import { chatRoomKeys, configurationQueryOptions, ticketDetailQueryOptions } from './chat-room.queries';
import { ChatRoomHeader } from './chat-room-header';
import { ChatRoomSkeleton, ClosedNotice, ExpiryBanner, ReadOnlyNotice } from './chat-room-notices';
import { CloseTicketModal, type ClosingStatus } from './close-ticket-modal';
import { Composer } from './composer';
import { CustomerPanel } from './customer-panel';
import { MessageList } from './message-list';
import type { ChatMessage } from './message-timeline';
import { TransferModal, type TransferTarget } from './transfer-modal';
import { useChatErrorText } from './use-chat-error-text';
import { type OutgoingDraft, useChatTimeline } from './use-chat-timeline';
import { useCustomerTyping, useMarkRead, useTypingSender } from './use-room-presence';
import { useTicketActions } from './use-ticket-actions';

/** Facebook, Instagram and Telegram chats past 24 hours can only be resolved (commerce "Chat"). */
const resolveOnlyWhenExpired: ReadonlyArray<ChannelCode> = ['MSG', 'IGM', 'TLG'];

/** Re-renders every minute, so a chat that expires while it is open shows it. */
function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** The chat room screen: /customer-service/inbox-chatroom?referenceId=<ticket id>. */
export function ChatRoomPage() {
  const search = useSearch({ strict: false }) as { referenceId?: number };
  const ticketId = Number(search.referenceId);
  usePageTitle('chatRoom.pageTitle');
  // A new ticket is a new room: nothing of the previous one may leak into it.
  return <ChatRoom key={ticketId} ticketId={ticketId} />;
}

function ChatRoom({ ticketId }: { ticketId: number }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const describeError = useChatErrorText();
  const me = useQuery(meQueryOptions());
  const detail = useQuery(ticketDetailQueryOptions(ticketId));
  const configuration = useQuery(configurationQueryOptions());
  const actions = useTicketActions(ticketId);
  const now = useMinuteClock();
  const [quoted, setQuoted] = useState<ChatMessage | null>(null);
  const [followSignal, setFollowSignal] = useState(0);
  const [closing, setClosing] = useState<ClosingStatus | null>(null);
  const [transferOpen, setTransferOpen] = useState(false);

  const language = i18n.resolvedLanguage ?? 'id';
  const timeZone = session?.claims.sub.clientTimezone ?? 'Asia/Jakarta';
  const canReply =
    !!session &&
    session.ability.can('READ', 'CUSTOMER_SERVICE_INBOX') &&
    session.claims.csPosition !== 'SUPERVISOR_1';

  const timeline = useChatTimeline({
    ticketId,
    roomId: detail.data?.ticket.roomId,
    sender: { id: session?.claims.uid ?? '', name: me.data?.user.name ?? session?.claims.email ?? '' },
    describeError,
  });

  const ticket = detail.data?.ticket;
  const open = ticket?.status === 'UNASSIGNED' || ticket?.status === 'ASSIGNED';
  const expired =
    !!ticket &&
    open &&
    (ticket.expired || (ticket.expiresAt !== null && Date.parse(ticket.expiresAt) <= now));
  const onlyResolve = expired && !!ticket && resolveOnlyWhenExpired.includes(ticket.mediaPlatform);

  const typingName = useCustomerTyping(ticketId);
  const typing = useTypingSender(ticketId, canReply && open && !expired);
  const newestInboundId = useMemo(() => {
    for (let index = timeline.messages.length - 1; index >= 0; index -= 1) {
      const message = timeline.messages[index];
      if (message.direction === 'INBOUND' && message.id !== null) return message.id;
    }
    return null;
  }, [timeline.messages]);
  useMarkRead(ticketId, newestInboundId, ticket?.unreadCount ?? 0, (marked) =>
    queryClient.setQueryData<TicketDetailResponse>(chatRoomKeys.detail(ticketId), (current) =>
      current ? { ...current, ticket: marked } : current,
    ),
  );

  // The header and the panel follow changes made elsewhere (another agent, automation).
  useEffect(
    () =>
      realtimeEvents.on(inboxTopics.ticketUpdated, (event) => {
        const parsed = ticketEventPayload.safeParse(event.payload);
        if (!parsed.success || parsed.data.ticket.id !== ticketId) return;
        queryClient.setQueryData<TicketDetailResponse>(chatRoomKeys.detail(ticketId), (current) =>
          current ? { ...current, ticket: parsed.data.ticket } : current,
        );
      }),
    [ticketId, queryClient],
  );
  useEffect(() => realtimeEvents.onResync(() => void detail.refetch()), [detail.refetch]);
  // Fetched before the page's first socket was ready, the ticket may have changed since.
  useEffect(() => realtimeEvents.onFirstConnect(() => void detail.refetch()), [detail.refetch]);

  const onReply = useCallback((message: ChatMessage) => setQuoted(message), []);
  const onRetry = useCallback((message: ChatMessage) => timeline.retry(message), [timeline.retry]);

  // The header, panel and modals are memoized (the room re-renders on every page of
  // messages); their handlers stay the same functions and read the latest values here.
  const latest = useRef({ actions, navigate, t });
  latest.current = { actions, navigate, t };
  const goToInbox = useCallback(() => void latest.current.navigate({ to: '/customer-service/inbox' }), []);
  const onPriority = useCallback(
    (priority: TicketPriority) => void latest.current.actions.setPriority(priority),
    [],
  );
  const openTransfer = useCallback(() => setTransferOpen(true), []);
  const closeTransfer = useCallback(() => setTransferOpen(false), []);
  const onTransfer = useCallback((target: TransferTarget) => {
    setTransferOpen(false);
    void latest.current.actions.transfer(target);
  }, []);
  const onCategory = useCallback(
    (categoryId: string | null) => void latest.current.actions.setCategory(categoryId),
    [],
  );
  const onTags = useCallback((tags: string[]) => void latest.current.actions.setTags(tags), []);
  const onSubject = useCallback(
    (subject: string | null) => void latest.current.actions.setSubject(subject),
    [],
  );
  const onOpenTicket = useCallback(
    (id: number) =>
      void latest.current.navigate({ to: '/customer-service/inbox-chatroom', search: { referenceId: id } }),
    [],
  );
  const clearQuote = useCallback(() => setQuoted(null), []);
  const send = timeline.send;
  const onSend = useCallback(
    (draft: OutgoingDraft) => void send(draft).then(() => setFollowSignal((value) => value + 1)),
    [send],
  );
  const cancelClosing = useCallback(() => setClosing(null), []);
  const onClosed = useCallback((status: ClosingStatus) => {
    setClosing(null);
    showSnackbar(
      'bottom',
      latest.current.t(status === 'RESOLVED' ? 'chatRoom.done.resolved' : 'chatRoom.done.closed'),
      'success',
    );
    void latest.current.navigate({ to: '/customer-service/inbox' });
  }, []);

  if (detail.isPending) return <ChatRoomSkeleton />;
  if (detail.isError || !ticket || !detail.data) {
    const error = errorObjectOf(detail.error);
    return (
      <StatusScreen
        icon={<IconMessageOff size={44} />}
        code={String(error.statusCode)}
        title={error.statusCode === 404 ? t('chatRoom.notFound.title') : t('chatRoom.loadFailed')}
        description={error.statusCode === 404 ? t('chatRoom.notFound.description') : describeError(error)}
        actions={
          <>
            <Button variant="default" onClick={() => navigate({ to: '/customer-service/inbox' })}>
              {t('chatRoom.backToList')}
            </Button>
            {error.statusCode !== 404 ? (
              <Button onClick={() => detail.refetch()}>{t('common.retry')}</Button>
            ) : null}
          </>
        }
      />
    );
  }

  const config = configuration.data;

  return (
    <div className={classes.room} data-testid="chat-room">
      <div className={classes.conversation}>
        <ChatRoomHeader
          detail={detail.data}
          canAct={canReply}
          onlyResolve={onlyResolve}
          onBack={goToInbox}
          onPriority={onPriority}
          onTransfer={openTransfer}
          onCloseTicket={setClosing}
        />
        {expired ? <ExpiryBanner onlyResolve={onlyResolve} /> : null}
        {timeline.status === 'error' && timeline.messages.length === 0 ? (
          <StatusScreen
            icon={<IconMessageOff size={40} />}
            title={t('chatRoom.loadFailed')}
            description={timeline.loadError ? describeError(timeline.loadError) : ''}
            actions={<Button onClick={() => void timeline.reload()}>{t('common.retry')}</Button>}
            minHeight="100%"
          />
        ) : (
          <MessageList
            messages={timeline.messages}
            ready={timeline.status === 'ready'}
            hasOlder={timeline.hasOlder}
            loadingOlder={timeline.loadingOlder}
            onLoadOlder={timeline.loadOlder}
            hasNewer={timeline.hasNewer}
            loadingNewer={timeline.loadingNewer}
            onLoadNewer={timeline.loadNewer}
            missedBelow={timeline.missedBelow}
            onJumpToLatest={timeline.jumpToLatest}
            showAgentName={config?.isDisplayChatroomCSName ?? false}
            language={language}
            timeZone={timeZone}
            onReply={canReply && open ? onReply : null}
            onRetry={canReply && open ? onRetry : null}
            canRetryPublic={!expired}
            typingName={typingName}
            followSignal={followSignal}
          />
        )}
        {!open ? (
          <ClosedNotice ticket={ticket} language={language} timeZone={timeZone} />
        ) : canReply ? (
          <Composer
            channel={ticket.mediaPlatform}
            publicAllowed={!expired}
            showEmoji={config?.isDisplayChatroomEmoji ?? false}
            showAttachment={
              (config?.isDisplayChatroomAttachment ?? false) && channelTakesFiles(ticket.mediaPlatform)
            }
            quoted={quoted}
            onClearQuote={clearQuote}
            onSend={onSend}
            onTyping={typing.touch}
            onStopTyping={typing.stop}
          />
        ) : (
          <ReadOnlyNotice />
        )}
      </div>
      <CustomerPanel
        detail={detail.data}
        canEdit={canReply}
        language={language}
        timeZone={timeZone}
        onCategory={onCategory}
        onTags={onTags}
        onSubject={onSubject}
        onOpenTicket={onOpenTicket}
      />
      <CloseTicketModal
        opened={closing !== null}
        initialStatus={closing ?? 'RESOLVED'}
        onlyResolve={onlyResolve}
        ticketId={ticketId}
        otherActiveCount={detail.data.otherActiveTicketIds.length}
        onClose={cancelClosing}
        onDone={onClosed}
      />
      <TransferModal
        opened={transferOpen}
        currentAssigneeId={ticket.assigneeId}
        currentGroupId={ticket.groupId}
        onClose={closeTransfer}
        onSubmit={onTransfer}
      />
    </div>
  );
}
