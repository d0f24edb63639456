// Missed-message e-mails (Zulip's missedmessage_emails): recipients who are away when a message
// that concerns them arrives are e-mailed once their batching period ends, if they still have it
// unread. Messages are sent through the API; e-mail goes to a real SMTP sink started here; the
// worker runs when a test says the batching period is over (`mailDue`).
import { beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { makeBot, makeChannel, makeUser, sendDirect, sendToChannel, updateRealm, updateSettings, type MadeUser } from '../support/factories.ts';
import { mailConfig, useSmtpSink, withoutAccountDetails } from '../support/smtp.ts';
import { registerQueue } from '../support/events.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';
import type { Credentials } from '../support/client.ts';

const smtp = useSmtpSink();
const t = useTestServer(() => ({ ...mailConfig(smtp), missedMessageEmailPollMs: 0 }));
const { alice } = useTeam(t, ['alice']);
/** The organization's URL, which e-mails link to. */
let realmUrl: string;
beforeAll(async () => {
  realmUrl = (await t.client().get('/server_settings')).body.realm_url;
});

/** Zulip's default email_notifications_batching_period_seconds. */
const BATCHING_PERIOD_MS = 120_000;

/** Runs the worker as if `afterMs` had passed since now (default: just past the default batching period). */
function mailDue(afterMs = BATCHING_PERIOD_MS + 1_000): Promise<number> {
  return t.server.missedMessageEmails!.sendDue(new Date(Date.now() + afterMs));
}

/** The missed-message e-mails to `user`. */
function mailsTo(user: MadeUser): ParsedMail[] {
  return withoutAccountDetails(smtp.to(user.email));
}

let counter = 0;
/** A user no test has e-mailed yet: away (no presence, no event queue) until a test says otherwise. */
function someone(fullName = 'Reader'): Promise<MadeUser> {
  counter += 1;
  return makeUser(t, { fullName: `${fullName} ${counter}` });
}

/** A new channel of `owner`'s with `members` subscribed, and a topic no test used. */
async function channelWith(owner: Credentials, members: MadeUser[]): Promise<{ name: string; id: number; topic: string }> {
  counter += 1;
  const name = `mail-${counter}`;
  const id = await makeChannel(t.client(owner), name);
  // Each joins by themselves: subscribed by someone else, they would get the notification bot's direct message (and its e-mail).
  for (const member of members) await makeChannel(t.client(member), name);
  return { name, id, topic: `topic ${counter}` };
}

async function setSubscription(who: Credentials, channelId: number, property: string, value: unknown): Promise<void> {
  const res = await t.client(who).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: channelId, property, value }] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Present: an event queue that takes messages, and activity just now. */
async function bePresent(who: Credentials): Promise<void> {
  await registerQueue(t.client(who), { event_types: ['message'] });
  const res = await t.client(who).post('/users/me/presence', { status: 'active' });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('direct messages', () => {
  it('reach a recipient who is away once the batching period is over, not before', async () => {
    const reader = await someone();
    const id = await sendDirect(t.client(alice), [reader.userId], 'Lunch at **noon**? See /user_uploads/1/ab/menu.pdf');
    expect(await mailDue(BATCHING_PERIOD_MS - 10_000)).toBe(0);
    expect(mailsTo(reader)).toEqual([]);
    expect(await mailDue()).toBeGreaterThanOrEqual(1);
    const [mail] = mailsTo(reader);
    expect(mail!.subject).toBe(`DMs with ${alice.fullName}`);
    expect(mail!.from!.value[0]).toEqual({ name: 'Parley notifications', address: 'noreply@parley.test' });
    expect(mail!.text).toContain(`> Lunch at **noon**? See ${realmUrl}/user_uploads/1/ab/menu.pdf`);
    expect(mail!.text).toContain(`${realmUrl}/#narrow/dm/${[alice.userId, reader.userId].sort((a, b) => a - b).join(',')}-dm/near/${id}`);
    expect(mail!.text).toContain(`${realmUrl}/#settings/notifications`);
    // Sent once: the batch is gone.
    await mailDue();
    expect(mailsTo(reader)).toHaveLength(1);
  });

  it('come in one e-mail per conversation: two messages of one sender together, another sender apart', async () => {
    const reader = await someone();
    const bob = await someone('Bob');
    await sendDirect(t.client(alice), [reader.userId], 'first');
    await sendDirect(t.client(alice), [reader.userId], 'second');
    await sendDirect(t.client(bob), [reader.userId], 'from bob');
    await mailDue();
    const mails = mailsTo(reader);
    expect(mails.map((m) => m.subject).sort()).toEqual([`DMs with ${alice.fullName}`, `DMs with ${bob.fullName}`].sort());
    const fromAlice = mails.find((m) => m.subject === `DMs with ${alice.fullName}`)!;
    expect(fromAlice.text).toMatch(/> first[\s\S]*> second/);
    expect(fromAlice.text).not.toContain('from bob');
  });

  it('group conversations name the others, and each message its sender', async () => {
    const reader = await someone();
    const bob = await someone('Bob');
    await sendDirect(t.client(alice), [reader.userId, bob.userId], 'hello both');
    await mailDue();
    const [mail] = mailsTo(reader);
    expect(mail!.subject).toBe(`Group DMs with ${alice.fullName} and ${bob.fullName}`);
    expect(mail!.text).toContain(`${alice.fullName}:\n> hello both`);
    expect(mail!.text).toContain('-group/near/');
  });

  it('not read before the period ends: a message read meanwhile is left out, and nothing is sent for a batch all read', async () => {
    const reader = await someone();
    const id = await sendDirect(t.client(alice), [reader.userId], 'read soon');
    const res = await t.client(reader).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    expect(res.status).toBe(200);
    await mailDue();
    expect(mailsTo(reader)).toEqual([]);
  });

  it('not for a message deleted meanwhile', async () => {
    const reader = await someone();
    const id = await sendDirect(t.client(alice), [reader.userId], 'oops');
    expect((await t.client(alice).delete(`/messages/${id}`)).status).toBe(200);
    await mailDue();
    expect(mailsTo(reader)).toEqual([]);
  });

  it('not to a recipient who is present (a queue and recent activity); to one active a moment ago but with no queue left', async () => {
    const present = await someone();
    const leftZulip = await someone();
    await bePresent(present);
    expect((await t.client(leftZulip).post('/users/me/presence', { status: 'active' })).status).toBe(200);
    await sendDirect(t.client(alice), [present.userId], 'you are here');
    await sendDirect(t.client(alice), [leftZulip.userId], 'you just left');
    await mailDue();
    expect(mailsTo(present)).toEqual([]);
    expect(mailsTo(leftZulip)).toHaveLength(1);
  });

  it('not with enable_offline_email_notifications off, nor when it is turned off before the batch is due', async () => {
    const off = await someone();
    const turnsOff = await someone();
    await updateSettings(t, off, { enable_offline_email_notifications: false });
    await sendDirect(t.client(alice), [off.userId], 'no mail');
    await sendDirect(t.client(alice), [turnsOff.userId], 'no mail either');
    await updateSettings(t, turnsOff, { enable_offline_email_notifications: false });
    await mailDue();
    expect(mailsTo(off)).toEqual([]);
    expect(mailsTo(turnsOff)).toEqual([]);
  });

  it('not from a sender the recipient muted, not to the sender, not to bots', async () => {
    const reader = await someone();
    const bot = await makeBot(t, alice, { fullName: 'Mail Bot' });
    expect((await t.client(reader).post(`/users/me/muted_users/${alice.userId}`)).status).toBe(200);
    await sendDirect(t.client(alice), [reader.userId, bot.userId], 'muted');
    await mailDue();
    expect(mailsTo(reader)).toEqual([]);
    expect(mailsTo(alice)).toEqual([]);
    expect(smtp.to(bot.email)).toEqual([]);
  });
});

describe('channel messages', () => {
  it('a personal mention: subject the channel and topic, the reason said, earlier messages of the topic as context', async () => {
    const reader = await someone();
    const channel = await channelWith(alice, [reader]);
    await sendToChannel(t.client(alice), channel.name, channel.topic, 'some context first');
    await sendToChannel(t.client(alice), channel.name, channel.topic, `@**${reader.fullName}** please look`);
    await mailDue();
    const [mail] = mailsTo(reader);
    expect(mail!.subject).toBe(`#${channel.name} > ${channel.topic}`);
    expect(mail!.text).toMatch(new RegExp(`${alice.fullName}:\\n> some context first\\n\\n> @\\*\\*${reader.fullName}\\*\\* please look`));
    expect(mail!.text).toContain('You are receiving this because you were personally mentioned.');
    expect(mail!.text).toContain(`${realmUrl}/#narrow/channel/${channel.id}-`);
  });

  it('plain channel messages: nothing by default', async () => {
    const reader = await someone();
    const channel = await channelWith(alice, [reader]);
    await sendToChannel(t.client(alice), channel.name, channel.topic, 'nothing for you');
    await mailDue();
    expect(mailsTo(reader)).toEqual([]);
  });

  it('a group mention names the smallest group mentioned', async () => {
    const reader = await someone();
    const channel = await channelWith(alice, [reader]);
    for (const [name, members] of [[`small-${counter}`, [reader.userId]], [`large-${counter}`, [reader.userId, alice.userId]]] as const) {
      const res = await t.client(alice).post('/user_groups/create', { name, description: 'd', members: JSON.stringify(members) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await sendToChannel(t.client(alice), channel.name, channel.topic, `@*large-${counter}* and @*small-${counter}*`);
    await mailDue();
    expect(mailsTo(reader)[0]!.text).toContain(`You are receiving this because @small-${counter} was mentioned.`);
  });

  it('wildcard mentions follow wildcard_mentions_notify, the subscription\'s over the user\'s, and not in a muted channel', async () => {
    const notified = await someone();
    const optedOut = await someone();
    const optedOutHere = await someone();
    const muted = await someone();
    const channel = await channelWith(alice, [notified, optedOut, optedOutHere, muted]);
    await updateSettings(t, optedOut, { wildcard_mentions_notify: false });
    await setSubscription(optedOutHere, channel.id, 'wildcard_mentions_notify', false);
    await setSubscription(muted, channel.id, 'is_muted', true);
    await sendToChannel(t.client(alice), channel.name, channel.topic, '@**all** meeting now');
    await mailDue();
    expect(mailsTo(notified)).toHaveLength(1);
    expect(mailsTo(notified)[0]!.text).toContain(`You are receiving this because everyone was mentioned in #${channel.name}.`);
    expect(mailsTo(optedOut)).toEqual([]);
    expect(mailsTo(optedOutHere)).toEqual([]);
    expect(mailsTo(muted)).toEqual([]);
  });

  it('a personal mention reaches a muted channel too', async () => {
    const reader = await someone();
    const channel = await channelWith(alice, [reader]);
    await setSubscription(reader, channel.id, 'is_muted', true);
    await sendToChannel(t.client(alice), channel.name, channel.topic, `@**${reader.fullName}** even here`);
    await mailDue();
    expect(mailsTo(reader)).toHaveLength(1);
  });

  it('channel e-mail notifications: the subscription\'s setting or the user\'s default, never a muted topic', async () => {
    const bySubscription = await someone();
    const byDefault = await someone();
    const mutedTopic = await someone();
    const channel = await channelWith(alice, [bySubscription, byDefault, mutedTopic]);
    await setSubscription(bySubscription, channel.id, 'email_notifications', true);
    await updateSettings(t, byDefault, { enable_stream_email_notifications: true });
    await updateSettings(t, mutedTopic, { enable_stream_email_notifications: true });
    const res = await t.client(mutedTopic).post('/user_topics', { stream_id: channel.id, topic: channel.topic, visibility_policy: 1 });
    expect(res.status).toBe(200);
    await sendToChannel(t.client(alice), channel.name, channel.topic, 'news for subscribers');
    await mailDue();
    expect(mailsTo(bySubscription)).toHaveLength(1);
    expect(mailsTo(bySubscription)[0]!.text).toContain(`You are receiving this because you have email notifications enabled for #${channel.name}.`);
    expect(mailsTo(bySubscription)[0]!.text).not.toContain('some context');
    expect(mailsTo(byDefault)).toHaveLength(1);
    expect(mailsTo(mutedTopic)).toEqual([]);
  });

  it('followed topics: every message, unless enable_followed_topic_email_notifications is off', async () => {
    const follower = await someone();
    const quietFollower = await someone();
    const channel = await channelWith(alice, [follower, quietFollower]);
    for (const who of [follower, quietFollower]) {
      const res = await t.client(who).post('/user_topics', { stream_id: channel.id, topic: channel.topic, visibility_policy: 3 });
      expect(res.status).toBe(200);
    }
    await updateSettings(t, quietFollower, { enable_followed_topic_email_notifications: false });
    await sendToChannel(t.client(alice), channel.name, channel.topic, 'an update');
    await mailDue();
    expect(mailsTo(follower)).toHaveLength(1);
    expect(mailsTo(follower)[0]!.text).toContain('You are receiving this because you have email notifications enabled for topics you follow.');
    expect(mailsTo(quietFollower)).toEqual([]);
  });

  it('a resolved topic keeps its thread: "[resolved]" and the bare topic name', async () => {
    const reader = await someone();
    const channel = await channelWith(alice, [reader]);
    await sendToChannel(t.client(alice), channel.name, `✔ ${channel.topic}`, `@**${reader.fullName}** done`);
    await mailDue();
    expect(mailsTo(reader)[0]!.subject).toBe(`[resolved] #${channel.name} > ${channel.topic}`);
  });
});

describe('edits', () => {
  async function edit(messageId: number, content: string): Promise<void> {
    const res = await t.client(alice).patch(`/messages/${messageId}`, { content });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  it('a mention an edit adds reaches an away user', async () => {
    const reader = await someone();
    const channel = await channelWith(alice, [reader]);
    const id = await sendToChannel(t.client(alice), channel.name, channel.topic, 'typo');
    await edit(id, `@**${reader.fullName}** fixed`);
    await mailDue();
    expect(mailsTo(reader)).toHaveLength(1);
    expect(mailsTo(reader)[0]!.text).toContain('You are receiving this because you were personally mentioned.');
  });

  it('not again to one the message mentioned already, nor to those who get every message of the channel, nor for direct messages', async () => {
    const mentionedBefore = await someone();
    const channelMail = await someone();
    const dmReader = await someone();
    const channel = await channelWith(alice, [mentionedBefore, channelMail]);
    await setSubscription(channelMail, channel.id, 'email_notifications', true);
    const id = await sendToChannel(t.client(alice), channel.name, channel.topic, `@**${mentionedBefore.fullName}** hi`);
    const dm = await sendDirect(t.client(alice), [dmReader.userId], 'hi');
    await mailDue();
    expect(mailsTo(mentionedBefore)).toHaveLength(1);
    expect(mailsTo(channelMail)).toHaveLength(1);
    expect(mailsTo(dmReader)).toHaveLength(1);
    await edit(id, `@**${mentionedBefore.fullName}** @**${channelMail.fullName}** hi again`);
    await edit(dm, `@**${dmReader.fullName}** hi`);
    await mailDue();
    expect(mailsTo(mentionedBefore)).toHaveLength(1);
    expect(mailsTo(channelMail)).toHaveLength(1);
    expect(mailsTo(dmReader)).toHaveLength(1);
  });
});

describe('what the e-mail shows', () => {
  it('without message content when the user turned it off: "New messages"', async () => {
    const reader = await someone();
    await updateSettings(t, reader, { message_content_in_email_notifications: false });
    await sendDirect(t.client(alice), [reader.userId], 'a secret');
    await mailDue();
    const [mail] = mailsTo(reader);
    expect(mail!.subject).toBe('New messages');
    expect(mail!.text).not.toContain('a secret');
    expect(mail!.text).toContain('because you have disabled message content in email notifications');
  });

  it('with the organization\'s name in the subject when realm_name_in_email_notifications_policy says always', async () => {
    const reader = await someone();
    await updateSettings(t, reader, { realm_name_in_email_notifications_policy: 2 });
    await sendDirect(t.client(alice), [reader.userId], 'hi');
    await mailDue();
    const realmName = (await t.client(reader).get('/server_settings')).body.realm_name;
    expect(mailsTo(reader)[0]!.subject).toBe(`DMs with ${alice.fullName} [${realmName}]`);
  });

  it('without message content for anyone when the organization forbids it', async () => {
    const reader = await someone();
    await updateRealm(t, { message_content_allowed_in_email_notifications: false });
    try {
      await sendDirect(t.client(alice), [reader.userId], 'another secret');
      await mailDue();
    } finally {
      await updateRealm(t, { message_content_allowed_in_email_notifications: true });
    }
    const [mail] = mailsTo(reader);
    expect(mail!.subject).toBe('New messages');
    expect(mail!.text).not.toContain('another secret');
    expect(mail!.text).toContain('because your organization has disabled message content in email notifications');
  });
});

describe('/accounts/unsubscribe/missed_messages/<token>/', () => {
  /** The unsubscribe link of the last e-mail to `user`, as a path on the test server. */
  function unsubscribePath(user: MadeUser): { path: string; header: unknown } {
    const mail = mailsTo(user).at(-1)!;
    const url = /https?:\/\/\S+\/accounts\/unsubscribe\/missed_messages\/\S+\//.exec(mail.text ?? '')?.[0];
    expect(url, mail.text).toBeDefined();
    return { path: new URL(url!).pathname, header: rawHeader(mail, 'list-unsubscribe') };
  }

  /** A header's value as sent (mailparser folds List-* headers into a structure of its own). */
  function rawHeader(mail: ParsedMail, name: string): string | undefined {
    const line = mail.headerLines.find((h) => h.key === name)?.line;
    return line?.slice(line.indexOf(':') + 1).replace(/\r?\n\s+/g, ' ').trim();
  }

  async function offlineEmails(user: MadeUser): Promise<boolean> {
    return (await t.client(user).post('/register', { fetch_event_types: ['user_settings'] })).body.user_settings.enable_offline_email_notifications;
  }

  it('every e-mail carries the link, also as List-Unsubscribe for a one-click POST; opening it only asks; the form turns the e-mails off', async () => {
    const reader = await someone();
    await sendDirect(t.client(alice), [reader.userId], 'first');
    await mailDue();
    const { path, header } = unsubscribePath(reader);
    expect(header).toMatch(new RegExp(`^<https?://\\S+${path}>$`));
    expect(rawHeader(mailsTo(reader)[0]!, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const asked = await fetch(t.baseUrl + path);
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain('<form method="post">');
    expect(await offlineEmails(reader)).toBe(true);
    const done = await fetch(t.baseUrl + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(done.status).toBe(200);
    expect(await offlineEmails(reader)).toBe(false);
    await sendDirect(t.client(alice), [reader.userId], 'second');
    await mailDue();
    expect(mailsTo(reader)).toHaveLength(1);
  });

  it('GraphQL unsubscribeFromMissedMessages does what the page does, with the link\'s token and no credentials', async () => {
    const reader = await someone();
    await sendDirect(t.client(alice), [reader.userId], 'hi');
    await mailDue();
    const token = unsubscribePath(reader).path.split('/')[4]!;
    const { error } = await fails(t, 'mutation($t: String!) { unsubscribeFromMissedMessages(token: $t) }', { t: `${token}x` });
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    expect(await offlineEmails(reader)).toBe(true);
    expect(await ok(t, 'mutation($t: String!) { unsubscribeFromMissedMessages(token: $t) }', { t: token })).toEqual({ unsubscribeFromMissedMessages: true });
    expect(await offlineEmails(reader)).toBe(false);
  });

  it('refuses a forged link', async () => {
    const reader = await someone();
    await sendDirect(t.client(alice), [reader.userId], 'hi');
    await mailDue();
    const { path } = unsubscribePath(reader);
    const forged = path.replace(/-[A-Za-z0-9_-]{43}\/$/, `-${'A'.repeat(43)}/`);
    expect(forged).not.toBe(path);
    const res = await fetch(t.baseUrl + forged, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await offlineEmails(reader)).toBe(true);
  });
});

describe('email_notifications_batching_period_seconds', () => {
  it('a change moves the waiting batch by the difference', async () => {
    const reader = await someone();
    await sendDirect(t.client(alice), [reader.userId], 'wait longer');
    await updateSettings(t, reader, { email_notifications_batching_period_seconds: 600 });
    await mailDue();
    expect(mailsTo(reader)).toEqual([]);
    await mailDue(600_000 + 1_000);
    expect(mailsTo(reader)).toHaveLength(1);
  });

  it('a new batch waits the user\'s own period', async () => {
    const reader = await someone();
    await updateSettings(t, reader, { email_notifications_batching_period_seconds: 10 });
    await sendDirect(t.client(alice), [reader.userId], 'quick');
    await mailDue(11_000);
    expect(mailsTo(reader)).toHaveLength(1);
  });
});

describe('the worker', () => {
  it('sends each batch once when several runs race', async () => {
    const readers = await Promise.all([someone(), someone(), someone()]);
    for (const reader of readers) await sendDirect(t.client(alice), [reader.userId], 'race');
    const runs = await Promise.all([mailDue(), mailDue(), mailDue()]);
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(readers.length);
    for (const reader of readers) expect(mailsTo(reader)).toHaveLength(1);
  });
});

describe('GraphQL', () => {
  it('a message sent with postMessage is mailed like any other', async () => {
    const reader = await someone();
    await ok(t, 'mutation($to: JSON!) { postMessage(type: "direct", to: $to, content: "over GraphQL") { id } }', { to: [reader.userId] }, alice);
    await mailDue();
    expect(mailsTo(reader)[0]!.text).toContain('> over GraphQL');
  });
});
