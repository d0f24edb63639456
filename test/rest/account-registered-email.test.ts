// A new person's account details by e-mail (Zulip's send_account_registered_email): every human
// account an administrator makes (POST /users, GraphQL createUser) or a person makes by signing up,
// through a real SMTP sink started here; bots get none.
import { describe, expect, it } from 'vitest';
import { mailConfig, useSmtpSink } from '../support/smtp.ts';
import { ok } from '../graphql/helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';

const smtp = useSmtpSink();
const t = useTestServer(() => ({ ...mailConfig(smtp) }));
const { admin } = useTeam(t, ['admin']);

let n = 0;
const fresh = () => `newcomer${++n}-${Date.now()}@example.com`;

async function realm(): Promise<{ name: string; url: string }> {
  const settings = (await t.client().get('/server_settings')).body;
  return { name: settings.realm_name, url: settings.realm_url };
}

describe('the account-details e-mail', () => {
  it('reaches a person an administrator creates with POST /users: the organization, its URL and the address to log in with', async () => {
    const email = fresh();
    const res = await t.client(admin).post('/users', { email, password: 'a-long-password-1', full_name: 'New Comer' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { name, url } = await realm();
    const [mail] = smtp.to(email);
    expect(mail!.subject).toBe(`${name} on Zulip: Your new account details`);
    expect(mail!.text).toContain(`You've joined the Zulip organization ${name}.`);
    expect(mail!.text).toContain(`* Organization URL: ${url}`);
    expect(mail!.text).toContain(`* Your account email: ${email}`);
    expect(smtp.to(email)).toHaveLength(1);
  });

  it('reaches a person created through GraphQL createUser', async () => {
    const email = fresh();
    await ok(t, 'mutation($e: String!) { createUser(email: $e, password: "a-long-password-2", fullName: "Graph Comer") }', { e: email }, admin);
    expect(smtp.to(email)).toHaveLength(1);
  });

  it('reaches a person who signs up with an e-mail invitation', async () => {
    const email = fresh();
    const invited = await t.client(admin).post('/invites', { invitee_emails: email, stream_ids: '[]' });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    const key = /\/join\/([a-z0-9]+)\//.exec(smtp.to(email).at(-1)!.text ?? '')![1];
    await ok(t, 'mutation($k: String!, $e: String!) { signUp(key: $k, email: $e, fullName: "Signed Up", password: "Str0ng-enough-pass!") { userId } }', { k: key, e: email });
    expect(smtp.to(email).map((m) => m.subject)).toContain(`${(await realm()).name} on Zulip: Your new account details`);
  });

  it('not to bots', async () => {
    const res = await t.client(admin).post('/bots', { full_name: 'Mailless', short_name: `mailless${Date.now()}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(smtp.messages.filter((m) => m.subject?.includes('Mailless'))).toEqual([]);
    const bot = (await t.client(admin).get(`/users/${res.body.user_id}`)).body.user;
    expect(smtp.to(bot.email)).toEqual([]);
  });
});
