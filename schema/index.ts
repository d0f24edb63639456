// Builds the schema: imports every area's types and fields, then asks Pothos for the result.
import { lexicographicSortSchema } from 'graphql';
import { builder } from './builder.ts';
import './realm.ts';
import './users.ts';
import './channels.ts';
import './messages.ts';
import './events.ts';
import './live.ts';
import './groups.ts';
import '../resolvers/realm/fields.ts';
import '../resolvers/auth/fields.ts';
import '../resolvers/users/fields.ts';
import '../resolvers/channels/fields.ts';
import '../resolvers/messages/fields.ts';
import '../resolvers/events/fields.ts';
import '../resolvers/events/live-fields.ts';
import '../resolvers/typing/fields.ts';
import '../resolvers/groups/fields.ts';

export const schema = lexicographicSortSchema(builder.toSchema());
