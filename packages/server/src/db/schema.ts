import type { Generated } from 'kysely';

/** Table types of the database; each domain's store queries only its own tables. */
export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  sso_identities: SsoIdentitiesTable;
  settings: SettingsTable;
  user_preferences: UserPreferencesTable;
  user_seen_versions: UserSeenVersionsTable;
  hosts: HostsTable;
  container_settings: ContainerSettingsTable;
  container_states: ContainerStatesTable;
  events: EventsTable;
  events_search_partitions: EventsSearchPartitionsTable;
  alerts: AlertsTable;
  alert_rules: AlertRulesTable;
  alert_annotations: AlertAnnotationsTable;
  container_updates: ContainerUpdatesTable;
  batch_jobs: BatchJobsTable;
  batch_items: BatchItemsTable;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  display_name: string | null;
  password_hash: string;
  /** 1 until the user has changed the bootstrap password. */
  is_first_login: number;
  created_at: string;
  updated_at: string;
  /** admin | operator | viewer; users from before roles are admins. */
  role: Generated<string>;
  /** 1: signed out everywhere and refused at sign-in, keys included. */
  disabled: Generated<number>;
  email: string | null;
  /** JSON array of host tags the user is limited to; empty: every host. */
  host_tags: Generated<string>;
}

export interface SessionsTable {
  /** sha256 of the random token in the cookie; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /** What the sessions list names it by; the token hash never leaves the server. */
  public_id: string | null;
  address: string | null;
  user_agent: string | null;
  /** password | sso */
  auth_method: Generated<string>;
}

/** A provider account (issuer and subject) linked to a Berth user (single sign-on). */
export interface SsoIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: number;
  created_at: string;
  last_sign_in_at: string;
}

export interface SettingsTable {
  key: string;
  /** JSON-encoded value. */
  value: string;
}

export interface UserPreferencesTable {
  user_id: number;
  /** JSON object of the preference fields the user has set. */
  data: string;
  updated_at: string;
}

export interface UserSeenVersionsTable {
  user_id: number;
  /** The Berth version this user last saw (the upgrade notice compares it with the running one). */
  version: string;
  updated_at: string;
}

export interface HostsTable {
  id: string;
  name: string;
  url: string;
  description: string | null;
  /** JSON array of lowercase tags. */
  tags: string;
  /** Sealed with the SecretBox; never returned by the API. */
  tls_ca: string | null;
  tls_cert: string | null;
  tls_key: string | null;
  os_version: string | null;
  docker_version: string | null;
  num_cpus: number | null;
  total_memory: number | null;
  daemon_started_at: string | null;
  last_checked: string | null;
  /** Unix seconds of the newest engine event seen: the `since` for a replay after a cut. */
  last_event_at: number | null;
  created_at: string;
  updated_at: string;
}

export interface ContainerSettingsTable {
  host_id: string;
  /** Keyed by name, not id, so settings survive a container being recreated. */
  container_name: string;
  tags: string;
  /** null: follow the default_auto_restart setting. */
  auto_restart: number | null;
  desired_state: string;
  web_ui_url: string | null;
  /** 0 or 1. */
  auto_update_enabled: number;
  floating_tag_mode: string;
  updated_at: string;
  /** When the monitor last saw the container (retention of unused tags); null: not yet. */
  last_seen_at: string | null;
}

/** A container as the monitor last saw it, kept with its host's last event time. */
export interface ContainerStatesTable {
  host_id: string;
  /** Short id. */
  container_id: string;
  name: string;
  state: string;
}

export interface EventsTable {
  id: Generated<number>;
  timestamp: string;
  severity: string;
  category: string;
  event_type: string;
  title: string;
  message: string | null;
  host_id: string | null;
  host_name: string | null;
  container_id: string | null;
  container_name: string | null;
  old_state: string | null;
  new_state: string | null;
  correlation_id: string | null;
  triggered_by: string | null;
}

/** One partition of the events' trigram index (an FTS5 table named `name`). */
export interface EventsSearchPartitionsTable {
  /** The first event id it indexes; it ends where the next partition begins. */
  first_id: number;
  name: string;
  /** 1 once an event it indexes was deleted: its matches must be checked against `events`. */
  stale: Generated<number>;
}

export interface AlertsTable {
  id: string;
  title: string;
  message: string | null;
  kind: string;
  state: string;
  severity: string;
  scope_type: string;
  scope_id: string;
  host_id: string | null;
  host_name: string | null;
  container_name: string | null;
  rule_id: string | null;
  first_seen: string;
  last_seen: string;
  current_value: number | null;
  threshold: number | null;
  snoozed_until: string | null;
  resolved_at: string | null;
  resolved_reason: string | null;
  /** `rule_id|scope_id` while raised by a rule; unique among unresolved alerts. */
  dedup_key: string | null;
  rule_name: string | null;
  notified_at: string | null;
  /** Defaults to 1 on insert. */
  occurrences: Generated<number>;
}

export interface AlertRulesTable {
  id: string;
  name: string;
  description: string | null;
  scope: string;
  kind: string;
  enabled: number;
  severity: string;
  metric: string | null;
  threshold: number | null;
  operator: string | null;
  duration_seconds: number;
  occurrences: number;
  clear_threshold: number | null;
  clear_duration_seconds: number | null;
  cooldown_seconds: number;
  /** JSON selectors and channel ids. */
  host_selector_json: string | null;
  container_selector_json: string | null;
  notify_channels_json: string;
  custom_template: string | null;
  auto_resolve: number;
  suppress_during_updates: number;
  created_at: string;
  updated_at: string;
  /** 1: the rule compares the mean over its window from metrics history (migration 0026). */
  look_back: Generated<number>;
}

export interface AlertAnnotationsTable {
  id: Generated<number>;
  alert_id: string;
  user: string;
  text: string;
  timestamp: string;
}

export interface ContainerUpdatesTable {
  host_id: string;
  /** Keyed by name like container settings, so the status survives a recreate. */
  container_name: string;
  container_id: string;
  image: string;
  current_digest: string | null;
  latest_digest: string | null;
  update_available: number;
  checked_at: string;
}

export interface BatchJobsTable {
  id: string;
  action: string;
  /** JSON of the action's parameters. */
  params: string;
  status: string;
  created_by: string;
  created_at: string;
  completed_at: string | null;
}

export interface BatchItemsTable {
  id: string;
  job_id: string;
  position: number;
  host_id: string;
  host_name: string | null;
  container_id: string;
  container_name: string | null;
  status: string;
  message: string | null;
}
