// The GraphQL schema is the API's documentation (GraphiQL shows it): every type, every root field
// and every argument of a root field says what it is.
import { describe, expect, it } from 'vitest';
import { isObjectType, isInputObjectType, isEnumType, isScalarType, type GraphQLField } from 'graphql';
import { schema } from '../../schema/index.ts';

const ownTypes = Object.values(schema.getTypeMap()).filter((type) => !type.name.startsWith('__') && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name));

describe('GraphQL schema documentation', () => {
  it('describes every type', () => {
    const undocumented = ownTypes.filter((type) => !type.description?.trim()).map((type) => type.name);
    expect(undocumented).toEqual([]);
  });

  it('describes every query and mutation', () => {
    const root = [schema.getQueryType()!, schema.getMutationType()!];
    const undocumented = root.flatMap((type) => Object.values(type.getFields()).filter((f) => !f.description?.trim()).map((f) => `${type.name}.${f.name}`));
    expect(undocumented).toEqual([]);
  });

  it('describes every field of every object type', () => {
    const undocumented: string[] = [];
    for (const type of ownTypes) {
      if (!isObjectType(type) && !isInputObjectType(type)) continue;
      for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
        if (!field.description?.trim()) undocumented.push(`${type.name}.${field.name}`);
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('has enums and scalars with descriptions too', () => {
    const bare = ownTypes.filter((t) => (isEnumType(t) || isScalarType(t)) && !t.description).map((t) => t.name);
    expect(bare).toEqual([]);
  });
});
