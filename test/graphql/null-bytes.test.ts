// NUL characters in GraphQL string arguments are the caller's error, refused before execution
// (server/input-limits.ts) as PostgreSQL could not store them.
import { describe, expect, it } from 'vitest';
import { fails, ok } from './helpers.ts';
import { useTestServer } from '../support/fixtures.ts';

const t = useTestServer();

const NUL = 'a\u0000b';

describe('string arguments with NUL characters', () => {
  it('createSavedSnippet answers BAD_REQUEST and stores nothing', async () => {
    const { error } = await fails(t, 'mutation($s: String!) { createSavedSnippet(title: $s, content: "c") }', { s: NUL }, t.owner);
    expect(error.extensions?.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('Variable "$s" contains NULL (0x00) characters.');
    const data = await ok(t, '{ savedSnippets { id } }', {}, t.owner);
    expect(data.savedSnippets).toEqual([]);
  });

  it('createUserGroup answers BAD_REQUEST', async () => {
    const { error } = await fails(t, 'mutation($s: String!) { createUserGroup(name: "nul", description: $s, members: []) }', { s: NUL }, t.owner);
    expect(error.extensions?.code).toBe('BAD_REQUEST');
  });

  it('updateStatus answers BAD_REQUEST', async () => {
    const { error } = await fails(t, 'mutation($s: String!) { updateStatus(statusText: $s) }', { s: NUL }, t.owner);
    expect(error.extensions?.code).toBe('BAD_REQUEST');
  });
});
