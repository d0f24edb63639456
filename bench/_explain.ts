import pg from 'pg';
import { createParleyServer } from '../server/app.ts';
import { configFromEnv } from '../server/config.ts';
import { seedMessages } from './seed.ts';
const kind = process.argv[2] ?? 'postgres';
const name = 'parley_bench_explain_' + process.pid;
const admin = new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/test' }); await admin.connect();
if (kind === 'postgres') await admin.query(`CREATE DATABASE ${name}`);
const server = await createParleyServer({ ...configFromEnv({}), port: 0, databaseUrl: kind === 'postgres' ? `postgresql://postgres@127.0.0.1:5432/${name}` : undefined, dataDir: 'memory://', adminEmail: 'o@bench.example.com', adminPassword: 'pw pw pw pw', realmName: 'B' }, () => {});
const db = server.database.prisma;
const [u] = await db.$queryRawUnsafe<any[]>(`SELECT id, "realmId" FROM "User"`);
await db.$executeRawUnsafe(`INSERT INTO "Channel" ("realmId", name, "description", "renderedDescription") VALUES (${u.realmId}, 'bench', '', '')`).catch(e => console.log('channel insert', e.message));
const [c] = await db.$queryRawUnsafe<any[]>(`SELECT id FROM "Channel" WHERE name='bench'`);
await db.$executeRawUnsafe(`INSERT INTO "Subscription" ("userId","channelId","color") VALUES (${u.id}, ${c.id}, '#fff')`).catch(e => console.log('sub insert', e.message));
let t = performance.now();
await seedMessages(db, { realmId: u.realmId, channelId: c.id, userIds: [u.id, u.id + 100, u.id + 200, u.id + 300, u.id + 400].slice(0, 1) }, 100000);
console.log('seed', ((performance.now() - t) / 1000).toFixed(1));
const from = `FROM "Message" m LEFT JOIN "UserMessage" um ON um."messageId" = m.id AND um."userId" = ${u.id} WHERE m."realmId" = ${u.realmId} AND (um."userId" IS NOT NULL OR m."channelId" = ANY(ARRAY[${c.id}]::int[]))`;
for (const cond of [`(m."channelId" = ${c.id}) AND (m."channelId" IS NOT NULL AND lower(m.topic) = lower('topic-7'))`, `(m."channelId" = ${c.id}) AND (m."searchVector" @@ websearch_to_tsquery('english', 'kumquat'))`, `(m."channelId" = ${c.id}) AND (m."searchVector" @@ websearch_to_tsquery('english', 'zeppelin'))`]) {
  const rows = await db.$queryRawUnsafe<any[]>(`EXPLAIN (ANALYZE, BUFFERS) SELECT m.id ${from} AND ${cond} AND m.id <= 10000000000000000 ORDER BY m.id DESC LIMIT 50`);
  console.log(rows.map((r) => r['QUERY PLAN']).join('\n'), '\n');
}
await server.close(); if (kind === 'postgres') { await new Promise(r => setTimeout(r, 500)); await admin.query(`DROP DATABASE ${name} WITH (FORCE)`); } await admin.end(); process.exit(0);
