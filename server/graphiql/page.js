// The GraphiQL page's own script: a sign-in bar, and the fetcher that sends the signed-in user's
// credentials with every operation: queries and mutations over HTTP, subscriptions over WebSocket
// (graphql-ws). A browser never sees a Basic-auth challenge from here: the server sends none to
// scripts (Sec-Fetch-Mode), and this page sends credentials itself rather than letting the browser.
(function () {
  'use strict';
  const config = self.PARLEY_GRAPHIQL;
  const STORAGE = 'parley:graphiql:credentials';
  const endpoint = new URL(config.endpoint, location.href).href;
  const wsUrl = endpoint.replace(/^http/, 'ws');

  // --- Credentials: the signed-in user's email and API key, kept for this tab only.
  function current() {
    try {
      const value = JSON.parse(sessionStorage.getItem(STORAGE) || 'null');
      return value && value.email && value.apiKey ? value : null;
    } catch {
      return null;
    }
  }
  function basic(email, apiKey) {
    const bytes = new TextEncoder().encode(email + ':' + apiKey);
    return 'Basic ' + btoa(String.fromCharCode(...bytes));
  }
  /** The Headers tab's Authorization wins over the signed-in user's. */
  function authorizationFor(headers) {
    for (const [name, value] of Object.entries(headers || {})) {
      if (name.toLowerCase() === 'authorization' && value) return String(value);
    }
    const signedIn = current();
    return signedIn ? basic(signedIn.email, signedIn.apiKey) : null;
  }

  // --- Which operation a request runs: subscriptions go over the WebSocket.
  function operations(query) {
    const source = query.replace(/"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|#[^\n\r]*/g, ' ');
    const found = [];
    let depth = 0;
    let parens = 0;
    let pending = null;
    const tokens = /[{}()]|[_A-Za-z][_0-9A-Za-z]*/g;
    let match;
    while ((match = tokens.exec(source))) {
      const token = match[0];
      if (token === '(') parens++;
      else if (token === ')') parens--;
      else if (parens > 0) continue;
      else if (token === '{') {
        if (depth === 0) found.push(pending || { type: 'query', name: null });
        pending = null;
        depth++;
      } else if (token === '}') depth--;
      else if (depth === 0) {
        if (['query', 'mutation', 'subscription', 'fragment'].includes(token) && !pending) pending = { type: token, name: null };
        else if (pending && pending.name === null) pending.name = token;
      }
    }
    return found;
  }
  function isSubscription(params) {
    const ops = operations(params.query || '');
    const chosen = params.operationName ? ops.find((op) => op.name === params.operationName) : ops.find((op) => op.type !== 'fragment');
    return Boolean(chosen && chosen.type === 'subscription');
  }

  // --- Transports.
  async function post(params, headers, authorization) {
    const sent = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' };
    for (const [name, value] of Object.entries(headers || {})) if (name.toLowerCase() !== 'authorization') sent[name] = String(value);
    if (authorization) sent.authorization = authorization;
    const response = await fetch(endpoint, { method: 'POST', headers: sent, body: JSON.stringify(params), credentials: 'omit' });
    const text = await response.text();
    try {
      return JSON.parse(text);
    } catch {
      return { errors: [{ message: 'HTTP ' + response.status + ': ' + text.slice(0, 300) }] };
    }
  }

  const sockets = new Map();
  function socketFor(authorization) {
    const key = authorization || '';
    let client = sockets.get(key);
    if (!client) {
      client = graphqlWs.createClient({
        url: wsUrl,
        lazy: true,
        retryAttempts: 0,
        connectionParams: authorization ? { authorization } : {},
      });
      sockets.set(key, client);
    }
    return client;
  }
  function describeFailure(error) {
    if (error && typeof error.code === 'number') {
      if (error.code === 4403) return 'The server refused these credentials (WebSocket closed with 4403 Forbidden): sign in again.';
      return 'WebSocket closed: ' + error.code + (error.reason ? ' ' + error.reason : '');
    }
    if (Array.isArray(error)) return error.map((e) => e.message).join('; ');
    return error && error.message ? error.message : String(error);
  }
  async function* subscribe(params, authorization) {
    const results = socketFor(authorization).iterate({ query: params.query, variables: params.variables, operationName: params.operationName });
    try {
      for await (const result of results) yield result;
    } catch (error) {
      yield { errors: [{ message: describeFailure(error) }] };
    } finally {
      // GraphiQL's stop button ends this generator: complete the subscription on the server too.
      if (results.return) await results.return();
    }
  }

  function fetcher(params, options) {
    const headers = (options && options.headers) || {};
    const authorization = authorizationFor(headers);
    return isSubscription(params) ? subscribe(params, authorization) : post(params, headers, authorization);
  }

  // --- The sign-in bar.
  const form = document.getElementById('parley-auth');
  form.innerHTML = `
    <strong>Parley GraphiQL</strong>
    <span data-signed-in hidden>Signed in as <b data-who></b> <button type="button" data-sign-out>Sign out</button></span>
    <span data-signed-out>
      <label>Email <input name="email" type="email" autocomplete="username" required></label>
      <select name="kind" aria-label="Credential"><option value="apiKey">API key</option><option value="password">Password</option></select>
      <input name="secret" type="password" autocomplete="off" aria-label="API key or password" required>
      <button type="submit">Sign in</button>
    </span>
    <span class="error" data-error role="alert"></span>
    <span class="hint" data-hint>Requests carry <code>Authorization: Basic</code> with your email and <b>API key</b>, not your password
      (choose Password to exchange it for the key; or <code>npm run manage -- show-api-key &lt;email&gt;</code>). Subscriptions use the same credentials over WebSocket.</span>`;
  const field = (name) => form.querySelector(`[name=${name}]`);
  const part = (name) => form.querySelector(`[data-${name}]`);
  const secret = field('secret');
  field('kind').addEventListener('change', () => {
    secret.setAttribute('autocomplete', field('kind').value === 'password' ? 'current-password' : 'off');
    secret.setAttribute('aria-label', field('kind').value === 'password' ? 'Password' : 'API key');
  });

  function show() {
    const signedIn = current();
    part('signed-in').hidden = !signedIn;
    part('signed-out').hidden = Boolean(signedIn);
    part('hint').hidden = Boolean(signedIn);
    if (signedIn) part('who').textContent = signedIn.fullName ? `${signedIn.fullName} <${signedIn.email}>` : signedIn.email;
  }
  function firstError(result) {
    return result.errors && result.errors.length ? result.errors[0].message : null;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    part('error').textContent = '';
    const email = field('email').value.trim();
    let apiKey = secret.value;
    try {
      if (field('kind').value === 'password') {
        const got = await post({
          query: 'mutation SignIn($username: String!, $password: String!) { fetchApiKey(username: $username, password: $password) { apiKey email } }',
          variables: { username: email, password: apiKey },
        }, {}, null);
        const error = firstError(got);
        if (error) throw new Error(error);
        apiKey = got.data.fetchApiKey.apiKey;
      }
      const me = await post({ query: '{ me { email fullName } }' }, {}, basic(email, apiKey));
      const error = firstError(me);
      if (error) throw new Error(error);
      sessionStorage.setItem(STORAGE, JSON.stringify({ email, apiKey, fullName: me.data.me.fullName }));
      secret.value = '';
      show();
    } catch (error) {
      part('error').textContent = error.message;
    }
  });
  part('sign-out').addEventListener('click', () => {
    sessionStorage.removeItem(STORAGE);
    for (const client of sockets.values()) client.dispose();
    sockets.clear();
    show();
  });
  show();

  YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), { ...config, fetcher });
})();
