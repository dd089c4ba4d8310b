-- A ticket's summary as the list pages send it (`TicketSummary`, the fields of
-- ticket_summary_view from 0022), kept by PostgreSQL in a stored column. A list page then joins
-- fifty stored texts: writing fifty rows of JSON (row_to_json, escape_json, to_char) was over
-- half of the page statement's time, 0.33 ms of 0.6 ms at a million tickets. Issue 13, "Inbox at
-- scale".
--
-- `expired` is written false: it depends on the time of reading, so the read sets it
-- (`ticketSummaryJson` in json-views.ts). Declared IMMUTABLE for the generated column: its
-- result depends on its arguments alone (the timestamps are written in UTC with a fixed
-- numeric pattern, which no setting changes). Its types are named with their schema: a
-- restore computes the column with an empty search_path (pg_restore failed on the COPY of
-- tickets without it). When ticket_summary_view changes, drop and add the column again.
CREATE OR REPLACE FUNCTION ticket_summary_text(
  p_id bigint, p_room_id uuid, p_channel_account_id uuid, p_channel text,
  p_contact_id uuid, p_customer_name text, p_customer_phone text, p_customer_email text,
  p_status text, p_expires_at timestamptz, p_priority smallint, p_tags text[],
  p_category_id uuid, p_remarks text, p_subject text,
  p_group_id uuid, p_assignee_id uuid, p_submitter_id uuid, p_closed_by uuid,
  p_created_at timestamptz, p_closed_at timestamptz, p_last_message_at timestamptz,
  p_last_message_preview text, p_unread_count integer
) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN row_to_json(row(
    p_id, p_room_id, p_channel_account_id, p_channel,
    row(p_contact_id, p_customer_name, p_customer_phone, p_customer_email)::public.ticket_customer_view,
    p_status, false,
    to_char(p_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), p_priority, p_tags,
    p_category_id, p_remarks, p_subject,
    p_group_id, p_assignee_id, p_submitter_id, p_closed_by,
    to_char(p_created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    to_char(p_closed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    to_char(p_last_message_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    p_last_message_preview, p_unread_count
  )::public.ticket_summary_view)::text;
END $$;
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "summary_view" text GENERATED ALWAYS AS (ticket_summary_text(id, room_id, channel_account_id, channel, contact_id, customer_name, customer_phone, customer_email, status, expires_at, priority, tags, category_id, remarks, subject, group_id, assignee_id, submitter_id, closed_by, created_at, closed_at, last_message_at, last_message_preview, unread_count)) STORED;