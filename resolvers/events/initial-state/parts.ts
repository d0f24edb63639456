// Register's initial data, contributed by the areas that own it: an area declares which fetch
// types (POST /register's `fetch_event_types`) its part answers and how to build it, beside its
// actions and events. Register asks each part whose fetch types the client wants; it knows no area.
import type { InitialState, Json } from './state.ts';

export interface StatePart {
  /** The fetch types this part answers; it runs when the client wants any of them. */
  fetchTypes: readonly string[];
  /** The part's fields, in Zulip's wire names; read `s.want(type)` to leave out unwanted ones. */
  build(s: InitialState): Promise<Json>;
}

const parts: StatePart[] = [];

export function initialStatePart(fetchTypes: readonly string[], build: (s: InitialState) => Promise<Json>): void {
  parts.push({ fetchTypes, build });
}

/** A part that fills in its fields on a fresh object: `section(s, state)` sets them on `state`. */
export function initialStateSection(fetchTypes: readonly string[], section: (s: InitialState, state: Json) => Promise<void>): void {
  initialStatePart(fetchTypes, async (s) => {
    const state: Json = {};
    await section(s, state);
    return state;
  });
}

/** The parts the client wants, built concurrently. */
export function buildParts(s: InitialState): Promise<Json>[] {
  return parts.filter((p) => p.fetchTypes.some((type) => s.want(type))).map((p) => p.build(s));
}
