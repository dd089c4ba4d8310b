import { channelList, channels, type TicketColumn, type TicketSummary, ticketColumns } from '@app/contracts';
import { IconFlagFilled } from '@tabler/icons-react';
import type { CSSProperties, ReactNode } from 'react';
import { channelIcons } from '../../../shared/channel-badge';
import { chatRoomHref, isModifiedClick } from '../shared/chat-room-link';
import { formatDateTimeShort } from '../shared/inbox-time';
import { priorityColours, statusColours } from '../shared/ticket-badges';
import classes from './ticket-lists.module.css';

/**
 * What a cell needs besides its row: names for ids, labels in the user's language, the
 * client's zone. Labels come in here rather than through a hook per cell: a row of the
 * table mounts on every scroll step, so it must be cheap.
 */
export interface CellContext {
  language: string;
  zone: string;
  agentName: (id: string | null) => string | null;
  groupName: (id: string | null) => string | null;
  statusLabel: (status: TicketSummary['status'] | 'EXPIRED') => string;
  priorityLabel: (priority: TicketSummary['priority']) => string;
  selectRowLabel: (ticketId: number) => string;
  empty: string;
}

interface ColumnDefinition {
  /** Pixels; the table scrolls sideways when the chosen columns need more room. */
  width: number;
  render: (ticket: TicketSummary, context: CellContext) => ReactNode;
}

function plain(value: string | null | undefined, context: CellContext): ReactNode {
  if (!value) return <span className={classes.cellEmpty}>{context.empty}</span>;
  return (
    <span className={classes.cellText} title={value}>
      {value}
    </span>
  );
}

/** Status colours with a class of their own; another colour falls back to an inline style. */
const chipColourClasses: Record<string, string | undefined> = {
  orange: classes.chipOrange,
  blue: classes.chipBlue,
  gray: classes.chipGray,
  teal: classes.chipTeal,
  red: classes.chipRed,
};

/** A light chip in a Mantine colour, without the weight of a Badge component. */
function chip(label: string, colour: string): ReactNode {
  const colourClass = chipColourClasses[colour];
  if (colourClass) return <span className={`${classes.chip} ${colourClass}`}>{label}</span>;
  const style = {
    '--chip-background': `var(--mantine-color-${colour}-light)`,
    '--chip-color': `var(--mantine-color-${colour}-light-color)`,
  } as CSSProperties;
  return (
    <span className={classes.chip} style={style}>
      {label}
    </span>
  );
}

let channelChipRules: HTMLStyleElement | null = null;

/**
 * The channels' brand colours as one style sheet (`data-channel` on the chip), written
 * once from the contract, so a chip needs no inline style of its own.
 */
function ensureChannelChipRules(): void {
  if (channelChipRules || typeof document === 'undefined') return;
  channelChipRules = document.createElement('style');
  channelChipRules.textContent = channelList
    .map(
      (channel) =>
        `.${classes.chip}[data-channel="${channel.code}"] { --chip-background: color-mix(in srgb, ${channel.colour} 12%, transparent); --chip-color: ${channel.colour}; }`,
    )
    .join('\n');
  document.head.append(channelChipRules);
}

function channelChip(ticket: TicketSummary): ReactNode {
  ensureChannelChipRules();
  const Icon = channelIcons[ticket.mediaPlatform];
  return (
    <span className={classes.chip} data-channel={ticket.mediaPlatform}>
      <Icon size={12} stroke={2} aria-hidden />
      {channels[ticket.mediaPlatform].name}
    </span>
  );
}

/** How each column of core-inbox §3 shows in the ticket table. */
export const columnDefinitions: Record<TicketColumn, ColumnDefinition> = {
  id: {
    width: 80,
    // A plain link (a router Link per row is costly to mount): the row's click handler
    // navigates inside the app; modified clicks open a new tab as links do.
    render: (ticket) => (
      <a
        href={chatRoomHref(ticket.id)}
        className={classes.idLink}
        onClick={(event) => {
          if (isModifiedClick(event)) event.stopPropagation();
          else event.preventDefault();
        }}
      >
        #{ticket.id}
      </a>
    ),
  },
  customer: {
    width: 200,
    render: (ticket) => (
      <span className={classes.cellStack}>
        <span className={classes.cellStrong}>{ticket.customer.name}</span>
        <span className={classes.cellHint}>{ticket.customer.phone ?? ticket.customer.email ?? ''}</span>
      </span>
    ),
  },
  mediaPlatform: { width: 150, render: channelChip },
  status: {
    width: 150,
    render: (ticket, context) => {
      const open = ticket.status === 'UNASSIGNED' || ticket.status === 'ASSIGNED';
      const shown = open && ticket.expired ? 'EXPIRED' : ticket.status;
      return chip(context.statusLabel(shown), statusColours[shown]);
    },
  },
  priority: {
    width: 110,
    render: (ticket, context) => (
      <span className={ticket.priority === 3 ? classes.priorityQuiet : classes.priority}>
        <IconFlagFilled
          size={13}
          aria-hidden
          color={`var(--mantine-color-${priorityColours[ticket.priority]}-${ticket.priority === 3 ? 4 : 6})`}
        />
        {context.priorityLabel(ticket.priority)}
      </span>
    ),
  },
  subject: { width: 200, render: (ticket, context) => plain(ticket.subject, context) },
  createdAt: {
    width: 168,
    render: (ticket, context) =>
      plain(formatDateTimeShort(ticket.createdAt, context.language, context.zone), context),
  },
  assigneeId: {
    width: 160,
    render: (ticket, context) => plain(context.agentName(ticket.assigneeId), context),
  },
  groupId: { width: 150, render: (ticket, context) => plain(context.groupName(ticket.groupId), context) },
  closedAt: {
    width: 168,
    render: (ticket, context) =>
      plain(formatDateTimeShort(ticket.closedAt, context.language, context.zone), context),
  },
  closedBy: { width: 160, render: (ticket, context) => plain(context.agentName(ticket.closedBy), context) },
  remarks: { width: 200, render: (ticket, context) => plain(ticket.remarks, context) },
  tags: {
    width: 200,
    render: (ticket, context) =>
      ticket.tags.length === 0 ? (
        plain(null, context)
      ) : (
        <span className={classes.tagList} title={ticket.tags.join(', ')}>
          {ticket.tags.slice(0, 2).map((tag) => (
            <span key={tag} className={classes.tag}>
              {tag}
            </span>
          ))}
          {ticket.tags.length > 2 ? (
            <span className={classes.cellHint}>+{ticket.tags.length - 2}</span>
          ) : null}
        </span>
      ),
  },
  submitterId: {
    width: 160,
    render: (ticket, context) => plain(context.agentName(ticket.submitterId), context),
  },
};

/** The columns a user sees before choosing: the ones an agent reads a ticket by. */
export const defaultColumns: TicketColumn[] = [
  'id',
  'customer',
  'mediaPlatform',
  'status',
  'priority',
  'subject',
  'assigneeId',
  'groupId',
  'createdAt',
  'tags',
];

/**
 * The order columns read in, left to right: who and where first, then the state, then
 * the people and times. Every column of the contract has its place.
 */
export const columnOrder: ReadonlyArray<TicketColumn> = (
  [
    'id',
    'customer',
    'mediaPlatform',
    'status',
    'priority',
    'subject',
    'assigneeId',
    'groupId',
    'createdAt',
    'tags',
    'closedAt',
    'closedBy',
    'remarks',
    'submitterId',
    ...ticketColumns,
  ] as TicketColumn[]
).filter((column, index, all) => all.indexOf(column) === index);

/** A saved set in the table's fixed order, whatever order it was saved in. */
export function orderedColumns(chosen: ReadonlyArray<TicketColumn>): TicketColumn[] {
  return columnOrder.filter((column) => chosen.includes(column));
}
