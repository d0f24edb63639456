// What any request may carry, checked where input enters (the REST facade's parameter decoder and
// body reader, and every GraphQL operation's variables and literals), before anything recursive
// or the database sees it: JSON nesting, and text PostgreSQL cannot store. GraphQL documents are
// bounded by GraphQL Armor (tokens, depth, aliases, directives, cost).
import { GraphQLError, Kind, visit, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { InvalidArgumentError } from '../resolvers/errors.ts';

export const INPUT_LIMITS = {
  /**
   * Nesting of a JSON value: a parameter, a body, a GraphQL variable. Zulip's deepest legitimate
   * inputs (narrows, subscription lists, group-setting values) need 3 levels; JSON.stringify and
   * GraphQL's coercion recurse, so unbounded nesting would overflow the stack.
   */
  jsonDepth: 32,
  graphql: {
    /** Lexer tokens in one document: bounds the (recursive) parser before it starts. */
    tokens: 1000,
    /** Selection depth (GraphiQL's introspection query is exempt). */
    depth: 15,
    aliases: 30,
    directives: 50,
    /** GraphQL Armor's cost (objects 2, scalars 1, ×1.5 per level). */
    cost: 5000,
  },
} as const;

/**
 * Why PostgreSQL could not store this text, or null: NUL (refused in text, 22021) and unpaired
 * UTF-16 surrogates (no UTF-8 encoding; `\ud800` in jsonb is refused, in text silently replaced).
 */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains NULL (0x00) characters.';
  if (!text.isWellFormed()) return 'contains an unpaired surrogate (not valid Unicode).';
  return null;
}

/**
 * Why a decoded value may not go further, or null: nesting beyond INPUT_LIMITS.jsonDepth, or a
 * string (value or key) PostgreSQL could not store. Iterative, so no input can overflow the stack.
 */
export function inputProblem(value: unknown): string | null {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [current, depth] = stack.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return problem;
    } else if (current !== null && typeof current === 'object' && !ArrayBuffer.isView(current)) {
      // Bytes (an uploaded file) are no JSON: nothing in them is nested or stored as text.
      if (depth >= INPUT_LIMITS.jsonDepth) return `is nested too deeply (limit: ${INPUT_LIMITS.jsonDepth} levels).`;
      if (Array.isArray(current)) {
        for (const item of current) stack.push([item, depth + 1]);
      } else {
        for (const [key, item] of Object.entries(current)) {
          const problem = textProblem(key);
          if (problem) return problem;
          stack.push([item, depth + 1]);
        }
      }
    }
  }
  return null;
}

/** Throws Zulip's BAD_REQUEST naming the parameter when `inputProblem` finds one. */
export function checkInput(name: string, value: unknown): void {
  const problem = inputProblem(value);
  if (problem) throw new InvalidArgumentError(name, `${name} ${problem}`);
}

/** The one JSON decoder for request input: JSON.parse (iterative in V8), then `checkInput`. */
export function decodeJson(name: string, text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidArgumentError(name, `Argument "${name}" is not valid JSON.`);
  }
  checkInput(name, value);
  return value;
}

function badRequest(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', httpStatus: 400 } });
}

/** The first variable or string literal of an operation that `inputProblem` refuses. */
export function operationProblem(document: DocumentNode, variables: unknown): GraphQLError | null {
  if (variables && typeof variables === 'object') {
    for (const [name, value] of Object.entries(variables)) {
      const problem = inputProblem(value);
      if (problem) return badRequest(`Variable "$${name}" ${problem}`);
    }
  }
  let literal = literalProblems.get(document);
  if (literal === undefined) {
    let found: string | null = null;
    visit(document, {
      [Kind.STRING]: (node) => {
        const problem = textProblem(node.value);
        if (problem && !found) found = `String literal ${problem}`;
      },
    });
    literalProblems.set(document, (literal = found));
  }
  return literal === null ? null : badRequest(literal);
}

/**
 * What operationProblem found in a document's literals: the REST facade runs the same few
 * documents (and yoga's parser cache hands back the same ones), so each is walked once.
 */
const literalProblems = new WeakMap<DocumentNode, string | null>();

/** Refuses operations whose variables or literals `inputProblem` refuses (HTTP, WebSocket and the REST facade). */
function useInputChecks(): Plugin {
  return {
    onExecute: ({ args, setResultAndStopExecution }) => {
      const error = operationProblem(args.document, args.variableValues);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      const error = operationProblem(args.document, args.variableValues);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}

/** Every limit on GraphQL operations, as yoga plugins. */
export function inputLimitPlugins(): Plugin[] {
  const { graphql } = INPUT_LIMITS;
  return [
    EnvelopArmorPlugin({
      maxTokens: { n: graphql.tokens, exposeLimits: true },
      maxDepth: { n: graphql.depth, ignoreIntrospection: true, exposeLimits: true },
      maxAliases: { n: graphql.aliases, exposeLimits: true },
      maxDirectives: { n: graphql.directives, exposeLimits: true },
      costLimit: { maxCost: graphql.cost, ignoreIntrospection: true, exposeLimits: true },
      // Field suggestions help humans in GraphiQL; the schema is public through introspection anyway.
      blockFieldSuggestion: { enabled: false },
    }) as Plugin,
    useInputChecks(),
  ];
}
