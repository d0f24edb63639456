// Builds the schema: imports every area's types and fields, then asks Pothos for the result.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.ts';
import './realm.ts';
import './users.ts';
import '../resolvers/realm/fields.ts';
import '../resolvers/auth/fields.ts';
import '../resolvers/users/fields.ts';

export const schema = lexicographicSortSchema(builder.toSchema());
