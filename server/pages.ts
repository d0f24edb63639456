// The few server-rendered pages a person reaches from an e-mail or a shared link, with no client
// app: signing up with an invitation (/join/<key>/), asking for a password reset
// (/accounts/password/reset/), setting the new password (/accounts/password/reset/<token>/),
// confirming a new e-mail address (/accounts/confirm_new_email/<token>/) and unsubscribing from
// missed-message e-mails (/accounts/unsubscribe/missed_messages/<token>/). Minimal HTML forms; the
// work is the domain's (resolvers/invites/signup.ts, resolvers/auth/password-reset.ts,
// resolvers/settings/email-change.ts).
import type Koa from 'koa';
import type { Services } from './context.ts';
import { discardBody, parseUrlencoded, readBody, type FormFields } from './request-body.ts';
import type { Context } from '../schema/context.ts';
import { realmForHost } from '../resolvers/auth/authenticate.ts';
import { ParleyError } from '../resolvers/errors.ts';
import { confirmAddressForLink, invitationForKey } from '../resolvers/invites/invites.ts';
import { signUp } from '../resolvers/invites/signup.ts';
import { requestPasswordReset, resetPassword, userForResetToken } from '../resolvers/auth/password-reset.ts';
import { confirmEmailChange, emailChangeForToken } from '../resolvers/settings/email-change.ts';
import { unsubscribeFromMissedMessages, userForUnsubscribeToken } from '../resolvers/notifications/unsubscribe.ts';

/** One request to a page: its realm's domain context, the form fields sent, and the response. */
interface PageRequest {
  ctx: Koa.Context;
  services: Services;
  domain: Context & { realm: NonNullable<Context['realm']> };
  /** A form field's value (the last one, as Django reads forms); '' when absent. */
  text(name: string): string;
}

/** The pages by path; each is served on GET (the form) and POST (the form sent). */
const PAGES: { path: RegExp; serve: (request: PageRequest, secret: string) => Promise<void> }[] = [
  { path: /^\/join\/([^/]+)\/?$/, serve: (request, key) => joinPage(request, key) },
  { path: /^\/accounts\/password\/reset\/?$/, serve: (request) => resetRequestPage(request) },
  { path: /^\/accounts\/password\/reset\/([^/]+)\/?$/, serve: (request, token) => resetPage(request, token) },
  { path: /^\/accounts\/confirm_new_email\/([^/]+)\/?$/, serve: (request, token) => confirmEmailPage(request, token) },
  { path: /^\/accounts\/unsubscribe\/missed_messages\/([^/]+)\/?$/, serve: (request, token) => unsubscribePage(request, token) },
];

export function isPagePath(path: string): boolean {
  return PAGES.some((p) => p.path.test(path));
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}label{display:block;margin:.8rem 0 .2rem}
input{width:100%;padding:.4rem;box-sizing:border-box}button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00}</style>
</head><body><h1>${escape(title)}</h1>
${body}
</body></html>`;
}

function field(label: string, name: string, type: string, value = ''): string {
  return `<label for="${name}">${escape(label)}</label><input id="${name}" name="${name}" type="${type}" value="${escape(value)}" required>`;
}

export async function servePage(ctx: Koa.Context, services: Services): Promise<void> {
  if (ctx.method !== 'GET' && ctx.method !== 'POST') {
    ctx.status = 405;
    return;
  }
  // Links carry secrets: keep them out of other sites' Referer headers and out of caches.
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'html';
  let realm;
  try {
    realm = await realmForHost(services.db, ctx.get('host'), services.config);
  } catch {
    ctx.status = 404;
    ctx.body = page('Organization not found', '<p>There is no organization at this address.</p>');
    return;
  }
  const domain = { ...services, realm, user: null, clientName: 'website' };
  // The forms are sent by people without credentials: the small body limit, read as Django reads forms.
  let form: FormFields = Object.create(null);
  if (ctx.method === 'POST' && ctx.is('urlencoded')) {
    try {
      form = parseUrlencoded((await readBody(ctx, services.config.limits.anonymousMaxBodyBytes)).toString('utf8'));
    } catch (error) {
      await discardBody(ctx);
      ctx.status = error instanceof ParleyError ? error.httpStatus : 400;
      ctx.body = page('Invalid request', `<p class="error">${escape(error instanceof ParleyError ? error.message : 'Malformed request body')}</p>`);
      return;
    }
  } else await discardBody(ctx);
  const text = (name: string) => {
    const value = form[name];
    return Array.isArray(value) ? value[value.length - 1]! : value ?? '';
  };
  for (const { path, serve } of PAGES) {
    const match = path.exec(ctx.path);
    if (match) return serve({ ctx, services, domain, text }, match[1] ?? '');
  }
}


async function joinPage({ ctx, services, domain, text }: PageRequest, key: string): Promise<void> {
  const { realm } = domain;
  let invitation;
  try {
    invitation = await invitationForKey(domain, key);
  } catch (error) {
    ctx.status = 404;
    ctx.body = page('Invitation not valid', `<p class="error">${escape((error as Error).message)}</p>`);
    return;
  }
  // With e-mail, a reusable link first confirms the address by mailing it a link of its own.
  if (invitation.email === null && services.mailer?.delivers) {
    const ask = (error?: string) => page(`Join ${realm.name}`, `${error ? `<p class="error">${escape(error)}</p>` : ''}
<form method="post">${field('E-mail address', 'email', 'email', text('email'))}<button type="submit">Continue</button></form>`);
    if (ctx.method === 'GET') {
      ctx.body = ask();
      return;
    }
    await formAction(ctx, ask, async () => {
      await confirmAddressForLink(domain, key, text('email'));
      return page('Check your e-mail', `<p>We have sent a link to <strong>${escape(text('email'))}</strong>. Follow it to finish creating your account.</p>`);
    });
    return;
  }
  const render = (error?: string) => page(`Join ${realm.name}`, `${error ? `<p class="error">${escape(error)}</p>` : ''}
<form method="post">
${invitation.email ? `<p>Creating the account for <strong>${escape(invitation.email)}</strong>.</p>` : field('E-mail address', 'email', 'email', text('email'))}
${field('Full name', 'full_name', 'text', text('full_name'))}
${field('Password', 'password', 'password')}
<button type="submit">Create account</button>
</form>`);
  if (ctx.method === 'GET') {
    ctx.body = render();
    return;
  }
  await formAction(ctx, render, async () => {
    const user = await signUp(domain, key, { email: text('email'), fullName: text('full_name'), password: text('password') });
    return page(`Welcome to ${realm.name}`, `<p>Your account <strong>${escape(user.deliveryEmail)}</strong> is ready. Log in with your e-mail address and password in any Zulip app, at <code>${escape(new URL(ctx.href).origin)}</code>.</p>`);
  });
}

async function resetRequestPage({ ctx, domain, text }: PageRequest): Promise<void> {
  if (ctx.method === 'GET') {
    ctx.body = page('Reset your password', `<form method="post">${field('E-mail address', 'email', 'email')}<button type="submit">Send reset link</button></form>`);
    return;
  }
  await requestPasswordReset(domain, text('email'));
  ctx.body = page('Check your e-mail', '<p>If an account exists for this address, we have sent it a link to set a new password.</p>');
}

/** What a link names, or null once a link that does not work is answered: 404 with the domain's reason (and `more` HTML). */
async function linkTarget<T>(ctx: Koa.Context, check: () => Promise<T>, more = ''): Promise<T | null> {
  try {
    return await check();
  } catch (error) {
    if (!(error instanceof ParleyError)) throw error;
    ctx.status = 404;
    ctx.body = page('Link not valid', `<p class="error">${escape(error.message)}</p>${more}`);
    return null;
  }
}

async function confirmEmailPage({ ctx, domain }: PageRequest, token: string): Promise<void> {
  const pending = await linkTarget(ctx, () => emailChangeForToken(domain, token));
  if (!pending) return;
  // Opening the link only asks: a mail scanner fetching it changes nothing (Zulip posts the key too).
  if (ctx.method === 'GET') {
    ctx.body = page('Confirm your new e-mail address', `<p>Change the e-mail address of your account from <strong>${escape(pending.oldEmail)}</strong> to <strong>${escape(pending.newEmail)}</strong>?</p>
<form method="post"><button type="submit">Confirm</button></form>`);
    return;
  }
  try {
    const done = await confirmEmailChange(domain, token);
    ctx.body = page('E-mail address changed', `<p>This confirms that the e-mail address for your account has changed from <strong>${escape(done.oldEmail)}</strong> to <strong>${escape(done.newEmail)}</strong>.</p>`);
  } catch (error) {
    if (!(error instanceof ParleyError)) throw error;
    ctx.status = error.httpStatus;
    ctx.body = page('E-mail address not changed', `<p class="error">${escape(error.message)}</p>`);
  }
}

/**
 * The link in missed-message e-mails. Opening it asks (a mail scanner fetching it changes nothing);
 * the form, or a mail client's one-click POST (RFC 8058), unsubscribes.
 */
async function unsubscribePage({ ctx, domain }: PageRequest, token: string): Promise<void> {
  const user = await linkTarget(ctx, () => userForUnsubscribeToken(domain, token));
  if (!user) return;
  if (ctx.method === 'GET') {
    ctx.body = page('Unsubscribe', `<p>Stop e-mail notifications of direct messages and mentions to <strong>${escape(user.deliveryEmail)}</strong>?</p>
<form method="post"><button type="submit">Unsubscribe</button></form>`);
    return;
  }
  await unsubscribeFromMissedMessages(domain, token);
  ctx.body = page('Unsubscribed', `<p>You will no longer receive e-mail notifications of direct messages and mentions. You can turn them back on in your notification settings.</p>`);
}

async function resetPage({ ctx, domain, text }: PageRequest, token: string): Promise<void> {
  const render = (error?: string) => page('Set a new password', `${error ? `<p class="error">${escape(error)}</p>` : ''}
<form method="post">${field('New password', 'new_password', 'password')}<button type="submit">Set password</button></form>`);
  if (!(await linkTarget(ctx, () => userForResetToken(domain, token), '<p><a href="/accounts/password/reset/">Ask for a new link</a></p>'))) return;
  if (ctx.method === 'GET') {
    ctx.body = render();
    return;
  }
  await formAction(ctx, render, async () => {
    await resetPassword(domain, token, text('new_password'));
    return page('Password changed', '<p>Your password has been changed. You can log in with it now.</p>');
  });
}

/** A sent form: the page `act` returns, or the form again with the domain's refusal (400). */
async function formAction(ctx: Koa.Context, form: (error?: string) => string, act: () => Promise<string>): Promise<void> {
  try {
    ctx.body = await act();
  } catch (error) {
    if (!(error instanceof ParleyError)) throw error;
    ctx.status = 400;
    ctx.body = form(error.message);
  }
}
