-- The inbox tables behind the same tenant wall as identity, and the open-ticket counters
-- kept by a trigger so that no request ever counts over the whole tickets table.
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO app_tenant;
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO app_tenant;
--> statement-breakpoint
DO $$
DECLARE
  name text;
BEGIN
  FOREACH name IN ARRAY ARRAY['channel_accounts', 'contacts', 'contact_identities', 'chat_rooms',
    'tickets', 'messages', 'ticket_counters', 'ticket_categories', 'inbox_preferences', 'media_files',
    'livechat_widgets']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', name);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (client_id = nullif(current_setting(''app.client_id'', true), '''')::uuid) '
      'WITH CHECK (client_id = nullif(current_setting(''app.client_id'', true), '''')::uuid)', name);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_counter_add(p_client uuid, p_scope text, p_delta integer) RETURNS void
LANGUAGE sql AS $$
  INSERT INTO ticket_counters (client_id, scope, count) VALUES (p_client, p_scope, p_delta)
  ON CONFLICT (client_id, scope) DO UPDATE SET count = ticket_counters.count + EXCLUDED.count;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ticket_counters_apply() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status IS NOT DISTINCT FROM NEW.status
     AND OLD.assignee_id IS NOT DISTINCT FROM NEW.assignee_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status IN ('UNASSIGNED', 'ASSIGNED') THEN
    PERFORM ticket_counter_add(OLD.client_id, 'all', -1);
    IF OLD.assignee_id IS NULL THEN
      PERFORM ticket_counter_add(OLD.client_id, 'unassigned', -1);
    ELSE
      PERFORM ticket_counter_add(OLD.client_id, 'user:' || OLD.assignee_id, -1);
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.status IN ('UNASSIGNED', 'ASSIGNED') THEN
    PERFORM ticket_counter_add(NEW.client_id, 'all', 1);
    IF NEW.assignee_id IS NULL THEN
      PERFORM ticket_counter_add(NEW.client_id, 'unassigned', 1);
    ELSE
      PERFORM ticket_counter_add(NEW.client_id, 'user:' || NEW.assignee_id, 1);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER tickets_counters
AFTER INSERT OR DELETE OR UPDATE OF status, assignee_id ON tickets
FOR EACH ROW EXECUTE FUNCTION ticket_counters_apply();
