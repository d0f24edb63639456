// Changing one's own e-mail address: PATCH /settings `email` (GraphQL updateSettings) checks the
// address and mails it a confirmation link, against a real SMTP sink; following the link
// (/accounts/confirm_new_email/<token>/, or GraphQL confirmEmailChange) makes the change, with
// realm_user events, and tells the old address. The organization's rules are checked at both ends.
import { describe, expect, it } from 'vitest';
import { makeUser } from '../support/factories.ts';
import { mailConfig, useSmtpSink } from '../support/smtp.ts';
import type { ApiClient, Credentials } from '../support/client.ts';
import { fails, ok } from '../graphql/helpers.ts';
import { allEvents, registerQueue } from '../support/events.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

let n = 0;

const smtp = useSmtpSink();
const t = useTestServer(() => ({ ...mailConfig(smtp) }));
const owner = t.ownerClient;
const { admin } = useTeam(t, ['admin']);

const INVALID_LINK = 'Whoops. The confirmation link has expired or been deactivated.';
const DISABLED = 'Email address changes are disabled in this organization.';
const fresh = (tag = 'new') => `${tag}${++n}-${Date.now()}@example.com`;

/** The confirmation link in the last e-mail to `address`, as a path on the test server. */
function confirmLink(address: string): string {
  const mails = smtp.to(address);
  expect(mails.length, `no e-mail to ${address}`).toBeGreaterThan(0);
  const text = mails.at(-1)!.text ?? '';
  const url = /https?:\/\/\S+\/accounts\/confirm_new_email\/\S+\//.exec(text)?.[0];
  expect(url, text).toBeDefined();
  return new URL(url!).pathname;
}

const tokenOf = (path: string) => path.split('/')[3]!;

async function page(path: string, post = false): Promise<{ status: number; html: string }> {
  const res = await fetch(t.baseUrl + path, post
    ? { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }
    : {});
  return { status: res.status, html: await res.text() };
}

const queue = async (c: ApiClient) => (await registerQueue(c, { event_types: ['realm_user'] })).queue_id;

async function deliveryEmail(user: Credentials): Promise<string> {
  return (await owner.get(`/users/${user.userId}`)).body.user.delivery_email;
}

async function setEmailChangesDisabled(value: boolean) {
  const res = await owner.patch('/realm', { email_changes_disabled: value });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('PATCH /settings email', () => {
  it('mails a confirmation link to the new address and changes nothing yet', async () => {
    const carol = await makeUser(t, { email: fresh('carol') });
    const target = fresh();
    const q = await queue(t.client(carol));
    const res = await t.client(carol).patch('/settings', { email: target });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ result: 'success' });
    const mail = smtp.to(target).at(-1)!;
    expect(mail.subject).toMatch(/^Verify your new email address for /);
    expect(mail.text).toContain(`from ${carol.email} to ${target}`);
    expect(await deliveryEmail(carol)).toBe(carol.email);
    expect(await allEvents(t.client(carol), q)).toEqual([]);
  });

  it('refuses invalid addresses and addresses of other accounts, with Zulip\'s messages, and mails nothing', async () => {
    const carol = await makeUser(t);
    const before = smtp.messages.length;
    const invalid = await t.client(carol).patch('/settings', { email: 'not an address' });
    expect(invalid.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid address: not an address' });
    expect(invalid.status).toBe(400);
    const taken = await t.client(carol).patch('/settings', { email: admin.email.toUpperCase() });
    expect(taken.body).toMatchObject({ result: 'error', msg: 'Already has an account.' });
    expect(smtp.messages.length).toBe(before);
    // The current address is no change at all.
    expect((await t.client(carol).patch('/settings', { email: carol.email })).status).toBe(200);
    expect(smtp.messages.length).toBe(before);
  });

  it('is refused to members while email_changes_disabled, not to administrators', async () => {
    const carol = await makeUser(t);
    await setEmailChangesDisabled(true);
    try {
      const res = await t.client(carol).patch('/settings', { email: fresh() });
      expect(res.body).toMatchObject({ result: 'error', msg: DISABLED });
      const target = fresh('admin');
      expect((await t.client(admin).patch('/settings', { email: target })).status).toBe(200);
      expect(smtp.to(target)).toHaveLength(1);
    } finally {
      await setEmailChangesDisabled(false);
    }
  });
});

describe('/accounts/confirm_new_email/<token>/', () => {
  it('asks on GET, changes the address on POST with realm_user events, tells the old address, and works once', async () => {
    const oldEmail = fresh('dora');
    const dora = await makeUser(t, { email: oldEmail });
    const target = fresh();
    await t.client(dora).patch('/settings', { email: target });
    const link = confirmLink(target);

    const asked = await page(link);
    expect(asked.status).toBe(200);
    expect(asked.html).toContain(oldEmail);
    expect(asked.html).toContain(target);
    expect(asked.html).toContain('<form method="post">');
    expect(await deliveryEmail(dora)).toBe(oldEmail);

    const [doraQ, adminQ] = await Promise.all([queue(t.client(dora)), queue(t.client(admin))]);
    const done = await page(link, true);
    expect(done.status, done.html).toBe(200);
    expect(done.html).toContain(`has changed from <strong>${oldEmail}</strong> to <strong>${target}</strong>`);
    expect(await deliveryEmail(dora)).toBe(target);
    // Everyone may see addresses (the default visibility): the API address follows.
    for (const [client, q] of [[t.client({ ...dora, email: target }), doraQ], [t.client(admin), adminQ]] as const) {
      const persons = (await allEvents(client, q)).filter((e) => e.type === 'realm_user').map((e) => e.person);
      expect(persons).toContainEqual({ user_id: dora.userId, delivery_email: target });
      expect(persons).toContainEqual({ user_id: dora.userId, new_email: target });
    }
    const notice = smtp.to(oldEmail).at(-1)!;
    expect(notice.subject).toBe('Email address changed for Test Org');
    expect(notice.text).toContain(`changed to ${target}`);
    // The new address logs in; the old one no longer does.
    expect((await t.client().post('/fetch_api_key', { username: target, password: `pw-${oldEmail}` })).status).toBe(200);
    expect((await t.client().post('/fetch_api_key', { username: oldEmail, password: `pw-${oldEmail}` })).status).toBe(401);

    // Spent: the address it was made for has changed.
    const again = await page(link, true);
    expect(again.status).toBe(404);
    expect(again.html).toContain(INVALID_LINK);
  });

  it('a newer request cancels the links mailed before it (Zulip revokes earlier requests)', async () => {
    const gina = await makeUser(t, { email: fresh('gina') });
    const first = fresh('first');
    const second = fresh('second');
    await t.client(gina).patch('/settings', { email: first });
    const firstLink = confirmLink(first);
    await t.client(gina).patch('/settings', { email: second });
    const secondLink = confirmLink(second);
    const refused = await page(firstLink, true);
    expect(refused.status).toBe(404);
    expect(refused.html).toContain(INVALID_LINK);
    expect(await deliveryEmail(gina)).toBe(gina.email);
    expect((await page(secondLink, true)).status).toBe(200);
    expect(await deliveryEmail(gina)).toBe(second);
  });

  it('refuses forged links and links of another kind', async () => {
    const erin = await makeUser(t);
    const target = fresh();
    await t.client(erin).patch('/settings', { email: target });
    const link = confirmLink(target);
    const forged = link.replace(/-[A-Za-z0-9_-]{43}\/$/, `-${'A'.repeat(43)}/`);
    expect(forged).not.toBe(link);
    expect((await page(forged)).status).toBe(404);
    expect((await page(forged, true)).status).toBe(404);
    // A password reset link's token is no e-mail change token.
    await fetch(`${t.baseUrl}/accounts/password/reset/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `email=${encodeURIComponent(erin.email)}` });
    const resetUrl = /https?:\/\/\S+\/accounts\/password\/reset\/(\S+)\//.exec(smtp.to(erin.email).at(-1)!.text ?? '')!;
    expect((await page(`/accounts/confirm_new_email/${resetUrl[1]}/`)).status).toBe(404);
    expect(await deliveryEmail(erin)).toBe(erin.email);
  });

  it('checks the organization\'s rules again when the link is followed', async () => {
    const fred = await makeUser(t);
    const target = fresh();
    await t.client(fred).patch('/settings', { email: target });
    const link = confirmLink(target);
    await setEmailChangesDisabled(true);
    try {
      const refused = await page(link, true);
      expect(refused.status).toBe(400);
      expect(refused.html).toContain(DISABLED);
    } finally {
      await setEmailChangesDisabled(false);
    }
    // Meanwhile another account took the address.
    const created = await owner.post('/users', { email: target, password: 'pw-taken-123456', full_name: 'Taker' });
    expect(created.status).toBe(200);
    const taken = await page(link, true);
    expect(taken.status).toBe(400);
    expect(taken.html).toContain('Already has an account.');
    expect(await deliveryEmail(fred)).toBe(fred.email);
  });
});

describe('GraphQL updateSettings(email) and confirmEmailChange', () => {
  it('mails the link, and confirmEmailChange makes the change once', async () => {
    const gina = await makeUser(t);
    const target = fresh();
    await ok(t, 'mutation($e: String!) { updateSettings(email: $e) { timezone } }', { e: target }, gina);
    expect(await deliveryEmail(gina)).toBe(gina.email);
    const token = tokenOf(confirmLink(target));
    const data = await ok(t, 'mutation($k: String!) { confirmEmailChange(token: $k) { oldEmail newEmail } }', { k: token });
    expect(data.confirmEmailChange).toEqual({ oldEmail: gina.email, newEmail: target });
    expect(await deliveryEmail(gina)).toBe(target);
    const { error } = await fails(t, 'mutation($k: String!) { confirmEmailChange(token: $k) { oldEmail } }', { k: token });
    expect(error).toMatchObject({ message: INVALID_LINK, extensions: { code: 'BAD_REQUEST' } });
    const disabled = await makeUser(t);
    await setEmailChangesDisabled(true);
    try {
      const refused = await fails(t, 'mutation($e: String!) { updateSettings(email: $e) { timezone } }', { e: fresh() }, disabled);
      expect(refused.error.message).toBe(DISABLED);
    } finally {
      await setEmailChangesDisabled(false);
    }
  });
});
