// Linkifiers: realm patterns turned into links in messages.
import { builder } from './builder.ts';

export const LinkifierType = builder.prismaObject('Linkifier', {
  description: 'A realm pattern (RE2 syntax, named groups `(?P<name>...)`) whose matches in messages become links built from an RFC 6570 URL template.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'The linkifier\'s ID (`filter_id` in the REST API).' }),
    pattern: t.exposeString('pattern', { description: 'The regular expression, in RE2 syntax; its named groups feed the URL template.' }),
    urlTemplate: t.exposeString('urlTemplate', { description: 'RFC 6570 URL template; each variable is a named group of the pattern.' }),
    exampleInput: t.exposeString('exampleInput', { nullable: true, description: 'Example text the pattern matches; checks the reverse template.' }),
    reverseTemplate: t.exposeString('reverseTemplate', { nullable: true, description: 'Simple `{group}` template that writes the linkifier syntax back from a URL (`{{` and `}}` are literal braces).' }),
    alternativeUrlTemplates: t.exposeStringList('alternativeUrlTemplates', { description: 'Further RFC 6570 templates used only for reverse linkification.' }),
  }),
});
