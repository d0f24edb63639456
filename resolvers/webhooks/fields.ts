// GraphQL fields of incoming webhooks: delivering a third party's request (what
// `/api/v1/external/<integration>` runs) and the list of integrations.
import { builder } from '../../schema/builder.ts';
import { forUser } from '../../schema/fields.ts';
import { checkWebhookUrl, deliverWebhook } from './deliver.ts';
import { incomingWebhookIntegrations } from './integrations/index.ts';

type IntegrationShape = ReturnType<typeof incomingWebhookIntegrations>[number];
type UrlOptionShape = IntegrationShape['urlOptions'][number];

const WebhookUrlOptionType = builder.objectRef<UrlOptionShape>('WebhookUrlOption').implement({
  description: 'A query parameter an integration\'s URL may carry (e.g. GitHub\'s `branches`).',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The parameter\'s name.' }),
    label: t.exposeString('label', { description: 'What it does, for people setting it up.' }),
    inputType: t.exposeString('inputType', { description: 'Zulip\'s validator name: `check_string`, `check_bool` or `check_url`.' }),
  }),
});

const IncomingWebhookIntegrationType = builder.objectRef<IntegrationShape>('IncomingWebhookIntegration').implement({
  description: 'An incoming-webhook integration: a third party that can post to `/api/v1/external/<name>` (Zulip\'s realm_incoming_webhook_bots entry).',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The URL name.' }),
    displayName: t.exposeString('displayName', { description: 'The third party\'s name.' }),
    allEventTypes: t.exposeStringList('allEventTypes', { nullable: true, description: 'The event types `onlyEvents`/`excludeEvents` can name; null when the integration has none.' }),
    urlOptions: t.field({ type: [WebhookUrlOptionType], description: 'The integration\'s own URL parameters.', resolve: (i) => i.urlOptions }),
  }),
});

type DeliveredShape = Awaited<ReturnType<typeof deliverWebhook>>;

const WebhookSenderType = builder.objectRef<NonNullable<DeliveredShape['sender']>>('WebhookSender').implement({
  description: 'Who the webhook\'s credentials name (what Zulip\'s Zapier app shows for the connection).',
  fields: (t) => ({
    userId: t.exposeInt('userId', { description: 'The user\'s ID.' }),
    email: t.exposeString('email', { description: 'The user\'s API email.' }),
    fullName: t.exposeString('fullName', { description: 'The user\'s name.' }),
  }),
});

const DeliveredWebhookType = builder.objectRef<DeliveredShape>('DeliveredWebhook').implement({
  description: 'What a webhook request did.',
  fields: (t) => ({
    messageIds: t.exposeIntList('messageIds', { description: 'The messages sent (none for events the integration or the filters leave out, or for a channel that does not exist).' }),
    sender: t.field({
      type: WebhookSenderType, nullable: true,
      description: 'Set when the third party only checked its credentials (Zapier\'s `{"type": "auth"}`).',
      resolve: (d) => d.sender,
    }),
  }),
});

const WebhookRequestInput = builder.inputType('WebhookRequestInput', {
  description: 'A third party\'s HTTP request, as it came.',
  fields: (t) => ({
    body: t.string({ required: true, description: 'The body as sent (usually JSON).' }),
    headers: t.field({ type: 'JSON', description: 'Its headers, an object of strings (names in any case); integrations read the event type from some.' }),
    params: t.field({ type: 'JSON', description: 'Its query parameters and form fields, an object of strings: the integration\'s own options.' }),
  }),
});

builder.queryFields((t) => ({
  incomingWebhookIntegrations: t.field({
    type: [IncomingWebhookIntegrationType],
    description: 'The incoming-webhook integrations this server offers.',
    resolve: () => incomingWebhookIntegrations(),
  }),
  checkWebhookUrl: t.boolean({
    description: 'Whether the integration answers a URL check (HEAD, as Trello makes when its webhook is created): true, or METHOD_NOT_ALLOWED for integrations that only take deliveries.',
    args: { integration: t.arg.string({ required: true, description: 'The integration\'s URL name.' }) },
    resolve: forUser((_ctx, _user, args) => checkWebhookUrl(args.integration)),
  }),
}));

builder.mutationFields((t) => ({
  deliverWebhook: t.field({
    type: DeliveredWebhookType,
    description: 'Posts what a third party\'s webhook request says (Zulip\'s `/api/v1/external/<integration>`), as the viewer (usually an incoming-webhook bot): '
      + 'to `stream` and the integration\'s topic, or as direct messages to the bot\'s owner without `stream`. A channel that does not exist is not an error '
      + '(the owner is told instead, at most every 5 minutes), as the third party cannot mend it.',
    args: {
      integration: t.arg.string({ required: true, description: 'The integration\'s URL name (`incomingWebhookIntegrations`).' }),
      request: t.arg({ type: WebhookRequestInput, required: true, description: 'The third party\'s request.' }),
      stream: t.arg.string({ description: 'The channel, by name or ID; omitted: direct messages to the bot\'s owner.' }),
      topic: t.arg.string({ description: 'The topic, in place of the one the integration chooses.' }),
      onlyEvents: t.arg.stringList({ description: 'Send only events whose type matches one of these shell-style patterns (`pull_request*`).' }),
      excludeEvents: t.arg.stringList({ description: 'Drop events whose type matches one of these shell-style patterns.' }),
    },
    resolve: forUser(deliverWebhook),
  }),
}));
