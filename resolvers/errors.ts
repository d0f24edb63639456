// The one error hierarchy of the domain. Every rule the server enforces throws one of these; the
// GraphQL layer exposes `code`, `httpStatus` and `extra` as error extensions (schema/errors.ts) and the
// REST facade turns them into Zulip's `{"result":"error","msg","code",...extra}` (rest-facade/errors.ts).
// Modelled on Zulip's JsonableError: a class per code, the HTTP status beside it.

export class ParleyError extends Error {
  readonly code: string = 'BAD_REQUEST';
  readonly httpStatus: number = 400;
  readonly extra: Record<string, unknown>;

  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.name = new.target.name;
    this.extra = extra;
  }
}

/**
 * The base of an error whose code, HTTP status and message never vary (a JsonableError with a
 * fixed `msg_format`): `class X extends fixedError(code, status, message) {}` keeps a named class
 * for `instanceof` and stack traces.
 */
function fixedError(code: string, httpStatus: number, message: string) {
  return class extends ParleyError {
    override readonly code = code;
    override readonly httpStatus = httpStatus;
    constructor() {
      super(message);
    }
  };
}

/** A general invalid request (Zulip's BAD_REQUEST). */
export class BadRequestError extends ParleyError {}

export class MissingArgumentError extends ParleyError {
  override readonly code = 'REQUEST_VARIABLE_MISSING';
  constructor(readonly argument: string) {
    super(`Missing '${argument}' argument`, { var_name: argument });
  }
}

/** A parameter that fails validation (Zulip answers BAD_REQUEST with a sentence naming it). */
export class InvalidArgumentError extends BadRequestError {
  constructor(readonly argument: string, message = `Invalid ${argument}`) {
    super(message);
  }
}

export class NotLoggedInError extends fixedError('UNAUTHORIZED', 401, 'Not logged in: API authentication or user session required') {}

export class InvalidApiKeyError extends fixedError('INVALID_API_KEY', 401, 'Invalid API key') {}

export class UserDeactivatedError extends fixedError('USER_DEACTIVATED', 401, 'Account is deactivated') {}

export class RealmDeactivatedError extends fixedError('REALM_DEACTIVATED', 401, 'This organization has been deactivated') {}

/** Wrong email or password on fetch_api_key (Zulip answers 401 with this code). */
export class AuthenticationFailedError extends ParleyError {
  override readonly code = 'AUTHENTICATION_FAILED';
  override readonly httpStatus = 401;
  constructor(message = 'Your username or password is incorrect') {
    super(message);
  }
}

export class RealmNotFoundError extends fixedError('BAD_REQUEST', 404, 'There is no organization hosted at this address.') {}

/** The caller may not do this (Zulip answers 400 BAD_REQUEST for most permission failures). */
export class PermissionDeniedError extends BadRequestError {
  constructor(message = 'Insufficient permission') {
    super(message);
  }
}

/**
 * Role-restricted actions (Zulip's OrganizationAdministratorRequiredError and friends): code
 * UNAUTHORIZED_PRINCIPAL with HTTP 400, as zulip.yaml documents for delete_topic; 403 was the
 * legacy status.
 */
export class UnauthorizedPrincipalError extends ParleyError {
  override readonly code = 'UNAUTHORIZED_PRINCIPAL';
  constructor(message = 'Must be an organization administrator', extra: Record<string, unknown> = {}) {
    super(message, extra);
  }
}

export class StreamDoesNotExistError extends ParleyError {
  override readonly code = 'STREAM_DOES_NOT_EXIST';
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(message, extra);
  }
  static byName(name: string) {
    return new StreamDoesNotExistError(`Channel '${name}' does not exist`, { stream: name });
  }
  static byId(id: number) {
    return new StreamDoesNotExistError(`Channel with ID '${id}' does not exist`, { stream_id: id });
  }
}

export class ReactionAlreadyExistsError extends fixedError('REACTION_ALREADY_EXISTS', 400, 'Reaction already exists.') {}

export class ReactionDoesNotExistError extends fixedError('REACTION_DOES_NOT_EXIST', 400, "Reaction doesn't exist.") {}

export class BadEventQueueIdError extends ParleyError {
  override readonly code = 'BAD_EVENT_QUEUE_ID';
  constructor(queueId: string) {
    super(`Bad event queue ID: ${queueId}`, { queue_id: queueId });
  }
}

export class NotFoundError extends ParleyError {
  override readonly httpStatus = 404;
}

/** A path that exists, asked with a method it does not take. */
export class MethodNotAllowedError extends fixedError('BAD_REQUEST', 405, 'Method Not Allowed') {}

/**
 * Zulip's RateLimitedError: `retry-after` (seconds, fractional) in the body, and as the `Retry-After`
 * header (rest-facade/errors.ts and the GraphQL response carry it).
 */
export class RateLimitedError extends ParleyError {
  override readonly code = 'RATE_LIMIT_HIT';
  override readonly httpStatus = 429;
  constructor(readonly secsToFreedom: number, message = 'API usage exceeded rate limit') {
    super(message, { 'retry-after': secsToFreedom });
  }
}

/**
 * A request body over the limit for its caller (server/request-body.ts): refused before it is read
 * when its Content-Length says so, else as soon as the limit is passed. Zulip's web server answers
 * 413 here; the JSON body is Zulip's error envelope.
 */
export class BodyTooLargeError extends ParleyError {
  override readonly httpStatus = 413;
  constructor(limitBytes: number) {
    super(`Request body is larger than the allowed limit of ${formatBytes(limitBytes)}`);
  }
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  if (mib >= 1 && Number.isInteger(mib)) return `${mib} MiB`;
  return `${Math.floor(bytes / 1024)} KiB`;
}

export class IncompatibleParametersError extends ParleyError {
  constructor(parameters: string[]) {
    super(`Unsupported parameter combination: ${parameters.join(', ')}`, { parameters: parameters.join(',') });
  }
}

/** E2EE push registration on a server without a push relay (Zulip: 400 PUSH_SERVICE_NOT_CONFIGURED). */
export class PushServiceNotConfiguredError extends fixedError('PUSH_SERVICE_NOT_CONFIGURED', 400, 'Server is not configured to use push notification service.') {}

/** A push token the user never registered (Zulip's InvalidPushDeviceTokenError). */
export class InvalidPushDeviceTokenError extends fixedError('INVALID_PUSH_DEVICE_TOKEN', 400, 'Device not recognized') {}

/** A test notification for a user with no registered device (Zulip's NoActivePushDeviceError). */
export class NoActivePushDeviceError extends fixedError('NO_ACTIVE_PUSH_DEVICE', 400, 'No active registered push device') {}

/** A video call needs the user's OAuth token for the provider, and there is none or it was refused. */
export class InvalidVideoProviderTokenError extends fixedError('INVALID_ZOOM_TOKEN', 400, 'Invalid Zoom access token') {}

/** Deactivating the organization's only owner or only user (DELETE /users/me). */
export class CannotDeactivateLastUserError extends ParleyError {
  override readonly code = 'CANNOT_DEACTIVATE_LAST_USER';
  constructor(isLastOwner: boolean) {
    const entity = isLastOwner ? 'organization owner' : 'user';
    super(`Cannot deactivate the only ${entity}`, { is_last_owner: isLastOwner, entity });
  }
}

/** Owner-only settings (Zulip's OrganizationOwnerRequiredError: UNAUTHORIZED_PRINCIPAL with HTTP 400). */
export class OrganizationOwnerRequiredError extends fixedError('UNAUTHORIZED_PRINCIPAL', 400, 'Must be an organization owner') {}

/** A user group still used as a subgroup or in a permission setting (Zulip's CannotDeactivateGroupInUseError). */
export class CannotDeactivateGroupInUseError extends ParleyError {
  override readonly code = 'CANNOT_DEACTIVATE_GROUP_IN_USE';
  constructor(objections: Record<string, unknown>[]) {
    super('Cannot deactivate user group in use.', { objections });
  }
}

/**
 * Concurrent requests kept colliding on the same rows (serialization failures or deadlocks, retried
 * a bounded number of times first): the caller may simply try again.
 */
export class ConcurrentUpdateError extends fixedError('BAD_REQUEST', 409, 'Another request changed the same data at the same time; please try again.') {}

/**
 * A file over the size limit (Zulip's wording; 413, as its tus endpoint and the web server in front
 * of it answer, and before the whole body is read when the request says its length).
 */
export class FileTooLargeError extends ParleyError {
  override readonly httpStatus = 413;
  constructor(limitMib: number) {
    super(`Uploaded file is larger than the allowed limit of ${limitMib} MiB`);
  }
}

/** A channel of that name exists already (POST /channels/create). */
export class ChannelAlreadyExistsError extends ParleyError {
  override readonly code = 'CHANNEL_ALREADY_EXISTS';
  constructor(name: string) {
    super(`Channel '${name}' already exists`);
  }
}

/** An upload that had to be an image and is not one the server can read (Zulip's BAD_IMAGE). */
export class BadImageError extends ParleyError {
  override readonly code = 'BAD_IMAGE';
}

/** A channel wildcard mention where the sender may not notify that many people (messages/wildcard-mentions.ts). */
export class StreamWildcardMentionNotAllowedError extends fixedError('STREAM_WILDCARD_MENTION_NOT_ALLOWED', 400, 'You do not have permission to use channel wildcard mentions in this channel.') {}

/** A topic wildcard mention where the sender may not notify that many people. */
export class TopicWildcardMentionNotAllowedError extends fixedError('TOPIC_WILDCARD_MENTION_NOT_ALLOWED', 400, 'You do not have permission to use topic wildcard mentions in this topic.') {}

/** A webhook request whose body had to be JSON and is not (Zulip's InvalidJSONError). */
export class InvalidJsonError extends fixedError('INVALID_JSON', 400, 'Malformed JSON') {}

/** A webhook request without the header its integration reads the event from (Zulip's MissingHTTPEventHeader). */
export class MissingHttpEventHeaderError extends ParleyError {
  override readonly code = 'MISSING_HTTP_EVENT_HEADER';
  constructor(readonly header: string) {
    super(`Missing the HTTP event header '${header}'`, { header });
  }
}

/**
 * A webhook request the integration cannot believe its third party sent (Zulip's
 * AnomalousWebhookPayloadError): not an event it does not support, but no recognisable event at all.
 */
export class AnomalousWebhookPayloadError extends ParleyError {
  override readonly code = 'ANOMALOUS_WEBHOOK_PAYLOAD';
  constructor(webhookName: string) {
    super(`Unable to parse request: Did ${webhookName} generate this event?`, { webhook_name: webhookName });
  }
}

/**
 * An event the third party sends that the integration has no message for (Zulip's
 * UnsupportedWebhookEventTypeError). An error answered with 200, as Zulip does: third parties
 * (GitHub, Sentry) switch off a webhook that keeps failing, and an event nobody asked to be shown
 * is no failure of the webhook.
 */
export class UnsupportedWebhookEventTypeError extends ParleyError {
  override readonly code = 'UNSUPPORTED_WEBHOOK_EVENT_TYPE';
  override readonly httpStatus = 200;
  constructor(webhookName: string, eventType: string | null) {
    super(`The '${eventType}' event isn't currently supported by the ${webhookName} webhook; ignoring`, { webhook_name: webhookName, event_type: eventType });
  }
}

/**
 * A webhook payload without the data the integration needs, where the user writes the payload
 * themselves (UptimeRobot's and Zabbix's templates): Zulip answers "Invalid payload" and tells the
 * bot's owner how to mend the template.
 */
export class MisconfiguredWebhookPayloadError extends BadRequestError {
  constructor(readonly ownerNotice: (botName: string, supportEmail: string) => string) {
    super('Invalid payload');
  }
}
