// Validates REST responses and event payloads against Zulip's OpenAPI description (zulip.yaml),
// in the spirit of Zulip's own validate_test_response / validate_against_openapi_schema.
//
// The yaml is loaded once per test worker, patched for a few quirks (see `normalize`), and
// registered whole with ajv under SPEC_ID; every operation or event schema is then compiled
// lazily as a JSON-pointer reference into that document, so ajv resolves the internal `$ref`s
// itself (including any cycles) and compiles each shared component only once.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { parse as parseYaml } from 'yaml';

// ajv-formats is CommonJS; depending on the interop layer (and on how TypeScript models it)
// its default import is either the plugin itself or the module object carrying it on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  addFormatsModule) as unknown as FormatsPlugin;

// The parsed yaml is untyped JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Node = Record<string, any>;

export interface ZulipEvent {
  type: string;
  op?: string;
  [k: string]: unknown;
}

export interface ValidateEventOptions {
  /**
   * Require an `id` (default true). Every event delivered by GET /events carries one, but the
   * yaml lists no `required` keys for almost any event, so without this `{type: 'heartbeat'}`
   * would pass. Turn it off to check an event before the queue has numbered it.
   */
  requireId?: boolean;
}

const SPEC_ID = 'zulip.yaml';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const MAX_ERROR_LINES = 25;
const MAX_BODY_CHARS = 2000;

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function specPath(): string {
  return process.env.PARLEY_ZULIP_OPENAPI || path.join(repoRoot, '..', 'shared', 'zulip-api', 'zulip.yaml');
}

let available: boolean | undefined;

/**
 * Whether Zulip's OpenAPI description is here. It is reference data kept beside the repository,
 * never in it: without it the suite runs everything but conformance (test/support/global-setup.ts
 * says so once, and CI refuses to run without it), and the validators below accept anything.
 */
export function conformanceAvailable(): boolean {
  return (available ??= existsSync(specPath()));
}

// ---------------------------------------------------------------------------------------------
// Loading

type ParamTest = (segment: string) => boolean;
type Segment = { literal: string } | { param: string; test: ParamTest };

interface Route {
  template: string;
  segments: Segment[];
  literalCount: number;
  item: Node;
}

interface EventCandidate {
  index: number;
  pointer: string;
  types: unknown[];
  ops: unknown[] | undefined;
}

interface Spec {
  doc: Node;
  ajv: Ajv;
  routes: Route[];
}

let spec: Spec | undefined;
const validators = new Map<string, ValidateFunction>();
let eventCandidates: EventCandidate[] | undefined;

function loadSpec(): Spec {
  if (spec) return spec;
  const file = specPath();
  if (!existsSync(file)) {
    throw new Error(`Zulip OpenAPI description not found at ${file} (set PARLEY_ZULIP_OPENAPI to override)`);
  }
  const doc = parseYaml(readFileSync(file, 'utf8')) as Node;
  normalize(doc);
  addNewerEventSchemas(doc);
  // The spec's fourth topics policy (empty_topic_only) is newer than the yaml's enum.
  const topicsPolicy = ((doc.components as Node)?.schemas as Node)?.TopicsPolicy as Node | undefined;
  if (Array.isArray(topicsPolicy?.enum) && !topicsPolicy.enum.includes('empty_topic_only')) topicsPolicy.enum.push('empty_topic_only');

  // strict: false tolerates OpenAPI's extra keywords (example, deprecated, x-*, ...);
  // ajv implements OpenAPI 3.0's `nullable` natively (it requires a sibling `type`).
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // OpenAPI-only formats carry no constraint that JSON Schema could check.
  for (const format of ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password']) {
    ajv.addFormat(format, true);
  }
  ajv.addSchema(doc, SPEC_ID);

  const routes = Object.entries(doc.paths as Node).map(([template, item]) => {
    const segments = splitPath(template).map((part): Segment => {
      const match = /^\{(.+)\}$/.exec(part);
      return match ? { param: match[1]!, test: paramTest(match[1]!) } : { literal: part };
    });
    return { template, segments, literalCount: segments.filter((s) => 'literal' in s).length, item: item as Node };
  });
  spec = { doc, ajv, routes };
  return spec;
}

/**
 * Patches the parsed document in place so that plain JSON-Schema semantics give the answers
 * Zulip's own test suite expects.
 */
function normalize(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(normalize);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const obj = node as Node;
  // Zulip uses oneOf for "one of these documented variants", and the variants overlap: many
  // 4xx responses are a oneOf of the same CodedError schema with different examples, which
  // no body could ever match "exactly once". Zulip's validator never checks 4xx bodies and
  // notes that its 200 oneOf branches "only differ in example"; anyOf is the intended meaning.
  if (Array.isArray(obj.oneOf)) {
    obj.anyOf = obj.oneOf;
    delete obj.oneOf;
  }
  // allOf branches that re-list the base's properties (so that `additionalProperties: false`
  // sees them) write `{nullable: true}` with no type. Without a type the schema accepts null
  // anyway, but ajv rejects a typeless `nullable`.
  if (typeof obj.nullable === 'boolean' && obj.type === undefined) delete obj.nullable;
  // `stream update` values may be null (message_retention_days "realm_default", folder_id with no
  // folder, first_message_id of an emptied channel): Zulip sends null, its yaml omits it.
  if (obj.properties?.property && obj.properties?.rendered_description && Array.isArray(obj.properties?.value?.oneOf)) {
    obj.properties.value.oneOf.push({ type: 'null' });
  }
  // `subscription update` notification settings may be reset to null (notification_settings_null).
  const example = obj.example as Node | undefined;
  if (example?.type === 'subscription' && example?.op === 'update' && Array.isArray(obj.properties?.value?.oneOf)) {
    obj.properties.value.oneOf.push({ type: 'null' });
  }
  for (const [key, value] of Object.entries(obj)) {
    if (key === 'example' || key === 'examples') continue; // data, not schemas
    normalize(value);
  }
}

// ---------------------------------------------------------------------------------------------
// Path matching

function splitPath(p: string): string[] {
  return p.split('/').filter((part) => part !== '');
}

/**
 * Like Zulip's create_endpoints_dict: `..._id` parameters only match numbers and `...email`
 * ones only match addresses, which keeps e.g. /users/{user_id} and /users/{email} apart and
 * stops /users/{user_id} from claiming /users/me.
 */
function paramTest(name: string): ParamTest {
  if (name.includes('_or_')) return (s) => s !== ''; // e.g. user_id_or_email
  if (/(^|_)id$/.test(name)) return (s) => /^\d+$/.test(s);
  if (/email$/.test(name)) return (s) => s.includes('@');
  return (s) => s !== '';
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The documented route for this request, if its path and method are in the yaml. */
function findRoute(method: string, requestPath: string): Route | undefined {
  const m = method.toLowerCase();
  if (!HTTP_METHODS.has(m)) return undefined;
  const parts = splitPath(requestPath.split('?')[0]!).map(safeDecode);
  const matches = loadSpec().routes.filter(
    (route) =>
      route.segments.length === parts.length &&
      route.segments.every((seg, i) => ('literal' in seg ? seg.literal === parts[i] : seg.test(parts[i]!))),
  );
  // The most literal template wins (as Zulip looks up an exact path before trying templates);
  // only then is the method looked up, so a literal path lacking the method is undocumented.
  matches.sort(
    (a, b) => b.literalCount - a.literalCount || Number(m in b.item) - Number(m in a.item),
  );
  const route = matches[0];
  if (!route?.item[m]) return undefined;
  return route;
}

/** Whether zulip.yaml documents this method on this concrete path. */
export function hasOperation(method: string, path: string): boolean {
  return findRoute(method, path) !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Schema access

function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

function pointer(...tokens: (string | number)[]): string {
  return '#/' + tokens.map(escapeToken).join('/');
}

function child(ptr: string, ...tokens: (string | number)[]): string {
  return ptr + '/' + tokens.map(escapeToken).join('/');
}

function getAt(ptr: string): unknown {
  let node: unknown = loadSpec().doc;
  for (const token of ptr.replace(/^#\/?/, '').split('/')) {
    if (token === '') continue;
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Node)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** Follows `$ref` chains; returns the pointer and node of the first non-reference. */
function deref(ptr: string): { ptr: string; node: Node | undefined } {
  for (let hops = 0; hops < 50; hops++) {
    const node = getAt(ptr) as Node | undefined;
    if (!node || typeof node.$ref !== 'string') return { ptr, node };
    if (!node.$ref.startsWith('#/')) throw new Error(`external $ref not supported: ${node.$ref}`);
    ptr = node.$ref;
  }
  throw new Error(`$ref chain too long at ${ptr}`);
}

/** A validator for the schema at `ptr`, optionally requiring extra keys at its top level. */
function validatorAt(ptr: string, required: string[] = []): ValidateFunction {
  const key = `${ptr} ${required.join(',')}`;
  let validate = validators.get(key);
  if (!validate) {
    // ajv decodes reference fragments as URI components, so templates' braces must be escaped.
    const ref = SPEC_ID + '#' + ptr.slice(1).split('/').map(encodeURIComponent).join('/');
    const schema = required.length ? { allOf: [{ $ref: ref }], required } : { $ref: ref };
    validate = loadSpec().ajv.compile(schema);
    validators.set(key, validate);
  }
  return validate;
}

interface Failure {
  label: string;
  errors: ErrorObject[];
}

/**
 * Validates `data` against the schema at `ptr`. If that fails and the schema is a union
 * (anyOf, after normalize), reports the errors of the closest branch instead of ajv's flat
 * list of every branch's errors: the fewest errors, ties broken by the deepest error.
 */
function check(ptr: string, data: unknown, required: string[] = []): Failure | undefined {
  const validate = validatorAt(ptr, required);
  if (validate(data)) return undefined;
  const errors = validate.errors ?? [];
  const { ptr: target, node } = deref(ptr);
  if (!Array.isArray(node?.anyOf)) return { label: ptr, errors };
  const failures = (node.anyOf as unknown[]).map((_, i) => {
    const branch = child(target, 'anyOf', i);
    const v = validatorAt(branch, required);
    v(data);
    return { label: branch, errors: v.errors ?? [] };
  });
  return closest(failures) ?? { label: ptr, errors };
}

function closest(failures: Failure[]): Failure | undefined {
  const depth = (f: Failure) => Math.max(0, ...f.errors.map((e) => e.instancePath.split('/').length));
  return [...failures].sort((a, b) => a.errors.length - b.errors.length || depth(b) - depth(a))[0];
}

function formatErrors(errors: ErrorObject[]): string {
  const lines = errors.slice(0, MAX_ERROR_LINES).map((e) => {
    const params = e.keyword === 'additionalProperties' || e.keyword === 'enum' || e.keyword === 'required'
      ? ' ' + JSON.stringify(e.params)
      : '';
    return `  ${e.instancePath || '(root)'}: ${e.message ?? e.keyword}${params}  [${e.schemaPath}]`;
  });
  if (errors.length > MAX_ERROR_LINES) lines.push(`  ... and ${errors.length - MAX_ERROR_LINES} more`);
  return lines.join('\n');
}

function truncatedJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > MAX_BODY_CHARS ? text.slice(0, MAX_BODY_CHARS) + `... (${text.length} chars)` : text;
}

// ---------------------------------------------------------------------------------------------
// Responses

/** Pointer to the JSON schema documented for this status: exact code, then `4XX`, then `default`. */
function responseSchemaPointer(route: Route, method: string, status: number): string | undefined {
  const responsesPtr = pointer('paths', route.template, method, 'responses');
  const responses = (getAt(responsesPtr) ?? {}) as Node;
  const key = [String(status), `${String(status)[0]}XX`, `${String(status)[0]}xx`, 'default'].find(
    (k) => k in responses,
  );
  if (!key) return undefined;
  const { ptr, node } = deref(child(responsesPtr, key));
  if (!node?.content?.['application/json']?.schema) return undefined;
  return child(ptr, 'content', 'application/json', 'schema');
}

/**
 * Throws if `body` does not match the schema zulip.yaml documents for this response. `path` is
 * the request path without the /api/v1 prefix, e.g. '/messages/12/reactions'. Paths, methods
 * and statuses the yaml does not describe (exact code, then 4XX, then default) pass unchecked.
 */
export function validateResponse(method: string, path: string, status: number, body: unknown): void {
  if (!conformanceAvailable()) return;
  const route = findRoute(method, path);
  if (!route) return;
  const m = method.toLowerCase();
  const ptr = responseSchemaPointer(route, m, status);
  if (!ptr) return;

  const where = `${method.toUpperCase()} ${path} -> ${status} (documented as ${m.toUpperCase()} ${route.template})`;
  // The events array is a union of ~80 event schemas; checking each event on its own first
  // gives an error about the one candidate that matters instead of all of them.
  if (route.template === '/events' && m === 'get' && isObject(body) && Array.isArray(body.events)) {
    body.events.forEach((event, i) => {
      try {
        validateEvent(event as ZulipEvent);
      } catch (err) {
        throw new Error(`OpenAPI response mismatch for ${where}: events[${i}]:\n${(err as Error).message}`);
      }
    });
  }

  // Events newer than the yaml were checked one by one above; the yaml's union cannot know them.
  const known = route.template === '/events' && isObject(body) && Array.isArray(body.events)
    ? { ...body, events: body.events.filter((e) => !(isObject(e) && NEWER_OP_EVENTS[e.type as string])) }
    : body;
  const failure = check(ptr, withoutNewerFields(withoutNewerEvents(route.template, known)));
  if (!failure) return;
  if (status >= 400 && isKnownZulipError(body)) return;
  throw new Error(
    `OpenAPI response mismatch for ${where}\n` +
      `schema: ${failure.label}\n${formatErrors(failure.errors)}\nbody: ${truncatedJson(body)}`,
  );
}

/**
 * Fields that shared/spec/http-api.md (feature level 496) documents but zulip.yaml (level 378) does
 * not know yet. Where the two differ the spec wins, so these are removed before checking the rest
 * of the body against the yaml; each one's own presence is asserted by the feature's tests.
 */
const NEWER_THAN_YAML = new Set([
  // Channel record (spec: Resources → Channel record; channel permission reworks, level 349+).
  'folder_id',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_resolve_topics_group',
  'partial_subscribers',
  // Register response (spec: Resources → Event queue, report types; feature levels 435, 481).
  'idle_queue_timeout_secs',
  'server_report_message_types',
  'realm_can_set_delete_message_policy_group',
  'navigation_views',
  'reminders',
  'has_provider_token',
  'channel_folders',
  // Linkifier records (spec: PATCH /realm/filters/{filter_id}).
  'example_input',
  'reverse_template',
  'alternative_url_templates',
  'url_options',
  // Deactivating a group in use (CANNOT_DEACTIVATE_GROUP_IN_USE): zulip.yaml shows it only in an example.
  'objections',
  // The sender's own message event with POST /messages's queue_id and local_id (Zulip's
  // process_message_event); Zulip's get-events documentation has it, zulip.yaml's schema not.
  'local_message_id',
  // Personal settings of Zulip's API changelog newer than the yaml (feature levels 385, 398, 411,
  // 431), in register's user_settings and realm_user_settings_defaults.
  'resolved_topic_notice_auto_read_policy',
  'web_left_sidebar_unreads_count_summary',
  'web_left_sidebar_show_channel_folders',
  'web_inbox_show_channel_folders',
]);

/**
 * Event variants newer than the yaml (spec: Event kinds; feature levels 419 and 491), appended to
 * the GET /events variants: the modern `presence` event (`simplified_presence_events`) and the
 * individual `realm_emoji` `add`/`edit` events (`individual_emoji_changes`).
 */
const NEWER_EVENT_VARIANTS: Node[] = [
  {
    type: 'object', additionalProperties: false, required: ['type', 'presences'],
    properties: {
      id: { type: 'integer' }, type: { type: 'string', enum: ['presence'] },
      presences: { type: 'object', additionalProperties: { $ref: '#/components/schemas/ModernPresenceFormat' } },
    },
  },
  {
    type: 'object', additionalProperties: false, required: ['type', 'op', 'emoji'],
    properties: {
      id: { type: 'integer' }, type: { type: 'string', enum: ['realm_emoji'] }, op: { type: 'string', enum: ['add'] },
      emoji: { $ref: '#/components/schemas/RealmEmoji' },
    },
  },
  {
    type: 'object', additionalProperties: false, required: ['type', 'op', 'emoji_id', 'data'],
    properties: {
      id: { type: 'integer' }, type: { type: 'string', enum: ['realm_emoji'] }, op: { type: 'string', enum: ['edit'] },
      emoji_id: { type: 'string' },
      data: { type: 'object', additionalProperties: false, properties: { deactivated: { type: 'boolean' } } },
    },
  },
];

function addNewerEventSchemas(doc: Node): void {
  const found: Node[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node) || found.length) return;
    const events = (node.properties as Node | undefined)?.events as Node | undefined;
    if (events && Array.isArray((events.items as Node | undefined)?.anyOf)) {
      found.push(events.items as Node);
      return;
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk((doc.paths as Node)['/events']?.get?.responses?.['200']);
  found[0]?.anyOf.push(...NEWER_EVENT_VARIANTS);
}

/**
 * An endpoint's documented error variants are examples, not a closed list (Zulip's own validator
 * skips error bodies). An error body that the endpoint does not list still has to be a coded error
 * whose extra fields are ones some documented Zulip error carries (`stream`, `stream_id`, `var_name`…).
 */
function isKnownZulipError(body: unknown): boolean {
  if (!isObject(body) || check('#/components/schemas/CodedErrorBase', body)) return false;
  const known = knownErrorFields();
  return Object.keys(body).every((key) => known.has(key));
}

let errorFields: Set<string> | undefined;
function knownErrorFields(): Set<string> {
  if (errorFields) return errorFields;
  errorFields = new Set(['result', 'msg', 'code']);
  const schemas = (loadSpec().doc.components as Node).schemas as Node;
  for (const [name, schema] of Object.entries(schemas)) {
    if (!name.endsWith('Error')) continue;
    for (const part of ((schema as Node).allOf as Node[] | undefined) ?? [schema as Node]) {
      for (const key of Object.keys((part.properties as Node | undefined) ?? {})) errorFields.add(key);
    }
  }
  return errorFields;
}

function withoutNewerFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNewerFields);
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!NEWER_THAN_YAML.has(key)) out[key] = withoutNewerFields(v);
  }
  return out;
}

function isObject(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Events

/** Finds the `events` property of the GET /events 200 schema, which may sit inside allOf. */
function findProperty(ptr: string, name: string, seen = new Set<string>()): string | undefined {
  const { ptr: target, node } = deref(ptr);
  if (!node || seen.has(target)) return undefined;
  seen.add(target);
  if (node.properties && name in node.properties) return child(target, 'properties', name);
  for (const [i] of ((node.allOf as unknown[]) ?? []).entries()) {
    const found = findProperty(child(target, 'allOf', i), name, seen);
    if (found) return found;
  }
  return undefined;
}

/** The `enum` constraining a schema, looking through $ref and allOf (type is `allOf: [EventTypeSchema, {enum}]`). */
function findEnum(ptr: string): unknown[] | undefined {
  const { ptr: target, node } = deref(ptr);
  if (!node) return undefined;
  if (Array.isArray(node.enum)) return node.enum;
  for (const [i] of ((node.allOf as unknown[]) ?? []).entries()) {
    const found = findEnum(child(target, 'allOf', i));
    if (found) return found;
  }
  return undefined;
}

/** The enum of a property as declared anywhere in an event schema (its own properties or allOf parts). */
function propertyEnum(ptr: string, name: string, seen = new Set<string>()): unknown[] | undefined {
  const { ptr: target, node } = deref(ptr);
  if (!node || seen.has(target)) return undefined;
  seen.add(target);
  const own = node.properties && name in node.properties ? findEnum(child(target, 'properties', name)) : undefined;
  if (own) return own;
  for (const [i] of ((node.allOf as unknown[]) ?? []).entries()) {
    const found = propertyEnum(child(target, 'allOf', i), name, seen);
    if (found) return found;
  }
  return undefined;
}

function loadEventCandidates(): EventCandidate[] {
  if (eventCandidates) return eventCandidates;
  const route = loadSpec().routes.find((r) => r.template === '/events');
  const responsePtr = route && responseSchemaPointer(route, 'get', 200);
  const eventsPtr = responsePtr && findProperty(responsePtr, 'events');
  if (!eventsPtr) throw new Error('zulip.yaml: GET /events 200 has no `events` property');
  const { ptr: itemsPtr, node: items } = deref(child(eventsPtr, 'items'));
  if (!Array.isArray(items?.anyOf)) throw new Error('zulip.yaml: GET /events `events` items are not a oneOf');
  eventCandidates = (items.anyOf as unknown[]).map((_, index) => {
    const ptr = child(itemsPtr, 'anyOf', index);
    return { index, pointer: ptr, types: propertyEnum(ptr, 'type') ?? [], ops: propertyEnum(ptr, 'op') };
  });
  return eventCandidates;
}

/**
 * Events the spec (feature level 496) has but zulip.yaml (level 378) lacks, after Zulip's
 * zerver/lib/event_types.py; each op is a closed schema.
 */
const REMINDER_RECORD = {
  type: 'object', additionalProperties: false,
  required: ['reminder_id', 'type', 'to', 'content', 'rendered_content', 'scheduled_delivery_timestamp', 'failed', 'reminder_target_message_id'],
  properties: {
    reminder_id: { type: 'integer' }, type: { enum: ['private'] }, to: { type: 'array', items: { type: 'integer' } },
    content: { type: 'string' }, rendered_content: { type: 'string' }, scheduled_delivery_timestamp: { type: 'integer' },
    failed: { type: 'boolean' }, reminder_target_message_id: { type: 'integer' },
  },
};
const CHANNEL_FOLDER_RECORD = {
  type: 'object', additionalProperties: false,
  required: ['id', 'name', 'description', 'rendered_description', 'order', 'date_created', 'creator_id', 'is_archived'],
  properties: {
    id: { type: 'integer' }, name: { type: 'string' }, description: { type: 'string' }, rendered_description: { type: 'string' },
    order: { type: 'integer' }, date_created: { type: 'integer' }, creator_id: { type: ['integer', 'null'] }, is_archived: { type: 'boolean' },
  },
};
const NEWER_OP_EVENTS: Record<string, Record<string, Node>> = {
  channel_folder: {
    add: { properties: { channel_folder: CHANNEL_FOLDER_RECORD }, required: ['channel_folder'] },
    update: {
      properties: {
        channel_folder_id: { type: 'integer' },
        data: {
          type: 'object', additionalProperties: false, minProperties: 1,
          properties: { name: { type: 'string' }, description: { type: 'string' }, rendered_description: { type: 'string' }, is_archived: { type: 'boolean' } },
        },
      },
      required: ['channel_folder_id', 'data'],
    },
    reorder: { properties: { order: { type: 'array', items: { type: 'integer' } } }, required: ['order'] },
  },
  reminders: {
    add: { properties: { reminders: { type: 'array', items: REMINDER_RECORD } }, required: ['reminders'] },
    remove: { properties: { reminder_id: { type: 'integer' } }, required: ['reminder_id'] },
  },
};
const newerValidators = new Map<string, ValidateFunction>();

function validateNewerOpEvent(event: ZulipEvent, required: string[]): void {
  const key = `${event.type}/${String(event.op)}/${required.join(',')}`;
  let validate = newerValidators.get(key);
  if (!validate) {
    const op = NEWER_OP_EVENTS[event.type]![String(event.op)];
    if (!op) throw new Error(`OpenAPI: event type ${event.type} has no op ${String(event.op)}\nevent: ${truncatedJson(event)}`);
    validate = loadSpec().ajv.compile({
      type: 'object', additionalProperties: false, required: [...required, 'op', ...(op.required as string[])],
      properties: { id: { type: 'integer' }, type: { const: event.type }, op: { const: event.op }, ...(op.properties as Node) },
    });
    newerValidators.set(key, validate);
  }
  if (!validate(event as unknown)) {
    throw new Error(`OpenAPI event mismatch for type ${JSON.stringify(event.type)}, op ${JSON.stringify(event.op)}\n${formatErrors(validate.errors ?? [])}\nevent: ${truncatedJson(event)}`);
  }
}

/**
 * Throws unless the event matches one of the GET /events event schemas with its `type` (and
 * `op`, where the schema constrains it); the error describes the closest candidate.
 */
export function validateEvent(event: ZulipEvent, options: ValidateEventOptions = {}): void {
  if (!conformanceAvailable()) return;
  const required = options.requireId === false ? ['type'] : ['type', 'id'];
  if (typeof event?.type === 'string' && event.type in NEWER_EVENT_SCHEMAS) {
    validateNewerEvent(event, required);
    return;
  }
  if (event && NEWER_OP_EVENTS[event.type]) return validateNewerOpEvent(event, required);
  const candidates = loadEventCandidates();
  const ofType = candidates.filter((c) => c.types.includes(event?.type));
  if (ofType.length === 0) {
    const known = [...new Set(candidates.flatMap((c) => c.types))].sort().join(', ');
    throw new Error(`OpenAPI: no event schema has type ${JSON.stringify(event?.type)}; known types: ${known}\nevent: ${truncatedJson(event)}`);
  }
  // An unknown or missing op still gets checked against the type's schemas, so the error
  // names the allowed ops.
  const ofOp = ofType.filter((c) => c.ops === undefined || c.ops.includes(event.op));
  const failures: Failure[] = [];
  for (const candidate of ofOp.length ? ofOp : ofType) {
    const failure = check(candidate.pointer, withoutNewerFields(event), required);
    if (!failure) return;
    failures.push(failure);
  }
  const best = closest(failures)!;
  const what = event.op === undefined ? `type ${JSON.stringify(event.type)}` : `type ${JSON.stringify(event.type)}, op ${JSON.stringify(event.op)}`;
  throw new Error(
    `OpenAPI event mismatch for ${what} (${failures.length} candidate schema(s); closest: ${best.label})\n` +
      `${formatErrors(best.errors)}\nevent: ${truncatedJson(event)}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Event types newer than the yaml

const NAVIGATION_VIEW = {
  type: 'object',
  additionalProperties: false,
  required: ['fragment', 'is_pinned'],
  properties: { fragment: { type: 'string' }, is_pinned: { type: 'boolean' }, name: { type: ['string', 'null'] } },
};

/**
 * Events the spec documents (feature level 496) that zulip.yaml (level 378) has no schema for,
 * written after Zulip's own event schemas (zerver/lib/event_types.py) for those events.
 */
const NEWER_EVENT_SCHEMAS: Record<string, object> = {
  navigation_view: {
    anyOf: [
      { type: 'object', additionalProperties: false, required: ['type', 'op', 'navigation_view'],
        properties: { id: { type: 'integer' }, type: { const: 'navigation_view' }, op: { const: 'add' }, navigation_view: NAVIGATION_VIEW } },
      { type: 'object', additionalProperties: false, required: ['type', 'op', 'fragment', 'data'],
        properties: {
          id: { type: 'integer' }, type: { const: 'navigation_view' }, op: { const: 'update' }, fragment: { type: 'string' },
          data: { type: 'object', additionalProperties: false, properties: { is_pinned: { type: 'boolean' }, name: { type: 'string' } } },
        } },
      { type: 'object', additionalProperties: false, required: ['type', 'op', 'fragment'],
        properties: { id: { type: 'integer' }, type: { const: 'navigation_view' }, op: { const: 'remove' }, fragment: { type: 'string' } } },
    ],
  },
  // The spec's provider-neutral name for has_zoom_token.
  has_provider_token: {
    type: 'object', additionalProperties: false, required: ['type', 'value'],
    properties: { id: { type: 'integer' }, type: { const: 'has_provider_token' }, value: { type: 'boolean' } },
  },
};

const newerEventValidators = new Map<string, ValidateFunction>();

function validateNewerEvent(event: ZulipEvent, required: string[]): void {
  let validate = newerEventValidators.get(event.type);
  if (!validate) {
    validate = new Ajv({ strict: false, allErrors: true }).compile(NEWER_EVENT_SCHEMAS[event.type]!);
    newerEventValidators.set(event.type, validate);
  }
  const missing = required.filter((key) => !(key in event));
  if (validate(event) && missing.length === 0) return;
  throw new Error(
    `OpenAPI event mismatch for type ${JSON.stringify(event.type)} (schema newer than zulip.yaml)\n` +
      `${missing.length ? `  missing: ${missing.join(', ')}\n` : ''}${formatErrors(validate.errors ?? [])}\nevent: ${truncatedJson(event)}`,
  );
}

/** GET /events bodies without the events checked above against NEWER_EVENT_SCHEMAS. */
function withoutNewerEvents(template: string, body: unknown): unknown {
  if (template !== '/events' || !isObject(body) || !Array.isArray(body.events)) return body;
  return { ...body, events: body.events.filter((e) => !(isObject(e) && typeof e.type === 'string' && e.type in NEWER_EVENT_SCHEMAS)) };
}
