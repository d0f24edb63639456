// DELETE /users/{user_id} with deactivation_notification_comment: the deactivated user is told by
// e-mail (Zulip's zerver/emails/deactivate), through a real SMTP sink started here.
import { describe, expect, it } from 'vitest';
import { makeUser, type MadeUser } from '../support/factories.ts';
import { mailConfig, useSmtpSink, withoutAccountDetails } from '../support/smtp.ts';
import { ok } from '../graphql/helpers.ts';
import { useTeam, useTestServer } from '../support/fixtures.ts';


const smtp = useSmtpSink();
const t = useTestServer(() => ({ ...mailConfig(smtp) }));
const { admin } = useTeam(t, ['admin']);

/** The e-mails to `user` once delivery had time to happen (the sink receives asynchronously). */
async function mailsTo(user: MadeUser, atLeast: number) {
  for (let i = 0; i < 50 && notices(user).length < atLeast; i++) await new Promise((r) => setTimeout(r, 100));
  return notices(user);
}

function notices(user: MadeUser) {
  return withoutAccountDetails(smtp.to(user.email));
}

describe('DELETE /users/{user_id}: deactivation_notification_comment', () => {
  it('e-mails the user the comment, trimmed, after deactivating them', async () => {
    const leaving = await makeUser(t, { fullName: 'Leaving' });
    const res = await t.client(admin).delete(`/users/${leaving.userId}`, { deactivation_notification_comment: '  Thanks for everything.  ' });
    expect(res.body).toMatchObject({ result: 'success' });
    const [mail] = await mailsTo(leaving, 1);
    expect(mail!.subject).toBe(`Notification of account deactivation on ${(await t.client(admin).get('/server_settings')).body.realm_name}`);
    expect(mail!.text).toContain('has been deactivated, and you will no longer be able to log in.');
    expect(mail!.text).toContain('The administrators provided the following comment:\n\nThanks for everything.');
    expect((await t.client(leaving).get('/users/me')).status).toBe(401);
  });

  it('an empty comment still e-mails, without the comment paragraph', async () => {
    const leaving = await makeUser(t, { fullName: 'Quietly leaving' });
    expect((await t.client(admin).delete(`/users/${leaving.userId}`, { deactivation_notification_comment: '' })).body.result).toBe('success');
    const [mail] = await mailsTo(leaving, 1);
    expect(mail!.text).toContain('has been deactivated');
    expect(mail!.text).not.toContain('following comment');
  });

  it('without the parameter, no e-mail', async () => {
    const leaving = await makeUser(t, { fullName: 'Silently leaving' });
    expect((await t.client(admin).delete(`/users/${leaving.userId}`)).body.result).toBe('success');
    // Give a stray e-mail the time the others took to arrive.
    await new Promise((r) => setTimeout(r, 500));
    expect(notices(leaving)).toEqual([]);
  });

  it('refuses a comment over 2000 characters, deactivating no one and sending nothing', async () => {
    const staying = await makeUser(t, { fullName: 'Staying' });
    const res = await t.client(admin).delete(`/users/${staying.userId}`, { deactivation_notification_comment: 'x'.repeat(2001) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
    expect((await t.client(staying).get('/users/me')).status).toBe(200);
    expect(notices(staying)).toEqual([]);
  });

  it('a member may not deactivate anyone, comment or not, and nothing is sent', async () => {
    const member = await makeUser(t, { fullName: 'Member' });
    const target = await makeUser(t, { fullName: 'Target' });
    const res = await t.client(member).delete(`/users/${target.userId}`, { deactivation_notification_comment: 'bye' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNAUTHORIZED_PRINCIPAL');
    expect(notices(target)).toEqual([]);
  });

  it('GraphQL: deactivateUser(deactivationNotificationComment)', async () => {
    const leaving = await makeUser(t, { fullName: 'GraphQL leaving' });
    await ok(t, 'mutation($id: Int!) { deactivateUser(userId: $id, deactivationNotificationComment: "See you") }', { id: leaving.userId }, admin);
    const [mail] = await mailsTo(leaving, 1);
    expect(mail!.text).toContain('See you');
  });
});
