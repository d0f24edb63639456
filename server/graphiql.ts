// GraphiQL and the front page, with no outside network: GraphiQL's code (yoga's build, with React
// and Monaco inside) comes from the installed @graphql-yoga/render-graphiql, graphql-ws's browser
// build from graphql-ws, and the page's own script (sign-in bar, fetcher) from server/graphiql/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Koa from 'koa';
import type { GraphiQLOptions } from 'graphql-yoga';
import type { Config } from './config.ts';
import { respondWithError } from '../rest-facade/errors.ts';
import { NotFoundError } from '../resolvers/errors.ts';

export const GRAPHIQL_ASSETS = '/graphiql/';

const require = createRequire(import.meta.url);
const ownFile = (name: string) => readFileSync(new URL(`./graphiql/${name}`, import.meta.url), 'utf8');

interface Asset {
  type: string;
  body: string;
}

// The build is 9 MB of JavaScript in string constants: loaded on the first GraphiQL request, not at start-up.
let assets: Promise<Map<string, Asset>> | null = null;
function loadAssets(): Promise<Map<string, Asset>> {
  assets ??= (async () => {
    const yoga = await import('@graphql-yoga/render-graphiql/graphiql');
    const js = 'text/javascript; charset=utf-8';
    return new Map<string, Asset>([
      ['yoga-graphiql.js', { type: js, body: yoga.js }],
      ['graphiql.css', { type: 'text/css; charset=utf-8', body: yoga.css }],
      // Monaco's workers, by the labels it asks for (see MonacoEnvironment in the page).
      ['editorWorkerService.worker.js', { type: js, body: yoga.editorWorkerService }],
      ['json.worker.js', { type: js, body: yoga.jsonWorker }],
      ['graphql.worker.js', { type: js, body: yoga.graphqlWorker }],
      ['graphql-ws.js', { type: js, body: readFileSync(join(dirname(require.resolve('graphql-ws')), '..', 'umd', 'graphql-ws.min.js'), 'utf8') }],
      ['parley-graphiql.js', { type: js, body: ownFile('page.js') }],
      ['parley-graphiql.css', { type: 'text/css; charset=utf-8', body: ownFile('page.css') }],
    ]);
  })();
  return assets;
}

export function isGraphiQLAsset(path: string): boolean {
  return path.startsWith(GRAPHIQL_ASSETS);
}

export async function serveGraphiQLAsset(ctx: Koa.Context): Promise<void> {
  const asset = (await loadAssets()).get(ctx.path.slice(GRAPHIQL_ASSETS.length));
  if (!asset || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
    respondWithError(ctx, new NotFoundError('Not found'));
    return;
  }
  ctx.type = asset.type;
  // The assets change only with the installed packages; a restart after an upgrade revalidates.
  ctx.set('Cache-Control', 'no-cache');
  ctx.body = asset.body;
}

const DEFAULT_QUERY = `# Parley's GraphQL API: the REST API's operations and rules.
#
# Sign in with the bar above: your email and API key (or
# choose Password to exchange it for the key). Requests
# then carry Authorization: Basic base64(email:api_key):
# queries and mutations over HTTP, subscriptions over
# WebSocket. An Authorization header in Headers wins.
#
# Docs: the first icon on the left. Also try:
#   mutation { postMessage(type: "channel", to: "general",
#     topic: "hello", content: "Hi!") { id } }
#   subscription { newMessages { id content } }

{
  serverSettings { realmName zulipFeatureLevel }
  me { userId email fullName }
}
`;

export function graphiqlOptions(): GraphiQLOptions {
  return { title: 'Parley GraphiQL', defaultQuery: DEFAULT_QUERY };
}

/** JSON inside a <script> element: `</script>` and `<!--` must not appear in it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** yoga's `renderGraphiQL`: the page, loading every asset from this server. */
export function renderGraphiQL(options: GraphiQLOptions): string {
  const a = GRAPHIQL_ASSETS;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(options.title ?? 'GraphiQL')}</title>
<link rel="stylesheet" href="${a}graphiql.css">
<link rel="stylesheet" href="${a}parley-graphiql.css">
</head>
<body>
<form id="parley-auth" autocomplete="on"></form>
<div id="root">Loading GraphiQL…</div>
<noscript>GraphiQL needs JavaScript.</noscript>
<script>
self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => ${scriptJson(a)} + label + '.worker.js' };
self.PARLEY_GRAPHIQL = ${scriptJson({ ...options, endpoint: '/graphql' })};
</script>
<script src="${a}graphql-ws.js"></script>
<script src="${a}yoga-graphiql.js"></script>
<script src="${a}parley-graphiql.js"></script>
</body>
</html>
`;
}

/** GET / from a browser: what this server is and where to go. */
export function frontPage(config: Config, realmName: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(realmName)} · Parley</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; padding: 0 1rem; color: #1d2433; }
code { background: #f1f3f6; padding: 0 .25em; border-radius: 3px; }
h1 { margin-bottom: .25rem; } .sub { color: #5b6478; margin-top: 0; }
</style>
</head>
<body>
<h1>${escapeHtml(realmName)}</h1>
<p class="sub">A <strong>Parley</strong> server: team chat that speaks Zulip's REST API, over a typed GraphQL core.</p>
<ul>
<li><a href="/graphql">GraphiQL</a>: explore and try the GraphQL API (sign in there with your email and API key).</li>
<li>REST API at <code>/api/v1</code>, as Zulip's (<a href="https://zulip.com/api/">reference</a>): start with
  <a href="/api/v1/server_settings"><code>/api/v1/server_settings</code></a>.</li>
<li>Zulip's apps (terminal, mobile) and libraries work unchanged: point them at <code>${escapeHtml(config.externalUrl)}</code>.</li>
</ul>
<p>There is no web client yet.</p>
</body>
</html>
`;
}
