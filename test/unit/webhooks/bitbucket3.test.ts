// Bitbucket Server's webhooks, against the messages Zulip's zerver/webhooks/bitbucket3/tests.py
// expects. The payloads are trimmed to what the integration reads, in Bitbucket Server's documented
// shape.
import { describe, expect, it } from 'vitest';
import {
  BadRequestError, InvalidJsonError, MissingHttpEventHeaderError, UnsupportedWebhookEventTypeError,
} from '../../../resolvers/errors.ts';
import { bitbucket3 } from '../../../resolvers/webhooks/integrations/bitbucket3.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

type Json = Record<string, unknown>;

/** Bitbucket Server names the event in the payload; the header is for the ping. */
function send(payload: unknown, params: Record<string, string> = {}, headers: Record<string, string> = {}): WebhookOutcome {
  return translateWith(bitbucket3, { body: payload, headers, params });
}

const unsupported = (event: string) => `The '${event}' event isn't currently supported by the Bitbucket3 webhook; ignoring`;

const BASE = 'http://139.59.64.214:7990';
const self = (href: string) => ({ self: [{ href }] });
const user = (name: string, displayName: string) => ({ name, displayName, type: 'NORMAL', links: self(`${BASE}/users/${name}`) });
const HYPRO = user('hypro999', 'Hemanth V. Alluri');
const ZURA = user('zura', 'Katsura Kotarou');
const SHIMURA = user('shimura', 'Shimura Shinpachi');
const SOUGO = user('sougo', 'Okita Sougo');
const SANDBOX = { name: 'sandbox', links: self(`${BASE}/projects/SBOX/repos/sandbox/browse`) };
const FORK = { name: 'sandbox fork', origin: SANDBOX, links: self(`${BASE}/users/hypro999/repos/sandbox-fork/browse`) };

const HYPRO_LINK = `[hypro999](${BASE}/users/hypro999)`;
const ZURA_LINK = `[zura](${BASE}/users/zura)`;
const SHIMURA_LINK = `[shimura](${BASE}/users/shimura)`;
const SOUGO_LINK = `[sougo](${BASE}/users/sougo)`;

describe('diagnostics:ping', () => {
  const ping = (params: Record<string, string> = {}) => send({ test: true }, params, { 'X-Event-Key': 'diagnostics:ping' });

  it('congratulates', () => {
    expectMessage(ping(), 'Bitbucket Server Ping', 'Congratulations! The Bitbucket Server webhook was configured successfully!', 'diagnostics:ping');
  });

  it('goes to the topic the URL names', () => {
    expectMessage(ping({ topic: 'my topic' }), 'my topic', 'Congratulations! The Bitbucket Server webhook was configured successfully!');
  });
});

describe('repo:comment', () => {
  const SHA = '508d1b67f1f8f3a25f543a030a7a178894aa9907';
  const COMMIT = `[508d1b67f1f](${BASE}/projects/SBOX/repos/sandbox/commits/${SHA})`;
  const comment = (eventKey: string, text: string) => ({ eventKey, actor: HYPRO, repository: SANDBOX, commit: SHA, comment: { id: 1, text, author: HYPRO } });
  const EDITED = 'Just an arbitrary comment on a commit. Nothing to see here...';

  it('repo:comment:added quotes the comment', () => {
    expectMessage(send(comment('repo:comment:added', 'Just an arbitrary comment on a commit.')), 'sandbox',
      `${HYPRO_LINK} commented on ${COMMIT}:\n~~~ quote\nJust an arbitrary comment on a commit.\n~~~`, 'repo:comment:added');
  });

  it('repo:comment:edited quotes the comment as it is now', () => {
    expectMessage(send(comment('repo:comment:edited', EDITED)), 'sandbox', `${HYPRO_LINK} edited their comment on ${COMMIT}:\n~~~ quote\n${EDITED}\n~~~`, 'repo:comment:edited');
  });

  it('repo:comment:deleted strikes the comment through', () => {
    expectMessage(send(comment('repo:comment:deleted', EDITED)), 'sandbox', `${HYPRO_LINK} deleted their comment on ${COMMIT}:\n~~~ quote\n~~${EDITED}~~\n~~~`, 'repo:comment:deleted');
  });
});

describe('repo:forked', () => {
  it('names the user and links the fork, in the original\'s topic', () => {
    expectMessage(send({ eventKey: 'repo:forked', actor: HYPRO, repository: FORK }), 'sandbox',
      `User Hemanth V. Alluri(login: ${HYPRO_LINK}) forked the repository into [sandbox fork](${BASE}/users/hypro999/repos/sandbox-fork/browse).`, 'repo:forked');
  });
});

describe('repo:modified', () => {
  it('says the repository was renamed, in the new name\'s topic', () => {
    const payload = { eventKey: 'repo:modified', actor: HYPRO, old: SANDBOX, new: { ...SANDBOX, name: 'sandbox v2', links: self(`${BASE}/projects/SBOX/repos/sandbox-v2/browse`) } };
    expectMessage(send(payload), 'sandbox v2', `${HYPRO_LINK} changed the name of the **sandbox** repo from **sandbox** to **sandbox v2**.`, 'repo:modified');
  });

  it('keeps a new name\'s own final punctuation', () => {
    const payload = { eventKey: 'repo:modified', actor: HYPRO, old: SANDBOX, new: { ...SANDBOX, name: 'sandbox!' } };
    expectMessage(send(payload), 'sandbox!', `${HYPRO_LINK} changed the name of the **sandbox** repo from **sandbox** to **sandbox!**`);
  });
});

describe('repo:refs_changed', () => {
  const change = (refType: 'BRANCH' | 'TAG', name: string, type: string, toHash = '0000000000000000000000000000000000000000') => ({
    ref: { id: `refs/${refType === 'TAG' ? 'tags' : 'heads'}/${name}`, displayId: name, type: refType }, refId: `refs/heads/${name}`,
    fromHash: '7c4cae30d77990b9095024bdd6c7bf0d545d870b', toHash, type,
  });
  const push = (...changes: Json[]) => ({ eventKey: 'repo:refs_changed', actor: HYPRO, repository: SANDBOX, changes });
  const BRANCH1 = change('BRANCH', 'branch1', 'UPDATE', '3980c2be32a7e23c795741d5dc1a2eecb9b85d6d');
  const MASTER = change('BRANCH', 'master', 'UPDATE', 'fc43d13cff1abb28631196944ba4fc4ad06a2cf2');
  const BRANCH1_MESSAGE = { topic: 'sandbox / branch1', content: `${HYPRO_LINK} pushed to branch branch1. Head is now 3980c2be32a7e23c795741d5dc1a2eecb9b85d6d.` };
  const MASTER_MESSAGE = { topic: 'sandbox / master', content: `${HYPRO_LINK} pushed to branch master. Head is now fc43d13cff1abb28631196944ba4fc4ad06a2cf2.` };

  it('says a branch was created', () => {
    expectMessage(send(push(change('BRANCH', 'branch2', 'ADD'))), 'sandbox / branch2', `${HYPRO_LINK} created branch2 branch.`, 'repo:refs_changed');
  });

  it('says a branch was deleted', () => {
    expectMessage(send(push(change('BRANCH', 'branch2', 'DELETE'))), 'sandbox / branch2', `${HYPRO_LINK} deleted branch branch2.`);
  });

  it('says a tag was pushed', () => {
    expectMessage(send(push(change('TAG', 'newtag', 'ADD'))), 'sandbox', `${HYPRO_LINK} pushed tag newtag.`);
  });

  it('says a tag was removed', () => {
    expectMessage(send(push(change('TAG', 'test-tag', 'DELETE'))), 'sandbox', `${HYPRO_LINK} removed tag test-tag.`);
  });

  it('says where a branch\'s head is now', () => {
    expectMessage(send(push(change('BRANCH', 'master', 'UPDATE', 'e68c981ef53dbab0a5ca320a2d8d80e216c70528'))), 'sandbox / master',
      `${HYPRO_LINK} pushed to branch master. Head is now e68c981ef53dbab0a5ca320a2d8d80e216c70528.`);
  });

  it('sends a message for each branch, to its topic', () => {
    expect(send(push(BRANCH1, MASTER)).messages).toEqual([BRANCH1_MESSAGE, MASTER_MESSAGE]);
  });

  it('sends only the branches the branches option names', () => {
    expect(send(push(BRANCH1, MASTER), { branches: 'master' }).messages).toEqual([MASTER_MESSAGE]);
    expect(send(push(BRANCH1, MASTER), { branches: 'branch1' }).messages).toEqual([BRANCH1_MESSAGE]);
    expect(send(push(BRANCH1, MASTER), { branches: 'dev, master' }).messages).toEqual([MASTER_MESSAGE]);
    expect(send(push(BRANCH1, MASTER), { branches: 'dev' }).messages).toEqual([]);
  });

  it('does not filter tags', () => {
    expectMessage(send(push(change('TAG', 'newtag', 'ADD')), { branches: 'master' }), 'sandbox', `${HYPRO_LINK} pushed tag newtag.`);
  });

  it('refuses kinds of refs and changes Zulip has no message for, with 200', () => {
    expectError(() => send(push(change('BRANCH', 'master', 'MERGE'))), UnsupportedWebhookEventTypeError, unsupported('repo:refs_changed.MERGE'));
    expectError(() => send(push(change('TAG', 'v1', 'UPDATE'))), UnsupportedWebhookEventTypeError, unsupported('repo:refs_changed.UPDATE'));
    expectError(() => send(push({ ...MASTER, ref: { displayId: 'x', type: 'NOTE' } })), UnsupportedWebhookEventTypeError, unsupported('repo:refs_changed.NOTE'));
  });
});

describe('pull requests', () => {
  const prUrl = (id: number) => `${BASE}/projects/SBOX/repos/sandbox/pull-requests/${id}`;
  const ref = (displayId: string, repository: Json) => ({ id: `refs/heads/${displayId}`, displayId, repository });
  const reviewer = (u: Json) => ({ user: u, role: 'REVIEWER', approved: false, status: 'UNAPPROVED' });
  const pullRequest = (id: number, title: string, extra: Json = {}) => ({
    id, title, version: 0, open: true, closed: false, links: self(prUrl(id)),
    fromRef: ref('master', FORK), toRef: ref('master', SANDBOX), author: reviewer(HYPRO), reviewers: [], ...extra,
  });
  const event = (eventKey: string, pr: Json, extra: Json = {}) => ({ eventKey, actor: HYPRO, pullRequest: pr, ...extra });

  const BRANCH1_DESCRIPTION = '* Add file2.txt\n* Add file3.txt\nBoth of these files would be important additions to the project!';
  const PR1 = pullRequest(1, 'Branch1', { fromRef: ref('branch1', FORK), description: BRANCH1_DESCRIPTION, reviewers: [reviewer(SHIMURA)] });
  const PR2 = pullRequest(2, 'Add notes feature.');
  const PR5 = pullRequest(5, 'Add Notes Feature', { reviewers: [reviewer(SHIMURA), reviewer(SOUGO)] });
  const PR6 = pullRequest(6, 'sample_file: Add sample_file.txt.', {
    description: 'Add a simple text file for further testing purposes.', reviewers: [reviewer(SOUGO), reviewer(ZURA), reviewer(SHIMURA)],
  });
  const PR6_TOPIC = 'sandbox / PR #6 sample_file: Add sample_file.txt.';
  const byZura = (eventKey: string, extra: Json = {}) => ({ ...event(eventKey, PR6, extra), actor: ZURA });
  const custom = { topic: 'custom_topic' };
  const contentOf = (outcome: WebhookOutcome) => {
    expect(outcome.messages).toHaveLength(1);
    return outcome.messages[0]!.content;
  };

  describe('pr:opened', () => {
    it('names the branches and quotes the description', () => {
      const pr = pullRequest(1, 'Branch1', { fromRef: ref('branch1', FORK), description: '* Add file2.txt\r\n* Add file3.txt' });
      expectMessage(send(event('pr:opened', pr)), 'sandbox / PR #1 Branch1',
        `${HYPRO_LINK} opened [PR #1](${prUrl(1)}) from \`branch1\` to \`master\`:\n\n~~~ quote\n* Add file2.txt\r\n* Add file3.txt\n~~~`, 'pr:opened');
    });

    it('ends the sentence where there is no description', () => {
      expectMessage(send(event('pr:opened', PR2)), 'sandbox / PR #2 Add notes feature.', `${HYPRO_LINK} opened [PR #2](${prUrl(2)}) from \`master\` to \`master\`.`);
    });

    it('names two reviewers', () => {
      expectMessage(send(event('pr:opened', PR5)), 'sandbox / PR #5 Add Notes Feature',
        `${HYPRO_LINK} opened [PR #5](${prUrl(5)}) from \`master\` to \`master\` (assigned reviewers: ${SHIMURA_LINK} and ${SOUGO_LINK}).`);
    });

    it('names the PR when the URL fixes the topic', () => {
      expect(contentOf(send(event('pr:opened', PR5), custom)))
        .toBe(`${HYPRO_LINK} opened [PR #5 Add Notes Feature](${prUrl(5)}) from \`master\` to \`master\` (assigned reviewers: ${SHIMURA_LINK} and ${SOUGO_LINK}).`);
    });

    it('names several reviewers and quotes the description', () => {
      expectMessage(send(event('pr:opened', PR6)), PR6_TOPIC,
        `${HYPRO_LINK} opened [PR #6](${prUrl(6)}) from \`master\` to \`master\` (assigned reviewers: ${SOUGO_LINK}, ${ZURA_LINK} and ${SHIMURA_LINK}):\n\n~~~ quote\nAdd a simple text file for further testing purposes.\n~~~`);
    });
  });

  describe('pr:modified', () => {
    const expected = (link: string) => `${HYPRO_LINK} modified ${link} (assigned reviewers: ${SHIMURA_LINK}):\n\n~~~ quote\n${BRANCH1_DESCRIPTION}\n~~~`;

    it('names the reviewers and quotes the description', () => {
      expectMessage(send(event('pr:modified', PR1)), 'sandbox / PR #1 Branch1', expected(`[PR #1](${prUrl(1)})`), 'pr:modified');
    });

    it('names the PR when the URL fixes the topic', () => {
      expect(contentOf(send(event('pr:modified', PR1), custom))).toBe(expected(`[PR #1 Branch1](${prUrl(1)})`));
    });
  });

  describe('pr:deleted', () => {
    it('says the PR was deleted', () => {
      expectMessage(send(event('pr:deleted', PR2)), 'sandbox / PR #2 Add notes feature.', `${HYPRO_LINK} deleted [PR #2](${prUrl(2)}).`, 'pr:deleted');
    });

    it('keeps the title\'s own final punctuation when the URL fixes the topic', () => {
      expect(contentOf(send(event('pr:deleted', PR2), custom))).toBe(`${HYPRO_LINK} deleted [PR #2 Add notes feature.](${prUrl(2)})`);
    });
  });

  describe('pr:declined', () => {
    it('says the PR was declined', () => {
      const payload = { ...event('pr:declined', pullRequest(7, 'Crazy Idea')), actor: ZURA };
      expectMessage(send(payload), 'sandbox / PR #7 Crazy Idea', `${ZURA_LINK} declined [PR #7](${prUrl(7)}).`, 'pr:declined');
    });
  });

  describe('pr:merged', () => {
    it('says which branch was merged into which', () => {
      expectMessage(send(byZura('pr:merged')), PR6_TOPIC, `${ZURA_LINK} merged [PR #6](${prUrl(6)}) from \`master\` to \`master\`.`, 'pr:merged');
    });
  });

  describe('pr:reviewer:approved', () => {
    it('says the PR was approved', () => {
      expectMessage(send(byZura('pr:reviewer:approved')), PR6_TOPIC, `${ZURA_LINK} approved [PR #6](${prUrl(6)}).`, 'pr:reviewer:approved');
    });
  });

  describe('pr:reviewer:unapproved', () => {
    it('says the approval was taken back', () => {
      expectMessage(send(byZura('pr:reviewer:unapproved')), PR6_TOPIC, `${ZURA_LINK} unapproved [PR #6](${prUrl(6)}).`, 'pr:reviewer:unapproved');
    });
  });

  describe('pr:reviewer:needs_work', () => {
    it('says the PR needs work', () => {
      expectMessage(send(byZura('pr:reviewer:needs_work')), PR6_TOPIC, `${ZURA_LINK} marked [PR #6](${prUrl(6)}) as "needs work".`, 'pr:reviewer:needs_work');
    });

    it('names the PR when the URL fixes the topic', () => {
      expect(contentOf(send(byZura('pr:reviewer:needs_work'), custom))).toBe(`${ZURA_LINK} marked [PR #6 sample_file: Add sample_file.txt.](${prUrl(6)}) as "needs work".`);
    });
  });

  describe('pr:reviewer:updated', () => {
    const reviewers = (...users: Json[]) => event('pr:reviewer:updated', { ...PR1, reviewers: users.map(reviewer) }, { addedReviewers: users, removedReviewers: [] });

    it('names the new reviewer', () => {
      expectMessage(send(reviewers(SHIMURA)), 'sandbox / PR #1 Branch1', `${HYPRO_LINK} reassigned [PR #1](${prUrl(1)}) to ${SHIMURA_LINK}.`, 'pr:reviewer:updated');
    });

    it('names the PR when the URL fixes the topic', () => {
      expect(contentOf(send(reviewers(SHIMURA), custom))).toBe(`${HYPRO_LINK} reassigned [PR #1 Branch1](${prUrl(1)}) to ${SHIMURA_LINK}.`);
    });

    it('names two reviewers', () => {
      expectMessage(send(reviewers(SHIMURA, SOUGO)), 'sandbox / PR #1 Branch1', `${HYPRO_LINK} reassigned [PR #1](${prUrl(1)}) to ${SHIMURA_LINK} and ${SOUGO_LINK}.`);
    });

    it('says all reviewers were removed', () => {
      expectMessage(send(reviewers()), 'sandbox / PR #1 Branch1', `${HYPRO_LINK} removed all reviewers from [PR #1](${prUrl(1)}).`);
      expect(contentOf(send(reviewers(), custom))).toBe(`${HYPRO_LINK} removed all reviewers from [PR #1 Branch1](${prUrl(1)}).`);
    });

    it('keeps the title\'s own final punctuation when all reviewers were removed', () => {
      const payload = event('pr:reviewer:updated', PR2, { addedReviewers: [], removedReviewers: [SHIMURA] });
      expect(contentOf(send(payload, custom))).toBe(`${HYPRO_LINK} removed all reviewers from [PR #2 Add notes feature.](${prUrl(2)})`);
    });
  });

  describe('pr:comment', () => {
    const ADDED = 'This seems like a pretty good idea.';
    const EDITED = 'This seems like a pretty good idea. @shimura what do you think?';
    const comment = (eventKey: string, text: string) => byZura(eventKey, { comment: { id: 10, text, author: ZURA } });

    it('pr:comment:added quotes the comment', () => {
      expectMessage(send(comment('pr:comment:added', ADDED)), PR6_TOPIC, `${ZURA_LINK} commented on [PR #6](${prUrl(6)}):\n\n~~~ quote\n${ADDED}\n~~~`, 'pr:comment:added');
    });

    it('pr:comment:edited quotes the comment as it is now', () => {
      expectMessage(send(comment('pr:comment:edited', EDITED)), PR6_TOPIC, `${ZURA_LINK} edited their comment on [PR #6](${prUrl(6)}):\n\n~~~ quote\n${EDITED}\n~~~`, 'pr:comment:edited');
    });

    it('pr:comment:deleted strikes the comment through', () => {
      expectMessage(send(comment('pr:comment:deleted', EDITED)), PR6_TOPIC, `${ZURA_LINK} deleted their comment on [PR #6](${prUrl(6)}):\n\n~~~ quote\n~~${EDITED}~~\n~~~`, 'pr:comment:deleted');
    });

    it('names the PR when the URL fixes the topic, and then ends on its title as Zulip does (no colon)', () => {
      expect(contentOf(send(comment('pr:comment:added', ADDED), custom))).toBe(`${ZURA_LINK} commented on [PR #6 sample_file: Add sample_file.txt.](${prUrl(6)})\n\n~~~ quote\n${ADDED}\n~~~`);
      const plain = byZura('pr:comment:added', { pullRequest: { ...PR6, title: 'sample file' }, comment: { id: 10, text: ADDED } });
      expect(contentOf(send(plain, custom))).toBe(`${ZURA_LINK} commented on [PR #6 sample file](${prUrl(6)}):\n\n~~~ quote\n${ADDED}\n~~~`);
    });
  });
});

describe('requests Zulip refuses', () => {
  const forked = { eventKey: 'repo:forked', actor: HYPRO, repository: FORK };

  it('is registered, with Zulip\'s event types and the branches option', () => {
    expect(integrationNamed('bitbucket3')).toBe(bitbucket3);
    expect(bitbucket3.displayName).toBe('Bitbucket3');
    expect(bitbucket3.eventTypes).toHaveLength(19);
    expect(bitbucket3.eventTypes).toContain('diagnostics:ping');
    expect(bitbucket3.eventTypes).toContain('pr:reviewer:needs_work');
    expect(bitbucket3.configOptions?.map((o) => o.key)).toEqual(['branches']);
  });

  it('refuses an event Zulip has no message for, with 200', () => {
    expectError(() => send({ ...forked, eventKey: 'mirror:repo_synchronized' }), UnsupportedWebhookEventTypeError, unsupported('mirror:repo_synchronized'));
    expectError(() => send({ ...forked, eventKey: 'constructor' }), UnsupportedWebhookEventTypeError, unsupported('constructor'));
    expectError(() => send({ test: true }, {}, { 'X-Event-Key': 'toString' }), UnsupportedWebhookEventTypeError, unsupported('toString'));
  });

  it('reads the event from the payload before the header', () => {
    expect(send(forked, {}, { 'X-Event-Key': 'diagnostics:ping' }).eventType).toBe('repo:forked');
  });

  it('refuses a request whose payload does not name the event, without the event header', () => {
    expectError(() => send({ test: true }), MissingHttpEventHeaderError, "Missing the HTTP event header 'X-Event-Key'");
  });

  it('refuses a body that is not JSON', () => {
    expectError(() => send('not json'), InvalidJsonError, 'Malformed JSON');
  });

  it('refuses payloads of the wrong shape with 400', () => {
    expectError(() => send({ ...forked, eventKey: 5 }), BadRequestError, 'payload["eventKey"] is not a string');
    expectError(() => send({ ...forked, repository: { ...FORK, origin: undefined } }), BadRequestError, 'payload["repository"]["origin"] is missing');
    expectError(() => send({ ...forked, actor: { ...HYPRO, links: { self: [] } } }), BadRequestError, 'payload["actor"]["links"]["self"][0] is missing');
    expectError(() => send({ ...forked, actor: { ...HYPRO, links: { self: 'x' } } }), BadRequestError, 'payload["actor"]["links"]["self"] is not a list');
    expectError(() => send({ eventKey: 'repo:refs_changed', actor: HYPRO, repository: SANDBOX, changes: {} }), BadRequestError, 'payload["changes"] is not a list');
    expectError(() => send({ eventKey: 'pr:declined', actor: HYPRO, pullRequest: { id: '7', title: 'x', toRef: { repository: SANDBOX } } }), BadRequestError, 'payload["pullRequest"]["id"] is not an integer');
    expectError(() => send({ eventKey: 'pr:opened', actor: HYPRO, pullRequest: { id: 7, title: 'x', description: 3, toRef: { repository: SANDBOX } } }), BadRequestError, 'payload["pullRequest"]["description"] is not a string');
    expectError(() => send({ eventKey: 'pr:comment:added', actor: HYPRO, pullRequest: { id: 7, title: 'x', toRef: { repository: SANDBOX } } }), BadRequestError, 'payload["comment"] is missing');
    expectError(() => send([1]), MissingHttpEventHeaderError, "Missing the HTTP event header 'X-Event-Key'");
  });
});
