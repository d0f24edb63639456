// The route table is compiled at start-up: each endpoint's parameters come from its GraphQL field's
// arguments, and whatever a route declares must reach its operation, or the server does not boot.
import { describe, expect, it } from 'vitest';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { schema } from '../../schema/index.ts';
import { routes } from '../../rest-facade/routes.ts';
import { compileRoute, compileRoutes } from '../../rest-facade/compile.ts';
import type { Route } from '../../rest-facade/route.ts';

const compileOne = (route: Route) => () => compileRoute(schema, route);

describe('The route table', () => {
  const compiled = compileRoutes(schema, routes);

  it('compiles every route against the schema', () => {
    expect(compiled.length).toBe(routes.length);
  });

  it('passes every parameter to its operation: each argument parameter is a variable the operation declares and uses', () => {
    for (const entry of compiled) {
      const operation = entry.document.definitions[0] as OperationDefinitionNode;
      const declared = new Set(operation.variableDefinitions?.map((v) => v.variable.name.value));
      for (const param of entry.params) {
        const variable = param.target.kind === 'arg' ? param.target.arg : param.target.kind === 'variable' ? param.target.name : null;
        if (variable) expect(declared.has(variable), `${entry.route.method} ${entry.route.path}: ${param.wire}`).toBe(true);
      }
      // And the operation's variables are all used in it (GraphQL validation would refuse otherwise).
      expect(operation.kind).toBe(Kind.OPERATION_DEFINITION);
    }
  });

  it('offers every argument of the field as a parameter unless the route fixes or hides it', () => {
    const send = compiled.find((c) => c.route.method === 'POST' && c.route.path === '/messages')!;
    const field = schema.getMutationType()!.getFields().sendMessage!;
    const wires = send.params.map((p) => p.wire);
    for (const arg of field.args) expect(wires).toContain(arg.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  });
});

describe('A route that declares a parameter going nowhere fails the boot', () => {
  it('a parameter naming no argument', () => {
    expect(compileOne({ method: 'POST', path: '/x', field: 'sendMessage', params: { local_idd: {} } }))
      .toThrow(/local_idd names localIdd, which is not an argument of sendMessage/);
  });

  it('a shape-only parameter the shape never reads', () => {
    expect(compileOne({ method: 'POST', path: '/x', field: 'sendMessage', params: { extra: { shapeOnly: true } }, shape: () => ({}) }))
      .toThrow(/shape-only parameter extra is never read/);
  });

  it('a selection variable the selection never uses', () => {
    expect(compileOne({ method: 'GET', path: '/x', field: 'users', params: { flag: { variable: 'Boolean' } }, select: 'userId' }))
      .toThrow(/Variable "\$flag" is never used/);
  });

  it('a path segment that is no parameter', () => {
    expect(compileOne({ method: 'GET', path: '/x/{nothing}', field: 'users', select: 'userId' })).toThrow(/\{nothing\} is no parameter/);
  });

  it('a field that does not exist', () => {
    expect(compileOne({ method: 'GET', path: '/x', field: 'noSuchField' })).toThrow(/no Query or Mutation field named noSuchField/);
  });

  it('a required argument hidden from the wire', () => {
    expect(compileOne({ method: 'POST', path: '/x', field: 'sendMessage', hidden: ['content'] })).toThrow(/required argument content is hidden/);
  });
});
