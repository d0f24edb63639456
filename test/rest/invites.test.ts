// Invitations and sign-up (Zulip's /invites, /invites/multiuse, resend, revoke, invites_changed) and
// password reset by e-mail, against a real SMTP sink started here (PARLEY_SMTP_URL): the e-mails'
// links lead to the server-rendered pages, which create the account with the invitation's role,
// channels and groups, or set the new password. Without SMTP, GraphQL hands out the links.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeChannel, makeUser, updateRealm } from '../support/factories.ts';
import { mailConfig, useSmtpSink } from '../support/smtp.ts';
import type { ApiClient } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let secretChannel: number;
let n = 0;
const smtp = useSmtpSink();
const t = useTestServer(() => ({ ...mailConfig(smtp) }));
const { admin, alice, bob, guest } = useTeam(t, ['admin', 'alice', 'bob', 'guest'], { alice: { fullName: 'Alice' }, guest: { fullName: 'Guest', role: 600 } });
const STRONG = 'tangerine orbit lantern 42';

beforeAll(async () => {
  secretChannel = await makeChannel(t.client(alice), 'alice secret', { invite_only: true });
});

const fresh = () => `invitee${++n}-${Date.now()}@example.com`;
const queue = async (c: ApiClient) => (await registerQueue(c, { event_types: ['invites_changed'] })).queue_id;
/** The sign-up or reset link in the last e-mail to `address`, as a path on the test server. */
function linkIn(address: string, pattern: RegExp): string {
  const mails = smtp.to(address);
  expect(mails.length, `no e-mail to ${address}`).toBeGreaterThan(0);
  const text = mails.at(-1)!.text ?? '';
  const url = pattern.exec(text)?.[0];
  expect(url, text).toBeDefined();
  return new URL(url!).pathname;
}
const joinLink = (address: string) => linkIn(address, /https?:\/\/\S+\/join\/[a-z0-9]+\//);
const resetLink = (address: string) => linkIn(address, /https?:\/\/\S+\/accounts\/password\/reset\/\S+\//);
async function page(path: string, form?: Record<string, string>): Promise<{ status: number; html: string }> {
  const res = await fetch(t.baseUrl + path, form
    ? { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() }
    : {});
  return { status: res.status, html: await res.text() };
}
async function logIn(email: string, password: string) {
  return t.client().post('/fetch_api_key', { username: email, password });
}

describe('POST /invites', () => {
  it('e-mails a sign-up link, lists the invitation, and tells administrators and the inviter', async () => {
    const email = fresh();
    const [aliceQ, adminQ, bobQ] = await Promise.all([queue(t.client(alice)), queue(t.client(admin)), queue(t.client(bob))]);
    const res = await t.client(alice).post('/invites', { invitee_emails: email, stream_ids: JSON.stringify([]), invite_as: 400 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const mail = smtp.to(email).at(-1)!;
    expect(mail.subject).toBe('Alice invited you to join Test Org');
    expect(mail.from?.text).toContain('noreply@parley.test');
    expect(joinLink(email)).toMatch(/^\/join\/[a-z0-9]{24}\/$/);

    const list = await t.client(alice).get('/invites');
    const mine = list.body.invites.find((i: any) => i.email === email);
    expect(mine).toMatchObject({ invited_by_user_id: alice.userId, invited_as: 400, is_multiuse: false, notify_referrer_on_join: true });
    expect(mine.link_url).toBeUndefined();
    expect(mine.expiry_date - mine.invited).toBe(10 * 24 * 3600);
    expect((await t.client(admin).get('/invites')).body.invites.map((i: any) => i.id)).toContain(mine.id);
    expect((await t.client(bob).get('/invites')).body.invites.map((i: any) => i.id)).not.toContain(mine.id);

    for (const [c, q] of [[t.client(alice), aliceQ], [t.client(admin), adminQ]] as const) {
      expect((await allEvents(c, q)).map((e) => e.type)).toEqual(['invites_changed']);
    }
    expect(await allEvents(t.client(bob), bobQ)).toEqual([]);
  });

  it('answers Zulip\'s errors and invites nobody', async () => {
    const c = t.client(alice);
    const before = await t.db.invitation.count();
    const cases: [ApiClient, Record<string, unknown>, string][] = [
      [c, { invitee_emails: '', stream_ids: '[]' }, 'You must specify at least one email address.'],
      [c, { invitee_emails: fresh(), stream_ids: '[]', invite_as: 200 }, 'Must be an organization administrator'],
      [t.client(admin), { invitee_emails: fresh(), stream_ids: '[]', invite_as: 100 }, 'Must be an organization owner'],
      [c, { invitee_emails: fresh(), stream_ids: '[]', invite_as: 500 }, 'Invalid invite_as'],
      [c, { invitee_emails: fresh(), stream_ids: '[999999]' }, 'Invalid channel ID 999999. No invites were sent.'],
      [t.client(bob), { invitee_emails: fresh(), stream_ids: JSON.stringify([secretChannel]) }, `Invalid channel ID ${secretChannel}. No invites were sent.`],
      [t.client(guest), { invitee_emails: fresh(), stream_ids: '[]' }, 'Not allowed for guest users'],
    ];
    for (const [client, params, msg] of cases) {
      const res = await client.post('/invites', params);
      expect(res.body, JSON.stringify(params)).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg });
    }
    const invalid = await c.post('/invites', { invitee_emails: `${fresh()}, not-an-address`, stream_ids: '[]' });
    expect(invalid.body).toMatchObject({
      code: 'INVITATION_FAILED', msg: "Some emails did not validate, so we didn't send any invitations.",
      errors: [['not-an-address', 'Invalid address.', false]], sent_invitations: false,
    });
    const existing = await c.post('/invites', { invitee_emails: bob.email, stream_ids: '[]' });
    expect(existing.body).toMatchObject({ code: 'INVITATION_FAILED', msg: "We weren't able to invite anyone.", errors: [[bob.email, 'Already has an account.', false]] });
    expect(await t.db.invitation.count()).toBe(before);
  });

  it('invites the new addresses of a mixed list and reports the others (INVITATION_FAILED)', async () => {
    const email = fresh();
    const res = await t.client(alice).post('/invites', { invitee_emails: `${bob.email}\nNew Person <${email}>`, stream_ids: '[]' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'INVITATION_FAILED', sent_invitations: true, license_limit_reached: false, daily_limit_reached: false,
      msg: "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      errors: [[bob.email, 'Already has an account.', false]],
    });
    expect(smtp.to(email)).toHaveLength(1);
  });

  it('keeps to the organization\'s domains when it is restricted to them, for e-mail invitations and reusable links', async () => {
    expect((await t.client(t.owner).post('/realm/domains', { domain: 'allowed.test', allow_subdomains: true })).status).toBe(200);
    await updateRealm(t, { emails_restricted_to_domains: true });
    try {
      const res = await t.client(alice).post('/invites', { invitee_emails: 'x@elsewhere.test, y+tag@allowed.test, z@team.allowed.test', stream_ids: '[]' });
      expect(res.body).toMatchObject({
        code: 'INVITATION_FAILED', msg: "Some emails did not validate, so we didn't send any invitations.",
        errors: [['x@elsewhere.test', 'Outside your domain.', false], ['y+tag@allowed.test', 'Email addresses containing + are not allowed.', false]],
      });
      expect((await t.client(alice).post('/invites', { invitee_emails: 'z@team.allowed.test', stream_ids: '[]' })).status).toBe(200);
      const link = (await t.client(admin).post('/invites/multiuse', {})).body.invite_link;
      const refused = await page(new URL(link).pathname, { email: 'w@elsewhere.test' });
      expect(refused.status).toBe(400);
      expect(refused.html).toContain('is not in one of the domains that are allowed to register for accounts in this organization.');
    } finally {
      await updateRealm(t, { emails_restricted_to_domains: false });
      expect((await t.client(t.owner).delete('/realm/domains/allowed.test')).status).toBe(200);
    }
  });

  it('follows can_invite_users_group', async () => {
    const db = t.db;
    const realm = await db.realm.findFirstOrThrow({ where: { stringId: '' } });
    const admins = await db.userGroup.findFirstOrThrow({ where: { realmId: realm.id, name: 'role:administrators' } });
    await updateRealm(t, { can_invite_users_group: { new: admins.id } });
    try {
      expect((await t.client(alice).post('/invites', { invitee_emails: fresh(), stream_ids: '[]' })).body).toMatchObject({ msg: 'Insufficient permission' });
      expect((await t.client(admin).post('/invites', { invitee_emails: fresh(), stream_ids: '[]' })).status).toBe(200);
    } finally {
      await updateRealm(t, { can_invite_users_group: { new: realm.canInviteUsersGroupId } });
    }
  });
});

describe('the sign-up page', () => {
  it('creates the account with the invitation\'s role and channels, once; the inviter hears of it', async () => {
    const email = fresh();
    const channel = await makeChannel(t.client(alice), `welcome ${n}`);
    expect((await t.client(alice).post('/invites', { invitee_emails: email, stream_ids: JSON.stringify([channel, secretChannel]), invite_as: 600 })).status).toBe(200);
    const path = joinLink(email);
    const form = await page(path);
    expect(form.status).toBe(200);
    expect(form.html).toContain(email);
    expect(form.html).toContain('name="password"');

    const weak = await page(path, { full_name: 'New Guest', password: 'abc' });
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('The password is too weak.');
    const bobQ = await registerQueue(t.client(bob), { event_types: ['realm_user'] });

    const done = await page(path, { full_name: 'New Guest', password: STRONG });
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain('is ready');
    const key = await logIn(email, STRONG);
    expect(key.status).toBe(200);
    const newcomer = t.client({ email: key.body.email, apiKey: key.body.api_key, userId: key.body.user_id });
    const me = await newcomer.get('/users/me');
    expect(me.body).toMatchObject({ full_name: 'New Guest', role: 600, is_guest: true });
    const subs = (await newcomer.get('/users/me/subscriptions')).body.subscriptions.map((s: any) => s.stream_id);
    expect(subs.sort()).toEqual([channel, secretChannel].sort());

    const added = await allEvents(t.client(bob), bobQ.queue_id);
    expect(added.find((e: any) => e.type === 'realm_user')).toMatchObject({ op: 'add', person: { user_id: key.body.user_id, full_name: 'New Guest' } });
    const dms = (await t.client(alice).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]) })).body.messages;
    expect(dms.at(-1).content).toContain('accepted your invitation to join Zulip!');

    const signups = (await t.client(alice).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'signups' }]) })).body.messages;
    expect(signups.at(-1)).toMatchObject({ sender_email: 'notification-bot@zulip.com', content: expect.stringContaining('joined this organization.') });

    const again = await page(path);
    expect(again.status).toBe(404);
    expect(again.html).toContain('already been used');
    expect((await t.client(alice).get('/invites')).body.invites.map((i: any) => i.email)).not.toContain(email);
  });

  it('refuses unknown, revoked and expired links', async () => {
    expect((await page('/join/nosuchkey1234/')).status).toBe(404);
    const email = fresh();
    await t.client(alice).post('/invites', { invitee_emails: email, stream_ids: '[]' });
    const path = joinLink(email);
    const id = (await t.client(alice).get('/invites')).body.invites.find((i: any) => i.email === email).id;
    const db = t.db;
    // Written directly: only time makes an invitation expire.
    await db.invitation.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await page(path)).html).toContain('expired');
    expect((await page(path, { full_name: 'Late', password: STRONG })).status).toBe(404);
    expect((await logIn(email, STRONG)).status).not.toBe(200);
  });
});

describe('POST /invites/{id}/resend and DELETE /invites/{id}', () => {
  it('resends the same link, for the inviter or an administrator', async () => {
    const email = fresh();
    await t.client(alice).post('/invites', { invitee_emails: email, stream_ids: '[]' });
    const first = joinLink(email);
    const id = (await t.client(alice).get('/invites')).body.invites.find((i: any) => i.email === email).id;
    expect((await t.client(bob).post(`/invites/${id}/resend`)).body).toMatchObject({ msg: 'Must be an organization administrator' });
    const q = await queue(t.client(alice));
    expect((await t.client(admin).post(`/invites/${id}/resend`)).status).toBe(200);
    expect(smtp.to(email)).toHaveLength(2);
    expect(joinLink(email)).toBe(first);
    expect((await allEvents(t.client(alice), q)).map((e) => e.type)).toEqual(['invites_changed']);
    expect((await t.client(admin).post('/invites/999999/resend')).body).toMatchObject({ msg: 'No such invitation' });
  });

  it('revokes: the link stops working and the invitation leaves the list', async () => {
    const email = fresh();
    await t.client(alice).post('/invites', { invitee_emails: email, stream_ids: '[]' });
    const path = joinLink(email);
    const id = (await t.client(alice).get('/invites')).body.invites.find((i: any) => i.email === email).id;
    expect((await t.client(bob).delete(`/invites/${id}`)).body).toMatchObject({ msg: 'Must be an organization administrator' });
    expect((await t.client(alice).delete(`/invites/${id}`)).status).toBe(200);
    expect((await page(path)).status).toBe(404);
    expect((await t.client(alice).get('/invites')).body.invites.map((i: any) => i.id)).not.toContain(id);
    expect((await t.client(alice).delete(`/invites/${id}`)).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'No such invitation' });
    expect((await t.client(alice).delete(`/invites/multiuse/${id}`)).body).toMatchObject({ msg: 'No such invitation' });
  });
});

describe('POST /invites/multiuse', () => {
  it('is for create_multiuse_invite_group (administrators by default)', async () => {
    expect((await t.client(alice).post('/invites/multiuse', {})).body).toMatchObject({ code: 'BAD_REQUEST', msg: 'Insufficient permission' });
  });

  it('refuses an expiry later than a timestamp can say (found by the fuzz: the list then failed)', async () => {
    const res = await t.client(admin).post('/invites/multiuse', { invite_expires_in_minutes: 2_000_000_000, invite_as: 400 });
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid invite_expires_in_minutes' });
    expect((await t.client(admin).get('/invites')).status).toBe(200);
  });

  it('makes a reusable link that signs up several people, listed with its URL, until revoked', async () => {
    const res = await t.client(admin).post('/invites/multiuse', { invite_expires_in_minutes: 'null', invite_as: 400 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const path = new URL(res.body.invite_link).pathname;
    expect(path).toMatch(/^\/join\/[a-z0-9]{24}\/$/);
    const listed = (await t.client(admin).get('/invites')).body.invites.find((i: any) => i.is_multiuse && i.link_url === res.body.invite_link);
    expect(listed).toMatchObject({ expiry_date: null, invited_as: 400, invited_by_user_id: admin.userId });
    expect(listed.email).toBeUndefined();

    // With e-mail on, the link first asks for the address and mails it a link of its own.
    const form = await page(path);
    expect(form.html).toContain('name="email"');
    expect(form.html).not.toContain('name="password"');
    const joiners = [fresh(), fresh()];
    for (const email of joiners) {
      const asked = await page(path, { email });
      expect(asked.status, asked.html).toBe(200);
      expect(asked.html).toContain('Check your e-mail');
      expect(smtp.to(email).at(-1)!.subject).toBe('Confirm your email address for Test Org');
      const personal = joinLink(email);
      expect(personal).not.toBe(path);
      expect((await page(personal)).html).toContain(email);
      const done = await page(personal, { full_name: `Joiner ${n}`, password: STRONG });
      expect(done.status, done.html).toBe(200);
      expect((await logIn(email, STRONG)).status).toBe(200);
      expect((await page(personal)).status).toBe(404);
    }
    const taken = await page(path, { email: bob.email });
    expect(taken.status).toBe(400);
    expect(taken.html).toContain('already in use');
    // Confirmations are not invitations anyone manages.
    const pending = await t.client(admin).post('/invites/multiuse', {});
    const third = fresh();
    await page(new URL(pending.body.invite_link).pathname, { email: third });
    expect(smtp.to(third)).toHaveLength(1);
    expect((await t.client(admin).get('/invites')).body.invites.map((i: any) => i.email)).not.toContain(third);
    const key = /\/join\/([a-z0-9]+)\//.exec(path)![1];
    const { error } = await fails(t, 'mutation($k: String!, $p: String!) { signUp(key: $k, email: "direct@example.com", fullName: "Direct", password: $p) { userId } }', { k: key, p: STRONG });
    expect(error.message).toBe('Confirm your email address first: enter it at the invitation link to get a link by e-mail.');

    expect((await t.client(alice).delete(`/invites/multiuse/${listed.id}`)).body).toMatchObject({ msg: 'Must be an organization administrator' });
    expect((await t.client(admin).delete(`/invites/${listed.id}`)).body).toMatchObject({ msg: 'No such invitation' });
    expect((await t.client(admin).delete(`/invites/multiuse/${listed.id}`)).status).toBe(200);
    expect((await t.client(admin).delete(`/invites/multiuse/${listed.id}`)).body).toMatchObject({ msg: 'Invitation has already been revoked' });
    expect((await page(path)).status).toBe(404);
  });
});

describe('password reset', () => {
  it('e-mails a link to an account\'s address and nothing to unknown ones, saying the same', async () => {
    const form = await page('/accounts/password/reset/');
    expect(form.html).toContain('name="email"');
    const before = smtp.messages.length;
    const unknown = await page('/accounts/password/reset/', { email: 'nobody@example.com' });
    const known = await page('/accounts/password/reset/', { email: bob.email });
    expect(unknown.status).toBe(200);
    expect(unknown.html).toBe(known.html);
    expect(smtp.messages.length).toBe(before + 1);
    expect(smtp.to(bob.email).at(-1)!.subject).toBe('Reset your password for Test Org');
  });

  it('sets the new password from the link, once', async () => {
    const carol = await makeUser(t);
    await page('/accounts/password/reset/', { email: carol.email });
    const path = resetLink(carol.email);
    expect((await page(path)).html).toContain('name="new_password"');
    const weak = await page(path, { new_password: '123' });
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('The password is too weak.');
    const done = await page(path, { new_password: STRONG });
    expect(done.status, done.html).toBe(200);
    expect((await logIn(carol.email, STRONG)).status).toBe(200);
    expect((await logIn(carol.email, 'pw-' + carol.email)).status).toBe(401);
    expect((await page(path)).status).toBe(404);
    expect((await page(path, { new_password: 'another fine passphrase 7' })).status).toBe(404);
    expect((await logIn(carol.email, STRONG)).status).toBe(200);
    const forged = path.replace(/-[A-Za-z0-9_-]{43}\/$/, `-${'A'.repeat(43)}/`);
    expect((await page(forged)).status).toBe(404);
  });
});

describe('GraphQL and without SMTP', () => {
  const bare = useTestServer();

  it('hands out e-mail invitations\' links, and signUp redeems them', async () => {
    const email = 'nomail@example.com';
    const owner = bare.owner;
    expect((await ok(bare, `mutation { sendInvitations(inviteeEmails: "${email}", streamIds: []) }`, {}, owner)).sendInvitations).toBe(true);
    const invitations = (await ok(bare, '{ invitations { email linkUrl isMultiuse } }', {}, owner)).invitations;
    expect(invitations).toEqual([{ email, linkUrl: expect.stringMatching(/\/join\/[a-z0-9]{24}\/$/), isMultiuse: false }]);
    const key = /\/join\/([a-z0-9]+)\//.exec(invitations[0].linkUrl)![1];
    const { error } = await fails(bare, 'mutation($k: String!) { signUp(key: $k, fullName: "No Mail", password: "abc") { userId } }', { k: key });
    expect(error.message).toBe('The password is too weak.');
    const made = await ok(bare, 'mutation($k: String!, $p: String!) { signUp(key: $k, fullName: "No Mail", password: $p) { userId email apiKey } }', { k: key, p: STRONG });
    expect(made.signUp.email).toBe(email);
    expect((await bare.client({ email, apiKey: made.signUp.apiKey, userId: made.signUp.userId }).get('/users/me')).body.full_name).toBe('No Mail');
  });
});
