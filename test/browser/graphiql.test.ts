// GraphiQL as a person uses it, in Debian's Chromium (playwright-core drives it): the page loads
// with no outside network, explains how to sign in, signs in with an API key or a password, runs
// an authenticated query over HTTP and a subscription over WebSocket, and never opens the
// browser's Basic-auth dialog. Skipped (in one line) where Chromium is not installed; CI installs
// it and sets PARLEY_REQUIRE_BROWSER=1, so there it cannot be skipped.
// GRAPHIQL_SCREENSHOT=<path> saves a picture of GraphiQL with the query's result (docs/graphiql.png).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, ADMIN_EMAIL, ADMIN_PASSWORD, type TestServer } from '../support/server.ts';
import { rawRequest } from '../support/client.ts';

const CHROMIUM = process.env.PARLEY_CHROMIUM || '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
if (!available) {
  if (process.env.PARLEY_REQUIRE_BROWSER === '1') throw new Error(`PARLEY_REQUIRE_BROWSER=1 but there is no Chromium at ${CHROMIUM}`);
  console.log(`GraphiQL browser test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

let t: TestServer;
let browser: Browser;
let page: Page;
/** Every URL the page asked for that is not this server's. */
const outside: string[] = [];
/** The page's POSTs to /graphql: status and whether a Basic challenge came back. */
const graphqlResponses: { status: number; challenge: boolean }[] = [];

/** The text GraphiQL shows in its result pane. */
async function resultText(): Promise<string> {
  // Monaco shows spaces as no-break spaces.
  return (await page.locator('.graphiql-response').innerText()).replace(/\u00a0/g, ' ');
}

async function waitForResult(contains: string, timeout = 30_000): Promise<string> {
  const started = Date.now();
  let text = '';
  while (Date.now() - started < timeout) {
    text = await resultText();
    if (text.includes(contains)) return text;
    await page.waitForTimeout(200);
  }
  throw new Error(`the result pane never showed ${JSON.stringify(contains)}; it shows:\n${text}`);
}

describe.skipIf(!available)('GraphiQL in a browser', () => {
  beforeAll(async () => {
    t = await startTestServer();
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const context = await browser.newContext({ viewport: { width: 1440, height: 800 } });
    // Nothing may come from elsewhere: any other request fails, and is recorded.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(t.baseUrl) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      outside.push(url);
      return route.abort();
    });
    page = await context.newPage();
    page.on('response', (response) => {
      if (response.url() === `${t.baseUrl}/graphql` && response.request().method() === 'POST') {
        graphqlResponses.push({ status: response.status(), challenge: 'www-authenticate' in response.headers() });
      }
    });
    // A Basic-auth challenge would show up here as a dialog or a failed navigation.
    page.on('dialog', (dialog) => {
      outside.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('is linked from the front page and loads with the sign-in hint and the default query', async () => {
    await page.goto(`${t.baseUrl}/`);
    await expect(page.locator('h1').innerText()).resolves.toBe('Test Org');
    await page.getByRole('link', { name: 'GraphiQL' }).click();
    await page.waitForURL(`${t.baseUrl}/graphql`);
    await page.locator('.graphiql-container').first().waitFor({ timeout: 60_000 });
    await expect(page.locator('#parley-auth').innerText()).resolves.toContain('API key, not your password');
    // The default query explains how to sign in.
    await page.locator('.graphiql-query-editor').getByText('Sign in with the bar above').first().waitFor({ timeout: 30_000 });
    expect(outside).toEqual([]);
  }, 120_000);

  it('answers an unauthenticated query with an error in the page, not a password dialog', async () => {
    await page.locator('.graphiql-execute-button').click();
    const text = await waitForResult('errors');
    expect(text).toContain('UNAUTHORIZED');
    const last = graphqlResponses.at(-1)!;
    expect(last.status).toBe(401);
    expect(last.challenge).toBe(false);
    // The same request from a non-browser client is challenged, as HTTP Basic wants.
    const res = await rawRequest('POST', `${t.baseUrl}/graphql`, { 'content-type': 'application/json' }, JSON.stringify({ query: '{ me { email } }' }));
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="parley"');
    expect(outside).toEqual([]);
  }, 60_000);

  it('refuses a wrong API key in the bar, then signs in with the password', async () => {
    const bar = page.locator('#parley-auth');
    await bar.locator('[name=email]').fill(ADMIN_EMAIL);
    await bar.locator('[name=secret]').fill('not-the-key');
    await bar.getByRole('button', { name: 'Sign in' }).click();
    await bar.locator('[data-error]').getByText(/./).waitFor();
    await expect(bar.locator('[data-signed-in]').isHidden()).resolves.toBe(true);

    await bar.locator('[name=kind]').selectOption('password');
    await bar.locator('[name=secret]').fill(ADMIN_PASSWORD);
    await bar.getByRole('button', { name: 'Sign in' }).click();
    await bar.getByText(`Signed in as Administrator <${ADMIN_EMAIL}>`).waitFor();
  }, 60_000);

  it('runs an authenticated query', async () => {
    await page.locator('.graphiql-execute-button').click();
    const text = await waitForResult(`"email": "${ADMIN_EMAIL}"`);
    expect(text).toContain('"realmName": "Test Org"');
    expect(text).not.toContain('errors');
    if (process.env.GRAPHIQL_SCREENSHOT) await page.screenshot({ path: process.env.GRAPHIQL_SCREENSHOT });
  }, 60_000);

  it('runs a subscription over WebSocket and shows what arrives', async () => {
    const subscription = 'subscription Live {\n  newMessages { id content senderFullName }\n}\n';
    await page.goto(`${t.baseUrl}/graphql?query=${encodeURIComponent(subscription)}`);
    await page.locator('.graphiql-container').first().waitFor({ timeout: 60_000 });
    // Still signed in (the credentials live in the tab's session storage).
    await page.locator('#parley-auth').getByText('Signed in as').waitFor();
    const socket = page.waitForEvent('websocket');
    await page.locator('.graphiql-execute-button').click();
    expect((await socket).url()).toBe(`${t.baseUrl.replace('http', 'ws')}/graphql`);
    // The subscription is live once the server has it; send until it shows (bounded).
    const owner = t.client(t.owner);
    let text = '';
    for (let attempt = 0; attempt < 20 && !text.includes('hello from the test'); attempt++) {
      const sent = await owner.post('/messages', { type: 'direct', to: [t.owner.userId], content: `hello from the test ${attempt}` });
      expect(sent.status).toBe(200);
      text = await waitForResult('hello from the test', 1_500).catch(() => '');
    }
    expect(text).toContain('"senderFullName": "Administrator"');
    expect(text).toMatch(/"content": "<p>hello from the test \d+<\/p>"/);
    expect(outside).toEqual([]);
  }, 90_000);
});
