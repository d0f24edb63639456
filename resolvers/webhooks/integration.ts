// What an incoming-webhook integration is (Zulip's zerver/webhooks/<name>/view.py): a pure
// translation of a third party's HTTP request into messages. Authentication, where the messages go
// (`stream`, `topic`), event filtering (`only_events`, `exclude_events`) and sending are the
// framework's (resolvers/webhooks/deliver.ts), so an integration only reads the request and writes
// Markdown.
import type { WildValue } from './payload.ts';

/** The third party's request, as an integration may read it. */
export interface WebhookRequest {
  /** The body as sent. */
  readonly body: string;
  /**
   * The body parsed as JSON, as `payload`; refused with Zulip's "Malformed JSON" (and the bot's
   * owner told, as Zulip does) when it is not JSON.
   */
  payload(): WildValue;
  /** A request header, by case-insensitive name; undefined when absent. */
  header(name: string): string | undefined;
  /**
   * The header that names the event (Zulip's validate_extract_webhook_http_header): refused with
   * MISSING_HTTP_EVENT_HEADER, and the bot's owner told, when absent.
   */
  eventHeader(name: string): string;
  /** A URL query parameter or form field (the integration's own options); undefined when absent. */
  param(name: string): string | undefined;
  /** A parameter the third party always sends (Heroku's and Zendesk's form fields): refused as Zulip refuses a missing argument. */
  requiredParam(name: string): string;
  /** A URL option Zulip reads as JSON (`Json[bool]`): `true` or `false`, else refused; `fallback` when absent. */
  boolParam(name: string, fallback: boolean): boolean;
  /**
   * A parameter holding JSON (`Json[...]`: Travis CI's and Papertrail's form field `payload`), read
   * as `name`: refused when absent (REQUEST_VARIABLE_MISSING) or not JSON.
   */
  jsonParam(name: string): WildValue;
}

/** One message to send: to the `stream` the URL names (the `topic` there wins) or the bot's owner. */
export interface WebhookMessage {
  topic: string;
  content: string;
  /** This message's own event type, where one request reports several (a Grafana alert each); else the outcome's. */
  eventType?: string;
  /**
   * A user of the organization (an ID from the users `translate` got) the bot writes to directly,
   * whatever the URL's channel (Zulip's check_send_private_message: TeamCity's personal builds).
   */
  directTo?: number;
}

export interface WebhookOutcome {
  /**
   * Zulip's complete_event_type: what `only_events` and `exclude_events` match (shell-style
   * wildcards). Omitted: the messages are sent whatever the filters say.
   */
  eventType?: string;
  /** None for events the integration deliberately says nothing about. */
  messages: WebhookMessage[];
  /**
   * A third party checking its credentials rather than reporting (Zulip's Zapier app, `"type":
   * "auth"`): the answer carries the sender's `full_name`, `email` and `id` beside `result`, for
   * the app to label the connection.
   */
  answerWithSender?: boolean;
  /**
   * A request the integration cannot use as configured but answers with success (TeamCity's payloads
   * in another format): its bot's owner is told this (Zulip's rate-limited notice to the bot's owner).
   */
  ownerNotice?: (botName: string, supportEmail: string) => string;
}

/** A user of the organization, as integrations that name people see them (Jira). */
export interface WebhookUser {
  id: number;
  fullName: string;
  /** The address shown to others (`user<ID>@…` where real addresses are hidden). */
  email: string;
  deliveryEmail: string;
  isActive: boolean;
}

export interface Integration {
  /** The URL's name: `/api/v1/external/<urlName>`. */
  urlName: string;
  /** The third party's name, as messages and errors write it (`GitHub`). */
  displayName: string;
  /** Zulip's all_event_types: what `only_events`/`exclude_events` may name; null when the integration has no event types. */
  eventTypes: readonly string[] | null;
  /** Zulip's config_options for the integration's URL (shown in realm_incoming_webhook_bots). */
  configOptions?: readonly { key: string; label: string; validator: 'check_string' | 'check_bool' | 'check_url' }[];
  /**
   * Answers as Slack's incoming webhooks do, for senders written for Slack: `"ok": true` beside
   * success, and `{"ok": false, "error": <msg>}` once the caller is authenticated (Zulip's
   * slack_error_handler). Its senders are not told about malformed JSON: the answer says it.
   */
  slackResponses?: boolean;
  /** Names people as the organization knows them: `translate` gets its users, by ID (else none). */
  readsUsers?: boolean;
  /**
   * Zulip's unquote_url_parameters: Atlassian's services escape the URL's `stream` and `topic` twice
   * (`jira%2520alerts`), so they are decoded once more.
   */
  unquoteUrlParameters?: boolean;
  /**
   * Zulip's return_success_on_head_request: the third party checks the URL with a HEAD request
   * (Trello, when the webhook is created), answered with an empty 200 once the credentials are
   * checked, without translating anything.
   */
  answersHead?: boolean;
  /** Zulip's notify_bot_owner_on_invalid_json=False: a body that is not JSON is refused without telling the bot's owner. */
  quietOnInvalidJson?: boolean;
  translate(request: WebhookRequest, users?: readonly WebhookUser[]): WebhookOutcome;
}
