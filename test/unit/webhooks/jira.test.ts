// Jira's webhooks, against the messages Zulip's zerver/webhooks/jira/tests.py expects. The payloads are
// trimmed to what the integration reads, in the shapes Jira Server (v1) and Jira Cloud (v2) send.
import { describe, expect, it } from 'vitest';
import {
  AnomalousWebhookPayloadError, BadRequestError, InvalidJsonError, UnsupportedWebhookEventTypeError,
} from '../../../resolvers/errors.ts';
import { integrationNamed } from '../../../resolvers/webhooks/integrations/index.ts';
import { jira, jiraPeople, type JiraPeople, translateJira } from '../../../resolvers/webhooks/integrations/jira.ts';
import type { WebhookOutcome } from '../../../resolvers/webhooks/integration.ts';
import { IncomingWebhookRequest } from '../../../resolvers/webhooks/request.ts';
import { expectError, expectMessage, translateWith } from '../../support/webhooks.ts';

type Json = Record<string, unknown>;

/** Zulip's test realm, as far as its Jira tests meet it: Othello has an account, Leo does not. */
const ZULIP_REALM: JiraPeople = {
  fullNameByDeliveryEmail: (email) => (email.trim().toLowerCase() === 'othello@zulip.com' ? 'Othello, the Moor of Venice' : null),
  guessFromJiraName: (name) => (name.toLowerCase() === 'othello' ? 'Othello, the Moor of Venice' : null),
};

function send(payload: unknown): WebhookOutcome {
  return translateWith(jira, { body: payload });
}

function sendInZulipRealm(payload: unknown): WebhookOutcome {
  return translateJira(new IncomingWebhookRequest({ body: JSON.stringify(payload) }), ZULIP_REALM);
}

const unsupported = (event: string) => `The '${event}' event isn't currently supported by the Jira webhook; ignoring`;

const person = (displayName: string, emailAddress?: string) => ({ name: displayName.split(' ')[0]!.toLowerCase(), emailAddress, displayName });

const LEO = person('Leo Franchi', 'othello@zulip.com');
const LEO_ADMIN = person('Leonardo Franchi [Administrator]', 'leo@zulip.com');
const OTHELLO = person('Othello, the Moor of Venice', 'othello@zulip.com');

/** An issue of Leo's Jira Server, as its payloads carry it. */
function bug15(fields: Json = {}) {
  return {
    id: '10400',
    self: 'http://lfranchi.com:8080/rest/api/2/issue/10400',
    key: 'BUG-15',
    fields: { summary: 'New bug with hook', priority: { name: 'Major', id: '3' }, ...fields },
  };
}

function test1(fields: Json = {}) {
  return {
    id: '10200',
    self: 'https://zulipp.atlassian.net/rest/api/2/issue/10200',
    key: 'TEST-1',
    fields: { summary: 'Fix That', priority: { name: 'Major', id: '3' }, ...fields },
  };
}

const BUG_15 = '[BUG-15: New bug with hook](http://lfranchi.com:8080/browse/BUG-15)';
const BUG_15_TOPIC = 'BUG-15: New bug with hook';
const TEST_1 = '[TEST-1: Fix That](https://zulipp.atlassian.net/browse/TEST-1)';

describe('the registry', () => {
  it('offers Jira by its URL name, with Zulip\'s event types', () => {
    expect(integrationNamed('jira')).toBe(jira);
    expect(jira.displayName).toBe('Jira');
    expect(jira.eventTypes).toEqual([
      'jira:issue_created', 'jira:issue_deleted', 'jira:issue_updated', 'comment_created', 'comment_updated', 'comment_deleted',
    ]);
  });
});

describe('jira:issue_created', () => {
  const created = 'Leo Franchi created [BUG-15: New bug with hook](http://lfranchi.com:8080/browse/BUG-15):\n\n* **Priority**: Major\n* **Assignee**: no one';

  it('created_v2: an unassigned issue (Jira Cloud sends a null assignee)', () => {
    const outcome = send({ webhookEvent: 'jira:issue_created', issue_event_type_name: 'issue_created', user: LEO, issue: bug15({ assignee: null }) });
    expectMessage(outcome, BUG_15_TOPIC, created, 'jira:issue_created');
  });

  it('created_v1: an unassigned issue (Jira Server leaves the assignee out)', () => {
    expectMessage(send({ webhookEvent: 'jira:issue_created', timestamp: 1364403534014, user: LEO, issue: bug15() }), BUG_15_TOPIC, created);
  });

  it('created_with_unicode', () => {
    const outcome = send({ webhookEvent: 'jira:issue_created', user: person('Leo Franchià'), issue: bug15({ summary: 'New bug with à hook' }) });
    expectMessage(outcome, 'BUG-15: New bug with à hook',
      'Leo Franchià created [BUG-15: New bug with à hook](http://lfranchi.com:8080/browse/BUG-15):\n\n* **Priority**: Major\n* **Assignee**: no one');
  });

  it('created_assignee: names the assignee as Jira does', () => {
    const issue = {
      self: 'https://zulipp.atlassian.net/rest/api/2/issue/10003', key: 'TEST-4',
      fields: { summary: 'Test Created Assignee', priority: { name: 'Major' }, assignee: LEO_ADMIN },
    };
    expectMessage(send({ webhookEvent: 'jira:issue_created', user: LEO_ADMIN, issue }), 'TEST-4: Test Created Assignee', [
      'Leonardo Franchi [Administrator] created [TEST-4: Test Created Assignee](https://zulipp.atlassian.net/browse/TEST-4):',
      '',
      '* **Priority**: Major',
      '* **Assignee**: Leonardo Franchi [Administrator]',
    ].join('\n'));
  });

  it('names the issue without a link when its URL is not a REST URL, and an absent priority as nothing', () => {
    const issue = { self: 'https://jira.example.com/issues/7', key: 'OPS-7', fields: { summary: 'Disk full' } };
    expectMessage(send({ webhookEvent: 'jira:issue_created', user: LEO, issue }), 'OPS-7: Disk full',
      'Leo Franchi created OPS-7: Disk full:\n\n* **Priority**: \n* **Assignee**: no one');
  });

  it('long titles make topics cut as Zulip cuts them', () => {
    const outcome = send({ webhookEvent: 'jira:issue_created', user: LEO, issue: bug15({ summary: 'A very long summary that goes on and on beyond sixty characters' }) });
    expect(outcome.messages[0]!.topic).toBe('BUG-15: A very long summary that goes on and on beyond sixty characters');
    expectMessage(outcome, 'BUG-15: A very long summary that goes on and on beyond si...', outcome.messages[0]!.content);
  });
});

describe('jira:issue_deleted', () => {
  it('deleted_v1 and deleted_v2: the sentence gets a full stop', () => {
    const expected = `Leo Franchi deleted ${BUG_15}.`;
    expectMessage(send({ webhookEvent: 'jira:issue_deleted', user: LEO, issue: bug15() }), BUG_15_TOPIC, expected, 'jira:issue_deleted');
    expectMessage(send({ webhookEvent: 'jira:issue_deleted', issue_event_type_name: 'issue_deleted', user: LEO, issue: bug15({ assignee: null }) }), BUG_15_TOPIC, expected);
  });

  it('a title ending in punctuation gets none', () => {
    expectMessage(send({ webhookEvent: 'jira:issue_deleted', user: LEO, issue: bug15({ summary: 'Why does it crash?' }) }),
      'BUG-15: Why does it crash?', 'Leo Franchi deleted [BUG-15: Why does it crash?](http://lfranchi.com:8080/browse/BUG-15)');
  });

  it('an empty title (a server error in Zulip) still makes a sentence', () => {
    expectMessage(send({ webhookEvent: 'jira:issue_deleted', user: LEO, issue: bug15({ summary: '' }) }),
      'BUG-15: ', 'Leo Franchi deleted [BUG-15: ](http://lfranchi.com:8080/browse/BUG-15).');
  });
});

describe('jira:issue_updated: comments', () => {
  const comment = (body: string, author = LEO) => ({ self: 'http://lfranchi.com:8080/rest/api/2/issue/10400/comment/10400', id: '10400', author, body });
  const commented = `Leo Franchi commented on ${BUG_15} (assigned to **Othello, the Moor of Venice**):\n\n\`\`\` quote\nAdding a comment. Oh, what a comment it is!\n\`\`\``;

  it('commented_v2: Jira Cloud names the update; the assignee is named by their Zulip account', () => {
    const payload = {
      webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_commented', user: LEO,
      issue: bug15({ assignee: OTHELLO }), comment: comment('Adding a comment. Oh, what a comment it is!'),
    };
    expectMessage(sendInZulipRealm(payload), BUG_15_TOPIC, commented, 'jira:issue_updated');
  });

  it('commented_v1: older Jira versions only send the comment', () => {
    const payload = { webhookEvent: 'jira:issue_updated', user: LEO, issue: bug15({ assignee: OTHELLO }), comment: comment('Adding a comment. Oh, what a comment it is!') };
    expectMessage(sendInZulipRealm(payload), BUG_15_TOPIC, commented);
  });

  it('an assignee without a Zulip account is named by their email', () => {
    const payload = { webhookEvent: 'jira:issue_updated', user: LEO, issue: bug15({ assignee: OTHELLO }), comment: comment('Adding a comment. Oh, what a comment it is!') };
    expectMessage(send(payload), BUG_15_TOPIC, commented.replace('**Othello, the Moor of Venice**', '**othello@zulip.com**'));
  });

  it('commented_v2_with_two_full_links', () => {
    const payload = {
      webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_commented', user: LEO, issue: bug15({ assignee: OTHELLO }),
      comment: comment('This is the [first link|https://google.com] and this is the [second link|https://google.com] and this is the end.'),
    };
    expectMessage(sendInZulipRealm(payload), BUG_15_TOPIC, [
      `Leo Franchi commented on ${BUG_15} (assigned to **Othello, the Moor of Venice**):`,
      '',
      '``` quote',
      'This is the [first link](https://google.com) and this is the [second link](https://google.com) and this is the end.',
      '```',
    ].join('\n'));
  });

  it('comment_edited_v2', () => {
    const payload = {
      webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_comment_edited', user: LEO,
      issue: bug15({ assignee: OTHELLO }), comment: comment('Adding a comment. Oh, what a comment it is!'),
    };
    expectMessage(sendInZulipRealm(payload), BUG_15_TOPIC, commented.replace('commented on', 'edited a comment on'));
  });

  it('comment_deleted_v2: no comment left to quote', () => {
    const payload = {
      webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_comment_deleted', user: person('Tomasz Kolek', 'kolaszek@go2.pl'),
      issue: {
        self: 'https://zuliptomek.atlassian.net/rest/api/2/issue/10000', key: 'TOM-1',
        fields: { summary: 'New Issue', assignee: person('Tomasz Kolek', 'kolaszek@go2.pl') },
      },
    };
    expectMessage(sendInZulipRealm(payload), 'TOM-1: New Issue',
      'Tomasz Kolek deleted a comment from [TOM-1: New Issue](https://zuliptomek.atlassian.net/browse/TOM-1) (assigned to **kolaszek@go2.pl**).');
  });

  it('commented_markup_v1: Jira\'s wiki markup becomes Markdown', () => {
    const body = 'This is a comment that likes to *exercise* a lot of _different_ {{conventions}} that {{jira uses}}.\r\n\r\n'
      + '{noformat}\r\nthis code is not highlighted, but monospaced\r\n{noformat}\r\n\r\n'
      + '{code:python}\r\ndef python():\r\n    print "likes to be formatted"\r\n{code}\r\n\r\n'
      + '[http://www.google.com] is a bare link, and [Google|http://www.google.com] is given a title.\r\n\r\n'
      + 'Thanks!\r\n\r\n{quote}\r\nSomeone said somewhere\r\n{quote}';
    const payload = {
      webhookEvent: 'jira:issue_updated', user: LEO_ADMIN,
      issue: { self: 'https://zulipp.atlassian.net/rest/api/2/issue/10100', key: 'TEST-7', fields: { summary: 'Testing of rich text', assignee: null } },
      comment: comment(body, LEO_ADMIN),
    };
    expectMessage(sendInZulipRealm(payload), 'TEST-7: Testing of rich text',
      'Leonardo Franchi [Administrator] commented on [TEST-7: Testing of rich text](https://zulipp.atlassian.net/browse/TEST-7):\n\n``` quote\n'
      + 'This is a comment that likes to **exercise** a lot of _different_ `conventions` that `jira uses`.\r\n\r\n'
      + '~~~\n\r\nthis code is not highlighted, but monospaced\r\n\n~~~\r\n\r\n'
      + '~~~\n\r\ndef python():\r\n    print "likes to be formatted"\r\n\n~~~\r\n\r\n'
      + '[http://www.google.com](http://www.google.com) is a bare link, and [Google](http://www.google.com) is given a title.\r\n\r\n'
      + 'Thanks!\r\n\r\n~~~ quote\n\r\nSomeone said somewhere\r\n\n~~~\n```');
  });

  it('bq. lines and [~user] mentions: the realm\'s user when Zulip guesses one, else the Jira name', () => {
    const payload = {
      webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_commented', user: LEO, issue: bug15(),
      comment: comment('bq. Ship it\n[~othello], [~iago] and [~othello] again'),
    };
    const quoted = (text: string) => `Leo Franchi commented on ${BUG_15}:\n\n\`\`\` quote\n${text}\n\`\`\``;
    expectMessage(sendInZulipRealm(payload), BUG_15_TOPIC, quoted('> Ship it\n**Othello, the Moor of Venice**, **iago** and **Othello, the Moor of Venice** again'));
    expectMessage(send(payload), BUG_15_TOPIC, quoted('> Ship it\n**othello**, **iago** and **othello** again'));
  });

  it('without the issue (an old Jira\'s comment), the topic takes the comment URL\'s issue number', () => {
    const payload = { webhookEvent: 'jira:issue_updated', user: LEO, comment: comment('Hi') };
    expectMessage(send(payload), '10400: Upgrade Jira to get the issue title here.',
      'Leo Franchi commented on : Upgrade Jira to get the issue title here.:\n\n``` quote\nHi\n```');
  });
});

describe('jira:issue_updated: changes', () => {
  it('reassigned_v1 and reassigned_v2: the new assignee by their Zulip name', () => {
    const changelog = { id: '10100', items: [{ field: 'assignee', fieldtype: 'jira', from: null, fromString: null, to: 'othello', toString: 'Othello, the Moor of Venice' }] };
    const expected = `Leo Franchi updated ${BUG_15} (assigned to **Othello, the Moor of Venice**):\n\n* Changed assignee to **Othello, the Moor of Venice**`;
    expectMessage(sendInZulipRealm({ webhookEvent: 'jira:issue_updated', user: LEO, issue: bug15({ assignee: OTHELLO }), changelog }), BUG_15_TOPIC, expected);
    expectMessage(sendInZulipRealm({
      webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_assigned', user: LEO, issue: bug15({ assignee: OTHELLO }), changelog,
    }), BUG_15_TOPIC, expected, 'jira:issue_updated');
  });

  it('updated_priority_v1 and v2', () => {
    const changelog = { items: [{ field: 'priority', fieldtype: 'jira', from: '2', fromString: 'Critical', to: '3', toString: 'Major' }] };
    const expected = `Leonardo Franchi [Administrator] updated ${TEST_1} (assigned to **leo@zulip.com**):\n\n* Changed priority from **Critical** to **Major**`;
    expectMessage(sendInZulipRealm({ webhookEvent: 'jira:issue_updated', user: LEO_ADMIN, issue: test1({ assignee: LEO_ADMIN }), changelog }), 'TEST-1: Fix That', expected);
    expectMessage(sendInZulipRealm({
      webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_updated', user: LEO_ADMIN, issue: test1({ assignee: LEO_ADMIN }), changelog,
    }), 'TEST-1: Fix That', expected);
  });

  const statusChanged = `Leonardo Franchi [Administrator] updated ${TEST_1}:\n\n* Changed status from **To Do** to **In Progress**`;

  it('change_status_v2: from the change log', () => {
    const payload = {
      webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_generic', user: LEO_ADMIN, issue: test1({ assignee: null }),
      changelog: { id: '10000', items: [{ field: 'status', fieldtype: 'jira', from: '10000', fromString: 'To Do', to: '3', toString: 'In Progress' }] },
    };
    expectMessage(send(payload), 'TEST-1: Fix That', statusChanged, 'jira:issue_updated');
  });

  it('change_status_v1: a transition without webhookEvent is an update', () => {
    const payload = {
      transition: { workflowId: 10200, transitionId: 3, transitionName: 'Reopen Issue', from_status: 'To Do', to_status: 'In Progress' },
      comment: '', user: LEO_ADMIN, issue: test1(), timestamp: 1369321658777,
    };
    expectMessage(send(payload), 'TEST-1: Fix That', statusChanged, 'jira:issue_updated');
  });

  it('several changes, a missing value printed as Python prints it', () => {
    const payload = {
      webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_generic', user: LEO_ADMIN, issue: test1(),
      changelog: {
        items: [
          { field: 'resolution', fromString: 'Fixed', toString: null },
          { field: null, toString: 'Done' },
          { field: 'assignee', fromString: 'Leo', toString: 'Iago' },
        ],
      },
    };
    expectMessage(send(payload), 'TEST-1: Fix That', [
      `Leonardo Franchi [Administrator] updated ${TEST_1}:`,
      '',
      '* Changed resolution from **Fixed** to **None**',
      '* Changed None to **Done**',
      '* Changed assignee from **Leo** to **Iago**',
    ].join('\n'));
  });

  it('an update Zulip finds nothing to say about still names the issue', () => {
    expectMessage(send({ webhookEvent: 'jira:issue_updated', issue_event_type_name: 'issue_generic', user: LEO_ADMIN, issue: test1(), changelog: {} }),
      'TEST-1: Fix That', `Leonardo Franchi [Administrator] updated ${TEST_1}:`);
  });
});

describe('comment_created, comment_updated, comment_deleted', () => {
  const HEMANTH = { accountId: '5c76b994e1bcdf6294d0eb0f', displayName: 'Hemanth V. Alluri' };
  const SP_1 = { self: 'https://f20171170.atlassian.net/rest/api/2/issue/10000', key: 'SP-1', fields: { summary: 'Add support for newer format Jira issue comment events' } };
  const SP_1_TOPIC = 'SP-1: Add support for newer format Jira issue comment events';
  const SP_1_LINK = `[${SP_1_TOPIC}](https://f20171170.atlassian.net/browse/SP-1)`;
  const comment = (body: string) => ({ self: 'https://f20171170.atlassian.net/rest/api/2/issue/10000/comment/12000', id: '12000', author: HEMANTH, body });

  it('comment_created: the body as Jira wrote it, but for the backslash before `!`', () => {
    const payload = { webhookEvent: 'comment_created', comment: comment('Sounds like it’s pretty important. I’ll get this fixed ASAP\\!'), issue: SP_1 };
    expectMessage(send(payload), SP_1_TOPIC,
      `Hemanth V. Alluri commented on ${SP_1_LINK}\n\`\`\` quote\nSounds like it’s pretty important. I’ll get this fixed ASAP!\n\`\`\``, 'comment_created');
  });

  it('comment_created_no_issue_details: an old Jira names the issue by the comment URL\'s number', () => {
    const payload = { webhookEvent: 'comment_created', comment: comment('Sounds like it’s pretty important. I’ll get this fixed ASAP!') };
    expectMessage(send(payload), '10000: Upgrade Jira to get the issue title here.',
      'Hemanth V. Alluri commented on 10000: Upgrade Jira to get the issue title here.\n``` quote\nSounds like it’s pretty important. I’ll get this fixed ASAP!\n```');
  });

  it('comment_updated', () => {
    const payload = { webhookEvent: 'comment_updated', comment: comment('This is a very important issue! I’m on it!'), issue: SP_1 };
    expectMessage(send(payload), SP_1_TOPIC,
      `Hemanth V. Alluri updated their comment on ${SP_1_LINK}\n\`\`\` quote\nThis is a very important issue! I’m on it!\n\`\`\``, 'comment_updated');
  });

  it('comment_deleted: the comment struck through', () => {
    const payload = { webhookEvent: 'comment_deleted', comment: comment('This is a very important issue! I’m on it!'), issue: SP_1 };
    expectMessage(send(payload), SP_1_TOPIC,
      `Hemanth V. Alluri deleted their comment on ${SP_1_LINK}\n\`\`\` quote\n~~This is a very important issue! I’m on it!~~\n\`\`\``, 'comment_deleted');
  });

  it('leaves Jira\'s markup alone, as Zulip does for these events', () => {
    const payload = { webhookEvent: 'comment_created', comment: comment('*bold* and [~othello]'), issue: SP_1 };
    expectMessage(sendInZulipRealm(payload), SP_1_TOPIC, `Hemanth V. Alluri commented on ${SP_1_LINK}\n\`\`\` quote\n*bold* and [~othello]\n\`\`\``);
  });
});

describe('ignored events', () => {
  it.each([
    'attachment_created', 'issuelink_created', 'issuelink_deleted', 'jira:version_released', 'jira:worklog_updated',
    'sprint_closed', 'sprint_started', 'worklog_created', 'worklog_updated',
  ])('%s: accepted, and nothing said', (event) => {
    expect(send({ webhookEvent: event })).toEqual({ messages: [] });
  });
});

describe('refusals', () => {
  it('an event Zulip has no message for', () => {
    expectError(() => send({ webhookEvent: 'jira:issue_unknown', issue_event_type_name: 'issue_unknown', user: LEO, issue: bug15() }),
      UnsupportedWebhookEventTypeError, unsupported('jira:issue_unknown'));
    expectError(() => send({ webhookEvent: 'worklog_deleted' }), UnsupportedWebhookEventTypeError, unsupported('worklog_deleted'));
  });

  it('event names that are also JavaScript object members', () => {
    for (const event of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expectError(() => send({ webhookEvent: event }), UnsupportedWebhookEventTypeError, unsupported(event));
    }
  });

  it('example_anomalous_payload: no event and no transition', () => {
    const error = expectError(() => send({ timestamp: 1364403534014, user: LEO, transition: {} }), AnomalousWebhookPayloadError,
      'Unable to parse request: Did Jira generate this event?');
    expect(error.httpStatus).toBe(400);
    expect(error.code).toBe('ANOMALOUS_WEBHOOK_PAYLOAD');
    expectError(() => send({ webhookEvent: null }), AnomalousWebhookPayloadError, 'Unable to parse request: Did Jira generate this event?');
  });

  it('a body that is not JSON', () => {
    expectError(() => send('webhookEvent=jira:issue_created'), InvalidJsonError, 'Malformed JSON');
  });

  it('payloads of the wrong shape', () => {
    const bad = (payload: unknown, message: string) => expectError(() => send(payload), BadRequestError, message);
    bad([{ webhookEvent: 'jira:issue_created' }], 'payload is not a dict');
    bad({ webhookEvent: 7 }, 'payload["webhookEvent"] is not a string');
    bad({ webhookEvent: 'jira:issue_created', user: LEO, issue: bug15({ summary: 15 }) }, 'payload["issue"]["fields"]["summary"] is not a string');
    bad({ webhookEvent: 'jira:issue_created', user: { displayName: null }, issue: bug15() }, 'payload["user"]["displayName"] is not a string');
    bad({ webhookEvent: 'jira:issue_updated', issue_event_type_name: null, user: LEO, issue: bug15() }, 'payload["issue_event_type_name"] is not a string');
    bad({ webhookEvent: 'jira:issue_updated', user: LEO, issue: bug15({ assignee: { emailAddress: 5 } }) }, 'payload["issue"]["fields"]["assignee"]["emailAddress"] is not a string');
    bad({ webhookEvent: 'jira:issue_updated', user: LEO, issue: bug15(), changelog: { items: 'status' } }, 'payload["changelog"]["items"] is not a list');
    bad({ webhookEvent: 'jira:issue_updated', user: LEO, issue: bug15(), changelog: { items: [['status']] } }, 'payload["changelog"]["items"][0] is not a dict');
    bad({ webhookEvent: 'jira:issue_updated', user: LEO, issue: bug15(), changelog: { items: [{ field: 'status', toString: 3 }] } }, 'payload["changelog"]["items"][0]["toString"] is not a string');
    bad({ webhookEvent: 'jira:issue_updated', user: LEO, issue: bug15(), comment: { body: ['hi'] } }, 'payload["comment"]["body"] is not a string');
    bad({ webhookEvent: 'comment_created', issue: bug15(), comment: { body: 'hi' } }, 'payload["comment"]["author"] is missing');
    bad({ webhookEvent: 'comment_created', issue: bug15(), comment: { author: LEO } }, 'payload["comment"]["body"] is missing');
    bad({ webhookEvent: 'comment_created', comment: { author: LEO, body: 'hi' } }, 'payload["comment"]["self"] is missing');
    bad({ webhookEvent: 'comment_created', comment: { self: 'comment/1', author: LEO, body: 'hi' } }, 'payload["comment"]["self"] is not a comment\'s URL');
    bad({ webhookEvent: 'jira:issue_deleted', user: LEO, comment: 'gone' }, 'payload["comment"] is not a dict');
  });

  it('reads no header: Jira names the event in the payload', () => {
    const outcome = translateWith(jira, { body: { webhookEvent: 'jira:issue_deleted', user: LEO, issue: bug15() }, headers: { 'X-Event-Key': 'repo:push' } });
    expectMessage(outcome, BUG_15_TOPIC, `Leo Franchi deleted ${BUG_15}.`);
  });

  it('parts of the issue that are not objects read as absent, as Zulip\'s get_in does', () => {
    expectMessage(send({ webhookEvent: 'jira:issue_created', user: 'Leo', issue: { key: 'BUG-15', fields: [], self: 'http://lfranchi.com:8080/rest/api/2/issue/10400' } }),
      'BUG-15: ', ' created [BUG-15: ](http://lfranchi.com:8080/browse/BUG-15):\n\n* **Priority**: \n* **Assignee**: no one');
  });
});

describe("naming people from the organization's users (jiraPeople)", () => {
  const users = [
    { id: 1, fullName: 'Iago', email: 'user1@example.com', deliveryEmail: 'iago@example.com', isActive: false },
    { id: 2, fullName: 'Othello, the Moor of Venice', email: 'othello@example.com', deliveryEmail: 'Othello@Example.com', isActive: true },
    { id: 3, fullName: 'Othello', email: 'user3@example.com', deliveryEmail: 'o3@example.com', isActive: true },
  ];
  const people = jiraPeople(users);

  it('finds an assignee by delivery email, whatever its case and surrounding spaces, deactivated users too', () => {
    expect(people.fullNameByDeliveryEmail(' othello@example.COM ')).toBe('Othello, the Moor of Venice');
    expect(people.fullNameByDeliveryEmail('iago@example.com')).toBe('Iago');
    expect(people.fullNameByDeliveryEmail('nobody@example.com')).toBeNull();
  });

  it('guesses a mentioned Jira user: the first active user whose name is it or whose email starts with it', () => {
    // User 2's email starts with "othello" and comes before user 3, whose full name is "Othello".
    expect(people.guessFromJiraName('OTHELLO')).toBe('Othello, the Moor of Venice');
    expect(people.guessFromJiraName('user3')).toBe('Othello');
    // Deactivated users are not guessed.
    expect(people.guessFromJiraName('iago')).toBeNull();
  });
});
