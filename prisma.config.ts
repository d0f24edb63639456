import { defineConfig } from 'prisma/config';

// The URL matters only to CLI commands that talk to a database (`prisma migrate deploy`);
// the server builds its own driver adapter (prisma/database.ts).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/parley' },
});
