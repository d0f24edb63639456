// Azure DevOps' service hooks, against the messages Zulip's zerver/webhooks/azuredevops/tests.py
// expects. The payloads are trimmed to what the integration reads, in the shape Azure DevOps sends.
import { describe, expect, it } from 'vitest';
import { InvalidJsonError, ParleyError, UnsupportedWebhookEventTypeError } from '../../../resolvers/errors.ts';
import { azuredevops } from '../../../resolvers/webhooks/integrations/azuredevops.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

const send = (payload: unknown, params: Record<string, string> = {}): WebhookOutcome => translateWith(azuredevops, { body: payload, params });

const REPO_URL = 'https://dev.azure.com/ttchong/test-zulip/_git/test-zulip';
const REPOSITORY = { id: '98f0ce59-a912-43d5-96d2-bc0942a03f7b', name: 'test-zulip', remoteUrl: REPO_URL, webUrl: REPO_URL };
const YURO = { displayName: 'Yuro Itaki', uniqueName: 'yuroitaki@example.com' };

describe('git.push', () => {
  const README = 'b0ce2f2009c3c87dbefadf61d7eb2c0697a6f369';
  const REPLY = '0929a3404b39f6e39076a640779b2c1c961e19b5';
  const HOW_ARE_YOU = '819ce8de51bedfc250c202edcaee0ce8dc70bf3b';
  const commit = (commitId: string, comment: string, name = 'Yuro Itaki') => ({
    commitId, author: { name, email: 'yuro@example.com', date: '2022-07-17T05:30:00Z' }, comment, url: `${REPO_URL}/commit/${commitId}`,
  });
  const push = (branch: string, oldObjectId: string, newObjectId: string, commits?: unknown[]) => ({
    eventType: 'git.push',
    resource: {
      ...(commits === undefined ? {} : { commits }),
      refUpdates: [{ name: `refs/heads/${branch}`, oldObjectId, newObjectId }],
      repository: REPOSITORY,
      pushedBy: YURO,
    },
  });
  const compare = (base: string, target: string) => `${REPO_URL}/branchCompare?baseVersion=GC${base}&targetVersion=GC${target}&_a=files`;
  const row = (sha: string, message: string) => `* ${message} ([${sha.slice(0, 11)}](${REPO_URL}/commit/${sha}))`;

  const OLD = '51515957669f93c543df09f8f3e7f47c3613c879';
  const ONE = push('main', OLD, README, [commit(README, 'Modify readme')]);
  const ONE_MESSAGE = `Yuro Itaki [pushed](${compare(OLD, README)}) 1 commit to branch main.\n\n${row(README, 'Modify readme')}`;

  it('lists the pushed commit', () => {
    const outcome = send(ONE);
    expectMessage(outcome, 'test-zulip / main', ONE_MESSAGE);
    // Zulip sends these without an event type: only_events and exclude_events let them through.
    expect(outcome.eventType).toBeUndefined();
  });

  it('keeps pushes to the branches the URL names, and only those', () => {
    expectMessage(send(ONE, { branches: 'main,dev' }), 'test-zulip / main', ONE_MESSAGE);
    expect(send(ONE, { branches: 'development' }).messages).toEqual([]);
  });

  it('says a branch was pushed when no commits came with it', () => {
    const ZERO = '0000000000000000000000000000000000000000';
    expectMessage(send(push('dev', ZERO, REPLY, [])), 'test-zulip / dev', `Yuro Itaki [pushed](${compare(ZERO, REPLY)}) the branch dev.`);
    // A removed branch reads the same (Zulip does not tell them apart), with or without `commits`.
    expectMessage(send(push('dev', REPLY, ZERO)), 'test-zulip / dev', `Yuro Itaki [pushed](${compare(REPLY, ZERO)}) the branch dev.`);
  });

  it('credits several committers', () => {
    const base = 'cc21b940719cc372b364d932eb39e528b0ec2a91';
    const payload = push('main', base, REPLY, [commit(REPLY, 'Add reply\n\nbody', 'Yuro Itaki'), commit(HOW_ARE_YOU, 'Add how are you', 'Itachi Sensei')]);
    expectMessage(send(payload), 'test-zulip / main',
      `Yuro Itaki [pushed](${compare(base, REPLY)}) 2 commits to branch main. Commits by Itachi Sensei (1) and Yuro Itaki (1).\n\n${row(REPLY, 'Add reply')}\n${row(HOW_ARE_YOU, 'Add how are you')}`);
  });

  it('counts the committers beyond three as others', () => {
    const base = 'cc21b940719cc372b364d932eb39e528b0ec2a91';
    const payload = push('main', base, REPLY, [
      commit(REPLY, 'Add reply', 'Itachi Sensei'),
      ...['Yuro Itaki', 'Jonas Nielsen', 'Yuro Itaki', 'Itachi Sensei'].map((name) => commit(HOW_ARE_YOU, 'Add how are you', name)),
      commit(REPLY, 'Add reply', 'Someone Else'),
    ]);
    expectMessage(send(payload), 'test-zulip / main',
      `Yuro Itaki [pushed](${compare(base, REPLY)}) 6 commits to branch main. Commits by Itachi Sensei (2), Yuro Itaki (2), Jonas Nielsen (1) and others (1).\n\n`
      + `${row(REPLY, 'Add reply')}\n${`${row(HOW_ARE_YOU, 'Add how are you')}\n`.repeat(4)}${row(REPLY, 'Add reply')}`);
  });

  it('lists twenty commits and counts the rest', () => {
    const payload = push('main', OLD, README, Array.from({ length: 50 }, () => commit(README, 'Modify readme')));
    expectMessage(send(payload), 'test-zulip / main',
      `Yuro Itaki [pushed](${compare(OLD, README)}) 50 commits to branch main.\n\n${`${row(README, 'Modify readme')}\n`.repeat(20)}[and 30 more commit(s)]`);
  });
});

describe('git.pullrequest.*', () => {
  const PR_URL = (id: number) => `${REPO_URL}/pullrequest/${id}`;
  const pullRequest = (eventType: string, id: number, title: string, resource: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
    eventType,
    resource: {
      repository: REPOSITORY, pullRequestId: id, status: 'active', createdBy: YURO, title,
      sourceRefName: 'refs/heads/dev', targetRefName: 'refs/heads/main', mergeStatus: 'queued',
      _links: { web: { href: PR_URL(id) } }, ...resource,
    },
    ...extra,
  });

  it('quotes the description of a created pull request', () => {
    expectMessage(send(pullRequest('git.pullrequest.created', 1, 'Add PR request', { description: 'Add PR request' })), 'test-zulip / PR #1 Add PR request',
      `Yuro Itaki created [PR #1 Add PR request](${PR_URL(1)}) from \`dev\` to \`main\`:\n\n~~~ quote\nAdd PR request\n~~~`);
  });

  it('ends with the branches when there is no description', () => {
    const payload = pullRequest('git.pullrequest.created', 2, 'Raised 2nd PR!', { sourceRefName: 'refs/heads/stg' });
    const expected = `Yuro Itaki created [PR #2 Raised 2nd PR!](${PR_URL(2)}) from \`stg\` to \`main\`.`;
    expectMessage(send(payload), 'test-zulip / PR #2 Raised 2nd PR!', expected);
    expectMessage(send({ ...payload, resource: { ...payload.resource, description: '' } }), 'test-zulip / PR #2 Raised 2nd PR!', expected);
  });

  it('reports a completed merge', () => {
    const payload = pullRequest('git.pullrequest.merged', 1, 'Add PR request', { status: 'completed', mergeStatus: 'succeeded' });
    expectMessage(send(payload), 'test-zulip / PR #1 Add PR request', `Yuro Itaki merged [PR #1 Add PR request](${PR_URL(1)}) from \`dev\` to \`main\`.`);
  });

  it('says nothing of a merge that was only attempted', () => {
    expect(send(pullRequest('git.pullrequest.merged', 1, 'Add PR request', { status: 'active', mergeStatus: 'conflicts' })).messages).toEqual([]);
    expect(send(pullRequest('git.pullrequest.merged', 1, 'Add PR request', { status: 'completed', mergeStatus: 'failure' })).messages).toEqual([]);
  });

  it("quotes Azure DevOps' account of an update", () => {
    const markdown = `Yuro Itaki updated the source branch of [pull request 2](${PR_URL(2)}) (Raised 2nd PR!) in [test-zulip](${REPO_URL}/)\r\nRaised 2nd PR!\r\n`;
    const payload = pullRequest('git.pullrequest.updated', 2, 'Raised 2nd PR!', {}, { detailedMessage: { text: 'ignored', markdown } });
    expectMessage(send(payload), 'test-zulip / PR #2 Raised 2nd PR!',
      `Yuro Itaki updated [PR #2 Raised 2nd PR!](${PR_URL(2)})\n\n~~~ quote\nYuro Itaki updated the source branch of [pull request 2](${PR_URL(2)}) (Raised 2nd PR!) in [test-zulip](${REPO_URL}/)\r\nRaised 2nd PR!\r\n\n~~~`);
  });
});

describe('refusals', () => {
  const minimalPush = { eventType: 'git.push', resource: { refUpdates: [{ name: 'refs/heads/main', oldObjectId: 'a', newObjectId: 'b' }], repository: REPOSITORY, pushedBy: YURO } };

  it('is registered under its URL name, with the event types Zulip names', () => {
    expect(integrationNamed('azuredevops')).toBe(azuredevops);
    expect(azuredevops.displayName).toBe('AzureDevOps');
    expect(azuredevops.eventTypes).toEqual(['git.push', 'git.pullrequest.created', 'git.pullrequest.merged', 'git.pullrequest.updated']);
  });

  it('refuses events Zulip does not support', () => {
    for (const event of ['build.complete', 'ms.vss-code.git-pullrequest-comment-event', 'constructor', 'toString']) {
      expectError(() => send({ eventType: event, resource: {} }), UnsupportedWebhookEventTypeError, `The '${event}' event isn't currently supported by the AzureDevOps webhook; ignoring`);
    }
  });

  it('refuses payloads of the wrong shape with a 400', () => {
    expectError(() => send('not json'), InvalidJsonError, 'Malformed JSON');
    expectError(() => send({ resource: {} }), ParleyError, 'payload["eventType"] is missing');
    expectError(() => send({ eventType: 5 }), ParleyError, 'payload["eventType"] is not a string');
    expectError(() => send([minimalPush]), ParleyError, 'payload is not a dict');
    expectError(() => send({ ...minimalPush, resource: { ...minimalPush.resource, refUpdates: [] } }), ParleyError, 'payload["resource"]["refUpdates"][0] is missing');
    expectError(() => send({ ...minimalPush, resource: { ...minimalPush.resource, refUpdates: {} } }), ParleyError, 'payload["resource"]["refUpdates"] is not a list');
    expectError(() => send({ ...minimalPush, resource: { ...minimalPush.resource, commits: null } }), ParleyError, 'payload["resource"]["commits"] is not a list');
    expectError(() => send({ ...minimalPush, resource: { ...minimalPush.resource, commits: [{ commitId: 'abc', comment: 'x', author: { name: 7 } }] } }), ParleyError, 'payload["resource"]["commits"][0]["author"]["name"] is not a string');
    expectError(() => send({ ...minimalPush, resource: { ...minimalPush.resource, pushedBy: {} } }), ParleyError, 'payload["resource"]["pushedBy"]["displayName"] is missing');
    expectError(() => send({ eventType: 'git.pullrequest.merged', resource: { status: 'completed' } }), ParleyError, 'payload["resource"]["mergeStatus"] is missing');
    expectError(() => send({ eventType: 'git.pullrequest.created', resource: { repository: REPOSITORY, pullRequestId: '1' } }), ParleyError, 'payload["resource"]["pullRequestId"] is not an integer');
    expectError(() => send({ eventType: 'git.pullrequest.updated', resource: { repository: REPOSITORY, pullRequestId: 1, title: 't', createdBy: YURO, _links: { web: { href: 'u' } } } }), ParleyError, 'payload["detailedMessage"] is missing');
    expectError(() => send({ eventType: 'git.pullrequest.created', resource: { repository: REPOSITORY, pullRequestId: 1, title: 't', createdBy: YURO, _links: { web: { href: 'u' } }, sourceRefName: 'a', targetRefName: 'b', description: 3 } }), ParleyError, 'payload["resource"]["description"] is not a string');
  });
});
