// Runs `prisma generate` on machines that cannot download Prisma's native schema engine.
// Generation itself runs in wasm; the CLI only insists that an engine binary exists, so we point it
// at any existing file unless the operator set a real one.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  env.PRISMA_SCHEMA_ENGINE_BINARY = process.execPath;
}
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
const result = spawnSync('npx', ['prisma', 'generate', '--no-hints'], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
