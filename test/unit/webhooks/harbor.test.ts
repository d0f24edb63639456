// Harbor's webhooks, against the messages Zulip's zerver/webhooks/harbor/tests.py expects. The
// payloads are trimmed to what the integration reads, in the shape Harbor 2 sends.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError, ParleyError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import type { WebhookUser } from '../../../resolvers/webhooks/integration.ts';
import { harbor } from '../../../resolvers/webhooks/integrations/harbor.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

const send = (payload: unknown) => translateWith(harbor, { body: payload });

const event = (type: string, repository: string, resource: Record<string, unknown>, operator = 'admin') => ({
  type,
  occur_at: 1586922308,
  operator,
  event_data: {
    resources: [resource],
    repository: { date_created: 1586922308, name: repository.split('/').pop(), namespace: repository.split('/')[0], repo_full_name: repository, repo_type: 'private' },
  },
});

const REPORT = 'application/vnd.security.vulnerability.report; version=1.1';
const scanned = (summary: unknown, tagged = true) => ({
  digest: 'sha256:b50334049354ed01330403212605dce2f4676a4e787ed113506861d9cf3c5424',
  ...(tagged ? { tag: '3.8.1' } : {}),
  resource_url: 'localhost/test/alpine/helm:3.8.1',
  scan_overview: { [REPORT]: { report_id: 'f1d5d1a2', scan_status: 'Success', severity: 'High', duration: 5, summary: { total: 5, fixable: 4, summary } } },
});

describe('PUSH_ARTIFACT', () => {
  it('says who pushed which image', () => {
    const outcome = send(event('PUSH_ARTIFACT', 'example/test', { digest: 'sha256:f6b8', tag: 'latest', resource_url: 'localhost/example/test:latest' }));
    expectMessage(outcome, 'example/test', '**admin** pushed image `example/test:latest`', 'PUSH_ARTIFACT');
  });

  it("mentions the realm's user Zulip guesses from the operator's name in bold", () => {
    const users: WebhookUser[] = [
      { id: 1, fullName: 'admin', email: 'admin@example.com', deliveryEmail: 'admin@example.com', isActive: true },
      { id: 2, fullName: '**ADMIN**', email: 'user2@example.com', deliveryEmail: 'x@example.com', isActive: true },
    ];
    const body = JSON.stringify(event('PUSH_ARTIFACT', 'example/test', { tag: 'latest' }));
    const outcome = harbor.translate(new IncomingWebhookRequest({ body }), users);
    expectMessage(outcome, 'example/test', '@****ADMIN**** pushed image `example/test:latest`');
    const inactive = users.map((u) => ({ ...u, isActive: false }));
    expectMessage(harbor.translate(new IncomingWebhookRequest({ body }), inactive), 'example/test', '**admin** pushed image `example/test:latest`');
  });
});

describe('SCANNING_COMPLETED', () => {
  it('counts the vulnerabilities by severity', () => {
    const outcome = send(event('SCANNING_COMPLETED', 'test/alpine/helm', scanned({ High: 4, Unknown: 1 }), 'auto'));
    expectMessage(outcome, 'test/alpine/helm', 'Image scan completed for `test/alpine/helm:3.8.1`. Vulnerabilities by severity:\n\n* High: **4**\n* Unknown: **1**', 'SCANNING_COMPLETED');
  });

  it('says None when nothing was found', () => {
    const outcome = send(event('SCANNING_COMPLETED', 'test123/test-image', { ...scanned({}), tag: 'latest' }, 'auto'));
    expectMessage(outcome, 'test123/test-image', 'Image scan completed for `test123/test-image:latest`. Vulnerabilities by severity:\n\nNone');
  });

  it("names an untagged image by its digest", () => {
    const outcome = send(event('SCANNING_COMPLETED', 'test/alpine/helm', scanned({ High: 4, Unknown: 1 }, false), 'auto'));
    expectMessage(outcome, 'test/alpine/helm', 'Image scan completed for `test/alpine/helm@sha256:b50334049354ed01330403212605dce2f4676a4e787ed113506861d9cf3c5424`. Vulnerabilities by severity:\n\n* High: **4**\n* Unknown: **1**');
  });

  it("refuses a report in another format, naming the formats", () => {
    const resource = { tag: 'latest', scan_overview: { 'application/vnd.scanner.adapter.vuln.report.harbor+json; version=1.0': {} } };
    expectError(() => send(event('SCANNING_COMPLETED', 'a/b', resource)), UnsupportedWebhookEventTypeError,
      "The '['application/vnd.scanner.adapter.vuln.report.harbor+json; version=1.0']' event isn't currently supported by the Harbor webhook; ignoring");
  });
});

describe('ignored events', () => {
  it('says nothing of deletions, pulls and charts', () => {
    for (const type of ['DELETE_ARTIFACT', 'PULL_ARTIFACT', 'UPLOAD_CHART', 'SCANNING_FAILED']) {
      expect(send(event(type, 'example/test', { tag: 'latest' })).messages).toEqual([]);
    }
  });
});

describe('refusals', () => {
  it("is registered under its URL name, with Zulip's name and event types", () => {
    expect(integrationNamed('harbor')).toBe(harbor);
    expect(harbor.displayName).toBe('Harbor');
    expect(harbor.eventTypes).toEqual(['PUSH_ARTIFACT', 'SCANNING_COMPLETED']);
    expect(harbor.readsUsers).toBe(true);
    expect(harbor.unquoteUrlParameters).toBe(true);
  });

  it('refuses events Zulip does not support', () => {
    for (const type of ['REPLICATION', 'constructor']) {
      expectError(() => send(event(type, 'a/b', { tag: 'x' })), UnsupportedWebhookEventTypeError, `The '${type}' event isn't currently supported by the Harbor webhook; ignoring`);
    }
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    expectError(() => send('{'), InvalidJsonError, 'Malformed JSON');
    expectError(() => send({ ...event('PUSH_ARTIFACT', 'a/b', {}), operator: undefined }), ParleyError, 'payload["operator"] is missing');
    expectError(() => send({ ...event('PUSH_ARTIFACT', 'a/b', {}), type: 7 }), ParleyError, 'payload["type"] is not a string');
    expectError(() => send(event('PUSH_ARTIFACT', 'a/b', {})), ParleyError, 'payload["event_data"]["resources"][0]["digest"] is missing');
    const noResources = event('PUSH_ARTIFACT', 'a/b', {});
    noResources.event_data.resources = [];
    expectError(() => send(noResources), ParleyError, 'payload["event_data"]["resources"][0] is missing');
    expectError(() => send(event('SCANNING_COMPLETED', 'a/b', scanned({ High: 'four' }))), ParleyError,
      `payload["event_data"]["resources"][0]["scan_overview"]["${REPORT}"]["summary"]["summary"]["High"] is not an integer`);
  });
});
