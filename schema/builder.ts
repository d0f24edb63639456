// The Pothos builder: plugins, context and scalars only. Types live in one file per area.
import SchemaBuilder from '@pothos/core';
import PrismaPlugin from '@pothos/plugin-prisma';
import type PrismaTypes from '../prisma/generated/pothos-types.ts';
import { getDatamodel } from '../prisma/generated/pothos-types.ts';
import type { Context } from './context.ts';

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  DefaultFieldNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
    IdleQueueTimeout: { Input: number | 'mobile'; Output: number | 'mobile' };
  };
}>({
  plugins: [PrismaPlugin],
  defaultFieldNullability: false,
  prisma: {
    // Each server (and each test) has its own database, so the client comes from the context.
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: null,
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON: used where the Zulip wire format is polymorphic (for example a display recipient that is a channel name or a list of users).',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({ description: 'Reads. Every field applies the same permission rules as the REST API.' });
builder.mutationType({ description: 'Writes. Each runs in one transaction; events are published after it commits.' });
