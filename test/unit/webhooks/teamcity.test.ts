// TeamCity's legacy JSON payloads, against the messages Zulip's zerver/webhooks/teamcity/tests.py
// expects. The payloads are trimmed to what the integration reads, in the shape tcWebHooks sends.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError, ParleyError } from '../../../resolvers/errors.ts';
import type { WebhookUser } from '../../../resolvers/webhooks/integration.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { teamcity } from '../../../resolvers/webhooks/integrations/teamcity.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { expectError, expectMessage } from '../../support/webhooks.ts';

const USERS: WebhookUser[] = [
  { id: 8, fullName: 'Iago', email: 'iago@zulip.com', deliveryEmail: 'iago@zulip.com', isActive: true },
  { id: 9, fullName: 'King Hamlet', email: 'hamlet@zulip.com', deliveryEmail: 'hamlet@zulip.com', isActive: true },
];
const send = (payload: unknown, users: WebhookUser[] = USERS) =>
  teamcity.translate(new IncomingWebhookRequest({ body: typeof payload === 'string' ? payload : JSON.stringify(payload) }), users);

const LOG = 'http://teamcity/viewLog.html?buildTypeId=Project_Compile&buildId=19952';
const build = (buildResult: string, buildResultDelta: string, extra: Record<string, unknown> = {}) => ({
  build: {
    buildFullName: 'Project :: Compile', buildName: 'Compile', buildStatusUrl: LOG, buildNumber: '5535 - CL 123456',
    buildResult, buildResultDelta, buildStatus: 'Exit code 1', triggeredBy: 'Tim Abbott', notifyType: 'buildFinished',
    teamcityProperties: [{ name: 'env.BUILD_IS_PERSONAL', value: 'false' }, { name: 'teamcity.build.triggeredBy.username', value: 'tabbott' }],
    ...extra,
  },
});
const LINKS = `See [changes](${LOG}&tab=buildChangesDiv) and [build log](${LOG}).`;
const TOPIC = 'Project :: Compile';

describe('finished builds', () => {
  it('reports a success', () => {
    const outcome = send(build('success', 'unchanged'));
    expectMessage(outcome, TOPIC, `Project :: Compile build 5535 - CL 123456 was successful! :thumbs_up: ${LINKS}`);
    expect(outcome.eventType).toBeUndefined();
  });

  it("puts a branch's builds in their own topic", () => {
    expectMessage(send(build('success', 'unchanged', { branchDisplayName: 'MyBranch' })), 'Project :: Compile (MyBranch)', `Project :: Compile build 5535 - CL 123456 was successful! :thumbs_up: ${LINKS}`);
  });

  it('reports a build newly broken, still broken, fixed or started', () => {
    expectMessage(send(build('failure', 'broken', { buildStatus: 'Exit code 1 (new)' })), TOPIC, `Project :: Compile build 5535 - CL 123456 is broken with status Exit code 1 (new)! :thumbs_down: ${LINKS}`);
    expectMessage(send(build('failure', 'unchanged')), TOPIC, `Project :: Compile build 5535 - CL 123456 is still broken with status Exit code 1! :thumbs_down: ${LINKS}`);
    expectMessage(send(build('success', 'fixed')), TOPIC, `Project :: Compile build 5535 - CL 123456 has been fixed! :thumbs_up: ${LINKS}`);
    expectMessage(send(build('running', 'unknown')), TOPIC, `Project :: Compile build 5535 - CL 123456 has started. ${LINKS}`);
  });
});

describe('personal builds', () => {
  const personal = (triggeredBy: string, username = 'tabbott') => build('failure', 'broken', {
    buildStatus: 'Exit code 1 (new)', triggeredBy,
    teamcityProperties: [{ name: 'env.BUILD_IS_PERSONAL', value: 'true' }, { name: 'teamcity.build.triggeredBy.username', value: username }],
  });
  const CONTENT = `Your personal build for Project :: Compile build 5535 - CL 123456 is broken with status Exit code 1 (new)! :thumbs_down: ${LINKS}`;

  it('tells the user found by full name, directly', () => {
    const outcome = send(personal('king hamlet;hamlet'));
    expect(outcome.messages).toEqual([{ topic: TOPIC, content: CONTENT, directTo: 9 }]);
  });

  it('falls back to the TeamCity username, matched against emails', () => {
    expect(send(personal('Somebody Else', 'iago')).messages).toEqual([{ topic: TOPIC, content: CONTENT, directTo: 8 }]);
  });

  it('says nothing when nobody matches, or the user is deactivated', () => {
    expect(send(personal('Somebody Else', 'nobody')).messages).toEqual([]);
    expect(send(personal('King Hamlet', 'hamlet'), USERS.map((u) => ({ ...u, isActive: false }))).messages).toEqual([]);
  });
});

describe('other payload formats', () => {
  it("answers with success and tells the bot's owner how to mend the webhook", () => {
    const outcome = send({ text: 'Build Project :: Compile failed', attachments: [] });
    expect(outcome.messages).toEqual([]);
    expect(outcome.ownerNotice!('TeamCity Bot', 'support@example.com')).toBe([
      'Hi there! Your bot TeamCity Bot just received a TeamCity payload in a',
      "format that Zulip doesn't recognize. This usually indicates a",
      'configuration issue in your TeamCity webhook settings. Please make sure',
      'that you set the **Payload Format** option to **Legacy Webhook (JSON)**',
      'in your TeamCity webhook configuration. Contact support@example.com if you',
      'need further help!',
    ].join('\n'));
  });
});

describe('refusals', () => {
  it("is registered under its URL name, with Zulip's name", () => {
    expect(integrationNamed('teamcity')).toBe(teamcity);
    expect(teamcity.displayName).toBe('TeamCity');
    expect(teamcity.eventTypes).toBeNull();
    expect(teamcity.readsUsers).toBe(true);
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    expectError(() => send('{"build":'), InvalidJsonError, 'Malformed JSON');
    expectError(() => send({ build: null }), ParleyError, 'payload["build"] is not a dict');
    expectError(() => send(build('success', 'fixed', { buildNumber: 5535 })), ParleyError, 'payload["build"]["buildNumber"] is not a string');
    expectError(() => send(build('success', 'fixed', { teamcityProperties: undefined })), ParleyError, 'payload["build"]["teamcityProperties"] is missing');
    expectError(() => send(build('success', 'fixed', { teamcityProperties: [{ name: 'env.BUILD_IS_PERSONAL' }] })), ParleyError, 'payload["build"]["teamcityProperties"][0]["value"] is missing');
    expectError(() => send(build('cancelled', 'unknown')), ParleyError, 'payload["build"]["buildResult"] is not a build result');
  });
});
