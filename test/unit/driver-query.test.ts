// driverQuery's parameters reach the database as the values they are, on both drivers: node-postgres
// gets arrays of numbers and booleans as literals Parley writes (prisma/database.ts pgBindable).
import { describe, expect, it } from 'vitest';
import { Prisma } from '../../prisma/generated/client/client.ts';
import { driverQuery, scalarArrayLiteral } from '../../prisma/database.ts';
import { useTestServer } from '../support/fixtures.ts';

const t = useTestServer();

describe('driverQuery parameters', () => {
  it('binds arrays of integers, floats and booleans element for element', async () => {
    const ints = [1, -2, 0, 2147483647, -2147483648];
    const floats = [1.5, -0.25, 1e-7, 12345.678];
    const bools = [true, false, false, true];
    const [row] = await driverQuery<{ ints: number[]; floats: number[]; bools: boolean[]; empty: number[] }>(t.db, Prisma.sql`
      SELECT ${ints}::int[] AS ints, ${floats}::float8[] AS floats, ${bools}::bool[] AS bools, ${[]}::int[] AS empty`);
    expect(row).toEqual({ ints, floats, bools, empty: [] });
  });

  it('leaves other arrays to the driver: nulls, strings with quotes and backslashes, mixed kinds', async () => {
    const strings = ['plain', 'with "quotes"', 'back\\slash', '{braces,comma}', ''];
    const [row] = await driverQuery<{ withNull: (number | null)[]; strings: string[]; boolNull: (boolean | null)[] }>(t.db, Prisma.sql`
      SELECT ${[1, null, 3]}::int[] AS "withNull", ${strings}::text[] AS strings, ${[true, null]}::bool[] AS "boolNull"`);
    expect(row).toEqual({ withNull: [1, null, 3], strings, boolNull: [true, null] });
  });
});

describe('scalarArrayLiteral', () => {
  it('writes numbers and booleans, and declines anything else', () => {
    expect(scalarArrayLiteral([3, -1, 2.5])).toBe('{3,-1,2.5}');
    expect(scalarArrayLiteral([true, false])).toBe('{t,f}');
    expect(scalarArrayLiteral([])).toBe('{}');
    expect(scalarArrayLiteral([1, Number.NaN])).toBeUndefined();
    expect(scalarArrayLiteral([1, '2'])).toBeUndefined();
    expect(scalarArrayLiteral([true, 1])).toBeUndefined();
    expect(scalarArrayLiteral(['a'])).toBeUndefined();
  });
});
