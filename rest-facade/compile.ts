// Turns the route table into runnable endpoints at start-up: each route's parameters are derived
// from its GraphQL field's arguments (plus the route's wire facts), and its operation document and
// variable mapping are generated from them and validated against the schema. Whatever a route
// declares must reach its operation: a parameter aimed at no argument, a selection variable the
// selection never uses (GraphQL's own validation), or a shape-only parameter the shape never reads
// fails the boot.
import {
  GraphQLString, getNamedType, parseType, typeFromAST, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, isScalarType, parse, validate,
  type DocumentNode, type GraphQLArgument, type GraphQLField, type GraphQLInputField, type GraphQLInputType,
  type GraphQLOutputType, type GraphQLSchema,
} from 'graphql';
import { camelCase, snakeCase, type Route, type WireParam } from './route.ts';
import type { ParamType } from './params.ts';

/** Where a decoded parameter goes. */
export type ParamTarget =
  | { kind: 'arg'; arg: string; field?: string }
  | { kind: 'variable'; name: string }
  | { kind: 'variables'; names: string[] }
  | { kind: 'shape' };

/** A wire parameter behind an operation variable, with the GraphQL type that refused its value. */
export interface WireVariable {
  wire: string;
  type: GraphQLInputType;
}

/** One parameter of an endpoint, as the facade decodes it. */
export interface CompiledParam {
  wire: string;
  aliases: string[];
  decode: ParamType;
  required: boolean;
  default?: unknown;
  inPath: boolean;
  target: ParamTarget;
  /** The GraphQL type the value must fit (for variables and arguments). */
  type?: GraphQLInputType;
  convert?: (value: any) => unknown;
}

export interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  pathParamNames: string[];
  params: CompiledParam[];
  document: DocumentNode;
  /** The generated operation, for error messages and tests. */
  source: string;
  /** The parameter behind each operation variable (`arg` or `arg.field`), to name it in errors. */
  wireOfVariable: Map<string, WireVariable>;
  /** GraphQL variables from decoded parameter values (by wire name). */
  variables(values: Record<string, unknown>): Record<string, unknown>;
}

class RouteError extends Error {
  constructor(route: Route, message: string) {
    super(`Route ${route.method} ${route.path}: ${message}`);
  }
}

function rootField(schema: GraphQLSchema, route: Route): { operation: 'query' | 'mutation'; field: GraphQLField<unknown, unknown> } {
  const query = schema.getQueryType()?.getFields()[route.field];
  const mutation = schema.getMutationType()?.getFields()[route.field];
  if (query && mutation) throw new RouteError(route, `field ${route.field} is both a query and a mutation`);
  if (query) return { operation: 'query', field: query };
  if (mutation) return { operation: 'mutation', field: mutation };
  throw new RouteError(route, `no Query or Mutation field named ${route.field}`);
}

/** The form decoding an argument's GraphQL type implies (Zulip's typed_endpoint does the same from Python types). */
export function decoderFor(type: GraphQLInputType): ParamType {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) {
    const item = getNamedType(inner);
    if (item.name === 'Int') return 'intList';
    if (item.name === 'String' || item.name === 'ID') return 'stringList';
    return 'json';
  }
  if (isScalarType(inner)) {
    switch (inner.name) {
      case 'Int': return 'int';
      case 'Float': return 'float';
      case 'Boolean': return 'bool';
      case 'String': case 'ID': return 'string';
      default: return 'json';
    }
  }
  if (isEnumType(inner)) return 'string';
  return 'json';
}

function isRequired(input: GraphQLArgument | GraphQLInputField): boolean {
  return isNonNullType(input.type) && input.defaultValue === undefined;
}

/** The variable type for an argument: nullable where the argument has a default, so omitting it means the default. */
function variableType(input: GraphQLArgument | GraphQLInputField): string {
  const type = isNonNullType(input.type) && input.defaultValue !== undefined ? input.type.ofType : input.type;
  return String(type);
}

/** Every field of an object type, recursively: the default selection of a route. */
export function selectAll(type: GraphQLOutputType, route: Route, seen: string[] = []): string {
  const named = getNamedType(type);
  if (!isObjectType(named)) {
    if (isScalarType(named) || isEnumType(named)) return '';
    throw new RouteError(route, `${named.name} needs an explicit selection`);
  }
  if (seen.includes(named.name)) throw new RouteError(route, `${named.name} is recursive: give an explicit selection`);
  const fields = Object.values(named.getFields())
    .filter((f) => f.args.every((a) => !isRequired(a)))
    .map((f) => `${f.name}${selectAll(f.type, route, [...seen, named.name])}`);
  return `{ ${fields.join(' ')} }`;
}

export function compileRoute(schema: GraphQLSchema, route: Route): CompiledRoute {
  const { operation, field } = rootField(schema, route);
  const { params, filled, selectionVariables } = collectParams(schema, route, field);
  const fixed = route.fixed ?? {};
  const { pattern, pathParamNames } = pathPattern(route, params);

  // The operation: every filled or fixed argument from a variable of the same name.
  const used = field.args.filter((a) => filled.has(a.name) || a.name in fixed);
  const source = operationSource(route, operation, field, used, selectionVariables);
  const document = parse(source);
  const errors = validate(schema, document);
  if (errors.length) throw new RouteError(route, `${errors.map((e) => e.message).join('; ')}\n${source}`);

  // Arguments filled field by field that the schema requires get an object even when no field was sent.
  const requiredObjects = used.filter((a) => filled.get(a.name) === 'fields' && isNonNullType(a.type)).map((a) => a.name);
  return {
    route, pattern, pathParamNames, params, document, source,
    wireOfVariable: wireOfVariables(params),
    variables: (values) => variablesOf(params, values, fixed, requiredObjects),
  };
}

/** A route's parameters as they are collected, with the arguments they fill. */
class ParamTable {
  readonly params: CompiledParam[] = [];
  /** Arguments some parameter fills, and how (whole, or field by field). */
  readonly filled = new Map<string, 'whole' | 'fields'>();
  readonly selectionVariables: [string, string][] = [];
  private readonly args: Map<string, GraphQLArgument>;

  constructor(private readonly route: Route, field: GraphQLField<unknown, unknown>) {
    this.args = new Map(field.args.map((a) => [a.name, a]));
  }

  arg(name: string, wire: string): GraphQLArgument {
    const arg = this.args.get(name);
    if (!arg) throw new RouteError(this.route, `parameter ${wire} names ${name}, which is not an argument of ${this.route.field}`);
    return arg;
  }

  fill(argName: string, how: 'whole' | 'fields'): void {
    const before = this.filled.get(argName);
    if (before && (how === 'whole' || before === 'whole')) {
      throw new RouteError(this.route, how === 'whole' ? `${argName} is filled by two parameters` : `${argName} is filled whole and field by field`);
    }
    this.filled.set(argName, how);
  }

  add(wire: string, spec: WireParam, target: ParamTarget, input?: GraphQLArgument | GraphQLInputField, type = input?.type): void {
    if (this.params.some((p) => p.wire === wire)) throw new RouteError(this.route, `parameter ${wire} is declared twice`);
    this.params.push({
      wire,
      aliases: spec.aliases ?? [],
      decode: spec.decode ?? (input ? decoderFor(input.type) : 'string'),
      required: spec.required ?? (spec.default === undefined && input !== undefined && isRequired(input) && target.kind === 'arg' && !target.field),
      default: spec.default,
      inPath: false,
      target,
      type,
      convert: spec.convert,
    });
  }
}

/** The route's declared parameters, then every other argument of its field under its own snake_case name. */
function collectParams(schema: GraphQLSchema, route: Route, field: GraphQLField<unknown, unknown>): ParamTable {
  const table = new ParamTable(route, field);
  const explicit = route.params ?? {};
  for (const [wire, spec] of Object.entries(explicit)) addDeclared(schema, route, table, explicit, wire, spec);

  const fixed = route.fixed ?? {};
  for (const name of [...Object.keys(fixed), ...(route.hidden ?? [])]) {
    table.arg(name, name);
    if (table.filled.has(name)) throw new RouteError(route, `${name} is fixed or hidden but also a parameter`);
  }
  for (const arg of field.args) {
    if (table.filled.has(arg.name) || arg.name in fixed || route.hidden?.includes(arg.name)) continue;
    table.fill(arg.name, 'whole');
    table.add(snakeCase(arg.name), {}, { kind: 'arg', arg: arg.name }, arg);
  }
  for (const arg of field.args) {
    if (isRequired(arg) && !table.filled.has(arg.name) && !(arg.name in fixed)) {
      throw new RouteError(route, `required argument ${arg.name} is hidden`);
    }
  }
  return table;
}

/** One parameter of `route.params`: a selection variable, a shape-only value, or (part of) an argument. */
function addDeclared(schema: GraphQLSchema, route: Route, table: ParamTable, explicit: Record<string, WireParam>, wire: string, spec: WireParam): void {
  if (spec.variable) {
    const name = camelCase(wire);
    const type = typeFromAST(schema, parseType(spec.variable) as any) as GraphQLInputType | undefined;
    if (!type) throw new RouteError(route, `selection variable ${wire} has an unknown type ${spec.variable}`);
    table.selectionVariables.push([name, spec.variable]);
    table.add(wire, { decode: decoderFor(type), ...spec }, { kind: 'variable', name }, undefined, type);
    return;
  }
  if (spec.variables) {
    if (!spec.convert) throw new RouteError(route, `${wire} sets several variables without a convert`);
    for (const [name, type] of Object.entries(spec.variables)) table.selectionVariables.push([name, type]);
    table.add(wire, spec, { kind: 'variables', names: Object.keys(spec.variables) });
    return;
  }
  if (spec.shapeOnly) {
    // A parameter only the shape reads must be read there (a cheap guard against dead declarations).
    if (!route.shape || !route.shape.toString().includes(wire)) throw new RouteError(route, `shape-only parameter ${wire} is never read by shape`);
    table.add(wire, spec, { kind: 'shape' });
    return;
  }
  const [argName, inputFieldName] = (spec.arg ?? camelCase(wire)).split('.') as [string, string | undefined];
  const arg = table.arg(argName, wire);
  if (spec.flatten) {
    const inputType = getNamedType(arg.type);
    if (!isInputObjectType(inputType)) throw new RouteError(route, `${wire} is flattened but ${argName} is not an input object`);
    table.filled.set(argName, 'fields');
    for (const inputField of Object.values(inputType.getFields())) {
      const fieldWire = snakeCase(inputField.name);
      if (explicit[fieldWire]) continue; // declared on its own (with `arg: 'x.y'`)
      table.add(fieldWire, {}, { kind: 'arg', arg: argName, field: inputField.name }, inputField);
    }
    return;
  }
  if (inputFieldName) {
    const inputType = getNamedType(arg.type);
    const inputField = isInputObjectType(inputType) ? inputType.getFields()[inputFieldName] : undefined;
    if (!inputField) throw new RouteError(route, `parameter ${wire} names ${argName}.${inputFieldName}, which does not exist`);
    table.fill(argName, 'fields');
    table.add(wire, spec, { kind: 'arg', arg: argName, field: inputFieldName }, inputField);
  } else {
    table.fill(argName, 'whole');
    table.add(wire, spec, { kind: 'arg', arg: argName }, arg);
  }
}

/** The path's regular expression; parameters named by path segments become required path parameters. */
function pathPattern(route: Route, params: CompiledParam[]): { pattern: RegExp; pathParamNames: string[] } {
  const pathParamNames: string[] = [];
  const pattern = new RegExp(
    '^' + route.path.replace(/\{(\w+)(:path)?\}/g, (_m, name: string, rest?: string) => {
      const param = params.find((p) => p.wire === name);
      if (!param) throw new RouteError(route, `path segment {${name}} is no parameter`);
      param.inPath = true;
      param.required = true;
      pathParamNames.push(name);
      // `{name:path}` takes the rest of the path, slashes included (Django's <path:name>).
      if (rest) return '(.+?)';
      // Integer segments match digits only, so `/users/{user_id}` and `/users/{email}` coexist.
      return param.decode === 'int' ? '(-?\\d+)' : '([^/]+)';
    }) + '/?$',
  );
  return { pattern, pathParamNames };
}

function operationSource(route: Route, operation: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, used: readonly GraphQLArgument[], selectionVariables: [string, string][]): string {
  const declarations = [
    ...used.map((a) => `$${a.name}: ${variableType(a)}`),
    ...selectionVariables.map(([name, type]) => `$${name}: ${type}`),
  ];
  const call = used.length ? `(${used.map((a) => `${a.name}: $${a.name}`).join(', ')})` : '';
  const selection = route.select !== undefined ? (route.select ? `{ ${route.select} }` : '') : selectAll(field.type, route);
  const name = `${route.method}${route.path.replace(/\{(\w+)(:path)?\}/g, '_$1').replace(/[^A-Za-z0-9_]/g, '_')}`;
  return `${operation} ${name}${declarations.length ? `(${declarations.join(', ')})` : ''} { ${route.field}${call} ${selection} ${route.alsoSelect ?? ''} }`;
}

function wireOfVariables(params: CompiledParam[]): Map<string, WireVariable> {
  const wireOfVariable = new Map<string, WireVariable>();
  for (const p of params) {
    const known = (name: string) => wireOfVariable.set(name, { wire: p.wire, type: p.type ?? GraphQLString });
    if (p.target.kind === 'arg') known(p.target.field ? `${p.target.arg}.${p.target.field}` : p.target.arg);
    if (p.target.kind === 'variable') known(p.target.name);
    if (p.target.kind === 'variables') for (const name of p.target.names) known(name);
  }
  return wireOfVariable;
}

/** GraphQL variables from decoded parameter values (by wire name). */
function variablesOf(params: CompiledParam[], values: Record<string, unknown>, fixed: Record<string, unknown>, requiredObjects: string[]): Record<string, unknown> {
  const vars: Record<string, unknown> = { ...fixed };
  for (const name of requiredObjects) vars[name] = {};
  for (const p of params) {
    let value = values[p.wire];
    if (value === undefined || p.target.kind === 'shape') continue;
    if (p.convert) value = p.convert(value);
    const target = p.target;
    if (target.kind === 'arg' && target.field) ((vars[target.arg] ??= {}) as Record<string, unknown>)[target.field] = value;
    else if (target.kind === 'arg') vars[target.arg] = value;
    else if (target.kind === 'variable') vars[target.name] = value;
    else if (target.kind === 'variables') Object.assign(vars, value);
  }
  return vars;
}

/** Compiles the whole table; literal segments win over templates (`/users/me` before `/users/{user_id}`). */
export function compileRoutes(schema: GraphQLSchema, routes: Route[]): CompiledRoute[] {
  const compiled = routes.map((route) => compileRoute(schema, route));
  const seen = new Set<string>();
  for (const c of compiled) {
    const key = `${c.route.method} ${c.route.path}`;
    if (seen.has(key)) throw new RouteError(c.route, 'declared twice');
    seen.add(key);
  }
  return compiled.sort((a, b) => a.pathParamNames.length - b.pathParamNames.length);
}
