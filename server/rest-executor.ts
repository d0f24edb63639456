// How the REST facade runs its operations: each route's document is fixed at start-up, so it is
// compiled once (graphql-jit) instead of being interpreted on every request, and a request skips
// the per-request envelop setup that only /graphql's own documents need (parsing, validation,
// GraphQL Armor's limits). What every operation gets, whatever the transport, stays the same: the
// context from createContext, the refusal of refused credentials and of incoming-webhook bots
// (operationRefusal), the checks of variables and literals (operationProblem), and errors masked
// by the one maskError.
import { GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Executor } from '../rest-facade/app.ts';
import type { Context } from '../schema/context.ts';
import { maskError } from '../schema/errors.ts';
import { operationRefusal, type RequestFacts } from './context.ts';
import { operationProblem } from './input-limits.ts';

/** yoga's message for masked errors, so both transports report an unexpected failure alike. */
const MASKED_MESSAGE = 'Unexpected error.';

export function compiledRestExecutor(schema: GraphQLSchema, buildContext: (facts: RequestFacts) => Promise<Context>): Executor {
  const compiled = new WeakMap<DocumentNode, CompiledQuery>();
  const compiledFor = (document: DocumentNode): CompiledQuery => {
    let query = compiled.get(document);
    if (!query) {
      const result = compileQuery(schema, document, undefined, {
        // Stacks of expected errors (a bad queue id, a missing message) are never read.
        disablingCapturingStackErrors: true,
      });
      // The facade validated every document at start-up (rest-facade/compile.ts): a document
      // that does not compile is a bug of the route table.
      if (!isCompiledQuery(result)) throw new Error(`REST document does not compile: ${result.errors?.map((e) => e.message).join('; ')}`);
      compiled.set(document, (query = result));
    }
    return query;
  };

  const mask = (result: ExecutionResult): ExecutionResult =>
    result.errors?.length ? { ...result, errors: result.errors.map((error) => maskError(error, MASKED_MESSAGE) as GraphQLError) } : result;

  return async (document, variables, facts) => {
    const query = compiledFor(document);
    let contextValue: Context;
    try {
      contextValue = await buildContext(facts);
    } catch (error) {
      throw maskError(error, MASKED_MESSAGE);
    }
    const stop = operationRefusal({ document, contextValue }) ?? operationProblem(document, variables);
    if (stop) return mask({ errors: [stop] });
    return mask(await query.query(undefined, contextValue, variables));
  };
}
