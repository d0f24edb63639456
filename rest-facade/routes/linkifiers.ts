// Linkifiers (Zulip still calls the write endpoints "filters").
import type { Route } from '../route.ts';
import { snakeKeys } from '../route.ts';
import type { ParamSpec } from '../params.ts';

const LINKIFIER_FIELDS = 'id pattern urlTemplate exampleInput reverseTemplate alternativeUrlTemplates';

const linkifierParams: Record<string, ParamSpec> = {
  pattern: { type: 'string', required: true },
  url_template: { type: 'string', required: true },
  example_input: { type: 'string' },
  reverse_template: { type: 'string' },
  alternative_url_templates: { type: 'stringList' },
};

const ARGS = '$pattern: String!, $urlTemplate: String!, $exampleInput: String, $reverseTemplate: String, $alternativeUrlTemplates: [String!]';
const PASS = 'pattern: $pattern, urlTemplate: $urlTemplate, exampleInput: $exampleInput, reverseTemplate: $reverseTemplate, alternativeUrlTemplates: $alternativeUrlTemplates';

export const linkifierRoutes: Route[] = [
  {
    method: 'GET', path: '/realm/linkifiers', params: {},
    document: `query { realmLinkifiers { ${LINKIFIER_FIELDS} } }`,
    shape: (d) => ({ linkifiers: snakeKeys(d.realmLinkifiers) }),
  },
  {
    method: 'PATCH', path: '/realm/linkifiers',
    params: { ordered_linkifier_ids: { type: 'intList', required: true } },
    document: `mutation($orderedLinkifierIds: [Int!]!) { reorderLinkifiers(orderedLinkifierIds: $orderedLinkifierIds) }`,
  },
  {
    method: 'POST', path: '/realm/filters', params: linkifierParams,
    document: `mutation(${ARGS}) { addLinkifier(${PASS}) }`,
    shape: (d) => ({ id: d.addLinkifier }),
  },
  {
    method: 'PATCH', path: '/realm/filters/{filter_id}',
    params: { filter_id: { type: 'int', in: 'path', required: true }, ...linkifierParams },
    document: `mutation($filterId: Int!, ${ARGS}) { updateLinkifier(filterId: $filterId, ${PASS}) }`,
  },
  {
    method: 'DELETE', path: '/realm/filters/{filter_id}',
    params: { filter_id: { type: 'int', in: 'path', required: true } },
    document: `mutation($filterId: Int!) { removeLinkifier(filterId: $filterId) }`,
  },
];
