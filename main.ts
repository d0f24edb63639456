// Entry point: `npm start`.
import { configFromEnv } from './server/config.ts';
import { createParleyServer } from './server/app.ts';

const config = configFromEnv();
const server = await createParleyServer(config, (line) => console.log(`[parley] ${line}`));
const port = await server.listen();
console.log(`[parley] ${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}; listening on http://localhost:${port}`);
console.log(`[parley] REST API at /api/v1, GraphQL and GraphiQL at /graphql; log in as ${config.adminEmail}`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    console.log(`[parley] ${signal}: shutting down`);
    await server.close().catch((error) => console.error(error));
    process.exit(0);
  });
}
