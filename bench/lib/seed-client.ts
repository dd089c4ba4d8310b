// One client's data for the seed (bench:seed), made by set-based SQL in the seed's session:
// users, categories, configuration, channels and the live-chat widget; contacts, identities and
// rooms; tickets over the last year in every state; their messages (the giant room's 100,000
// among them) and the search words the messages' trigger would have kept.
import { bitString } from '@app/contracts';
import type pg from 'pg';
import { giantRoomName, seasonalQuestion } from '../seed-names';

/** A statement on the seed's one connection. */
export type SeedQuery = (text: string, values?: unknown[]) => Promise<pg.QueryResult>;
/** Runs one part of the seed and prints how long it took. */
export type SeedStep = (label: string, work: () => Promise<unknown>) => Promise<void>;

/** A client the seed makes and how much it holds. */
export interface SeedTenant {
  slug: string;
  name: string;
  tickets: number;
  messages: number;
  agents: number;
}

const channelCodes = ['WAP', 'IGM', 'MSG', 'TPD', 'LZD', 'SHP', 'WPU', 'VBR', 'LNE', 'TLG', 'LVC', 'EML'];

/**
 * Fills one client. Needs the vocabulary tables (seed-vocabulary.ts), and runs with row
 * triggers and foreign-key checks off and the big tables' secondary indexes dropped.
 */
export async function fillClient(
  q: SeedQuery,
  step: SeedStep,
  tenant: SeedTenant,
  passwordHash: string,
): Promise<void> {
  console.log(
    `${tenant.slug}: ${tenant.tickets} tickets, ~${tenant.messages} messages, ${tenant.agents} agents`,
  );
  const clientId = (
    (
      await q(
        `insert into clients (slug, name, permission_index, features, user_limit)
         values ($1, $2, '${bitString([0, 1, 2, 9, 10, 14, 15, 16, 29])}', '["INBOX","BROADCAST","TEMPLATE","CONTACT","PRODUCT"]', 1000)
         returning id`,
        [tenant.slug, tenant.name],
      )
    ).rows[0] as { id: string }
  ).id;

  await step('users, categories, configuration, channels', async () => {
    await q(
      `insert into users (client_id, email, name, role, password_hash, cs_position, consent_agreed_at, consent_timestamp)
       values ($1, 'owner@' || $2 || '.test', 'Pemilik ' || $3, 'OWN', $4, null, now(), now()),
              ($1, 'supervisor@' || $2 || '.test', 'Supervisor ' || $3, 'USC', $4, 'SUPERVISOR_1', now(), now())`,
      [clientId, tenant.slug, tenant.name, passwordHash],
    );
    await q(
      `insert into users (client_id, email, name, role, password_hash, cs_position, consent_agreed_at, consent_timestamp, created_at)
       select $1, 'agent' || g || '@' || $2 || '.test', f.v || ' ' || l.v || ' (agen ' || g || ')', 'USC', $3, 'CS_2',
              now(), now(), now() - make_interval(secs => g)
         from generate_series(1, $4::int) g
         join first_names f on f.n = g % 32 join last_names l on l.n = (g / 32) % 20`,
      [clientId, tenant.slug, passwordHash, tenant.agents],
    );
    await q(
      `insert into ticket_categories (client_id, name)
       select $1, unnest(array['Pertanyaan produk','Pengiriman','Pembayaran','Komplain','Retur','Promo'])`,
      [clientId],
    );
    await q(
      `insert into inbox_configurations (client_id, is_display_chatroom_emoji, is_display_chatroom_attachment, is_display_chatroom_cs_name)
       values ($1, 1, 1, 1)`,
      [clientId],
    );
    await q(
      `insert into channel_accounts (client_id, channel, name, status, connected_at)
       select $1, c, $2 || ' ' || c, 'CONNECTED', now() - interval '400 days' from unnest($3::text[]) c`,
      [clientId, tenant.name, channelCodes],
    );
    // The live-chat widget of the LVC account, connected: realtime benches talk to it as visitors.
    await q(
      `insert into livechat_widgets (client_id, channel_account_id, name, domain, colour, online_title, online_message,
                                     offline_title, offline_message, consent_text, connected_at)
       select $1, id, $2, 'https://' || $3 || '.bench.test', '#1C7ED6', 'Halo!', 'Ada yang bisa kami bantu?',
              'Kami sedang offline', 'Tinggalkan pesan ya', 'Saya setuju data saya diproses.', now()
         from channel_accounts where client_id = $1 and channel = 'LVC'`,
      [clientId, tenant.name, tenant.slug],
    );
  });

  // Contacts: three tickets for every five contacts come from returning customers.
  const contactCount = Math.max(1, Math.floor(tenant.tickets * 0.6));
  await step(`${contactCount} contacts, identities and rooms`, async () => {
    await q(
      `insert into contacts (client_id, name, phone, email, created_at, updated_at)
       select $1, f.v || ' ' || m.v || ' ' || l.v, '+628' || lpad((1000000000 + g::bigint * 7919 % 899999999)::text, 10, '0'),
              case when g % 3 = 0 then lower(f.v) || '.' || g || '@mail.test' end,
              now() - interval '400 days', now() - interval '400 days'
         from generate_series(1, $2::int) g
         cross join (select (select count(*) from first_names) as f, (select count(*) from middle_names) as m,
                            (select count(*) from last_names) as l) sizes
         join first_names f on f.n = g % sizes.f join middle_names m on m.n = (g / sizes.f) % sizes.m
         join last_names l on l.n = (g / (sizes.f * sizes.m)) % sizes.l`,
      [clientId, contactCount],
    );
    await q(
      `create temporary table account_of as
         select row_number() over (order by channel) - 1 as n, id, channel from channel_accounts where client_id = $1`,
      [clientId],
    );
    await q(
      `insert into contact_identities (client_id, contact_id, channel_account_id, external_id, created_at)
       select $1, c.id, a.id, 'ext-' || c.id, c.created_at
         from (select id, created_at, row_number() over () as rn from contacts where client_id = $1) c
         join account_of a on a.n = c.rn % 12`,
      [clientId],
    );
    await q(
      `insert into chat_rooms (client_id, channel_account_id, channel, contact_id, contact_identity_id, name, customer_phone_number, created_at)
       select $1, i.channel_account_id, a.channel, i.contact_id, i.id,
              case when row_number() over (order by i.id) = 1 then $2 else c.name end, c.phone, i.created_at
         from contact_identities i join contacts c on c.id = i.contact_id join account_of a on a.id = i.channel_account_id
        where i.client_id = $1`,
      [clientId, giantRoomName],
    );
  });

  // Tickets, oldest first so ids follow time, over the last year. The giant room holds 20
  // tickets; every other room one or more.
  const giantMessages = Math.min(100_000, Math.floor(tenant.messages / 10));
  await step(`${tenant.tickets} tickets`, async () => {
    await q(
      `create temporary table room_of as
         select row_number() over (order by r.name = $2 desc, r.id) - 1 as n, r.id, r.contact_id, r.channel_account_id, r.channel,
                r.name, r.customer_phone_number, c.email
           from chat_rooms r join contacts c on c.id = r.contact_id where r.client_id = $1`,
      [clientId, giantRoomName],
    );
    await q(`create temporary table agent_of as
               select row_number() over (order by created_at) - 1 as n, id from users
                where client_id = '${clientId}' and cs_position = 'CS_2'`);
    await q(
      `create temporary table category_of as select row_number() over () - 1 as n, id from ticket_categories where client_id = '${clientId}'`,
    );
    const rooms = contactCount;
    await q(
      `insert into tickets (client_id, room_id, contact_id, channel_account_id, channel, status, priority, category_id,
                            tags, remarks, subject, assignee_id, customer_name, customer_phone, customer_email,
                            last_message_at, last_message_preview, last_customer_message_at, expires_at, unread_count,
                            created_at, closed_at, updated_at)
       select $1, r.id, r.contact_id, r.channel_account_id, r.channel, s.status, 1 + g % 3,
              case when g % 4 > 0 then cat.id end,
              case g % 7 when 0 then array['vip'] when 1 then array['retur','komplain'] when 2 then array['grosir']
                         when 3 then array['promo'] else '{}'::text[] end,
              case when s.status in ('CLOSED','RESOLVED') then 'Selesai: ' || pa.body end,
              case when g % 5 = 0 then 'Pesanan INV/2026/' || lpad((g % 99991)::text, 5, '0') end,
              case when s.status = 'UNASSIGNED' then null else ag.id end,
              r.name, r.customer_phone_number, r.email,
              t.created + interval '12 minutes', left(pq.body, 120), t.created + interval '10 minutes',
              case when r.channel in ('WAP','IGM','MSG') then t.created + interval '24 hours 10 minutes' end,
              case when s.status in ('UNASSIGNED','ASSIGNED') then g % 4 else 0 end,
              t.created, case when s.status in ('CLOSED','RESOLVED') then t.created + interval '40 minutes' end,
              t.created + interval '12 minutes'
         from generate_series(1, $2::int) g
         cross join lateral (select now() - make_interval(secs => (($2::int - g)::float8 / $2::int) * 365 * 86400 + 60) as created) t
         cross join lateral (select case
             when g > $2::int - greatest(20, $2::int / 50) then (array['UNASSIGNED','ASSIGNED','ASSIGNED'])[1 + g % 3]
             when g % 10 = 0 then 'CLOSED' else 'RESOLVED' end as status) s
         join room_of r on r.n = case when g % 50000 = 1 or g = $2::int then 0 else g % $3::int end
         join agent_of ag on ag.n = (g * 7) % $4::int
         join category_of cat on cat.n = g % 6
         join pq on pq.n = g % 17
         join pa on pa.n = g % 11
        order by g`,
      [clientId, tenant.tickets, rooms, tenant.agents],
    );
    // A room holds at most one open ticket: a later open one in the same room stays, the earlier ones close.
    await q(
      `update tickets t set status = 'RESOLVED', closed_at = t.created_at + interval '40 minutes', unread_count = 0
         from (select id, row_number() over (partition by room_id order by id desc) as k
                 from tickets where client_id = $1 and status in ('UNASSIGNED','ASSIGNED')) o
        where o.id = t.id and o.k > 1`,
      [clientId],
    );
    await q(
      `update chat_rooms r set current_ticket_id = x.id, last_message_at = x.last_message_at
         from (select distinct on (room_id) room_id, id, last_message_at from tickets where client_id = $1
                order by room_id, id desc) x
        where x.room_id = r.id`,
      [clientId],
    );
  });

  // Messages: each ticket gets a length from a skewed distribution (most short, a few long);
  // the giant room's tickets share its 100,000. Customer and agent alternate; 5% are notes.
  const restMessages = Math.max(0, tenant.messages - giantMessages);
  await step(`~${tenant.messages} messages`, async () => {
    const giantRoom = ((await q(`select id from room_of where n = 0`)).rows[0] as { id: string }).id;
    const giantTickets = Number(
      (
        (await q(`select count(*) from tickets where room_id = $1`, [giantRoom])).rows[0] as {
          count: string;
        }
      ).count,
    );
    const otherTickets = Math.max(1, tenant.tickets - giantTickets);
    const mean = restMessages / otherTickets;
    await q(
      `insert into messages (client_id, room_id, ticket_id, channel_account_id, kind, direction, sender_type,
                             sender_id, sender_name, sender_ref, text, status, created_at, updated_at)
       select t.client_id, t.room_id, t.id, t.channel_account_id,
              case when k % 20 = 19 then 'InternalMessage' else 'PublicMessage' end,
              case when k % 2 = 1 or k % 20 = 19 then 'OUTBOUND' else 'INBOUND' end,
              case when k % 2 = 1 or k % 20 = 19 then 'AGENT' else 'CUSTOMER' end,
              case when k % 2 = 1 or k % 20 = 19 then coalesce(t.assignee_id::text, '') else t.contact_id::text end,
              case when k % 2 = 1 or k % 20 = 19 then 'Agen' else t.customer_name end,
              case when k % 2 = 1 or k % 20 = 19 then 'user:' || coalesce(t.assignee_id::text, '') else 'identity:' || t.contact_id end,
              case when k % 20 = 19 then 'Catatan: pelanggan ' || t.customer_name || ' minta dihubungi lagi besok'
                   when k % 2 = 1 then ph.answers[1 + (t.id + k) % 11]
                   else ph.questions[1 + (t.id * 3 + k) % 17]
                        || case when (t.id + k) % 4 = 0 then ' Nomor pesanan INV/2026/' || lpad(((t.id * 31 + k) % 99991)::text, 5, '0') else '' end
                        || case when k = 0 and t.id % 3 = 0 and t.created_at < now() - interval '240 days'
                                then ' ' || $6 else '' end
              end,
              'READ',
              t.created_at + make_interval(secs => k * 20), t.created_at + make_interval(secs => k * 20)
         from (select * from tickets where client_id = $1 order by id) t
         cross join (select (select array_agg(body order by n) from pq) as questions,
                            (select array_agg(body order by n) from pa) as answers) ph
         cross join lateral generate_series(0, case
             when t.room_id = $2 then ($3::int / $4::int) - 1
             else floor(power(((t.id * 2654435761) % 1000) / 1000.0, 3) * 4 * greatest($5::float8 - 1, 0))::int
           end) k
        order by t.id, k`,
      [clientId, giantRoom, giantMessages, Math.max(1, giantTickets), mean + 0.5, seasonalQuestion],
    );
    // The messages were written in the order of their tickets, as the product writes a room's
    // tickets one after another; each ticket's floor then goes just below its first message
    // (it was where the sequence stood when all the tickets were made: migration 0042).
    await q(
      `update tickets t set message_floor = first.id - 1
         from (select ticket_id, min(id) as id from messages where client_id = $1 group by ticket_id) first
        where t.id = first.ticket_id and t.client_id = $1`,
      [clientId],
    );
    // What the messages_search_words trigger keeps, made once for every ticket: a part for
    // every 25 messages (about as many words as the trigger's 256-word parts hold here),
    // with its ticket's day as ticket_search_created_day sets it.
    await q(
      `insert into ticket_search (ticket_id, part, client_id, first_message_id, last_message_id, words, created_day)
       select numbered.ticket_id, part, $1, min(numbered.id), max(numbered.id),
              strip(to_tsvector('simple', string_agg(numbered.text, ' ' order by numbered.id))),
              to_char(min(t.created_at) at time zone 'UTC', 'YYYYMMDD')::integer
         from (select ticket_id, id, text, (row_number() over (partition by ticket_id order by id) - 1) / 25 as part
                 from messages where client_id = $1) numbered
         join tickets t on t.id = numbered.ticket_id
        group by numbered.ticket_id, part`,
      [clientId],
    );
    await q(`drop table account_of, room_of, agent_of, category_of`);
  });
}
