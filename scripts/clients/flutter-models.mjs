#!/usr/bin/env node
// Writes test/clients/flutter-models.json: for each model class of Zulip's Flutter app
// (zulip/zulip-flutter, lib/api/{model,route}/*.g.dart, the generated JSON decoders), the wire fields its
// decoder reads, which of them it requires, and their JSON types. test/clients/flutter.test.ts
// checks Parley's responses and events against it, as the app would decode them.
//
// Only facts about the wire format are kept (names, types, required or not); no code of the app.
// Usage: node scripts/clients/flutter-models.mjs [path to a zulip-flutter checkout]
//        (default $CLIENTS_SRC/zulip-flutter, CLIENTS_SRC defaulting to /work/clients-src)
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const checkout = process.argv[2] ?? path.join(process.env.CLIENTS_SRC ?? '/work/clients-src', 'zulip-flutter');
const sourceDirs = ['model', 'route'].map((dir) => path.join(checkout, 'lib', 'api', dir));

/** Splits `a: x, b: f(y, z)` at top-level commas (not inside (), [], {} or a generic's <>). */
function splitTopLevel(text) {
  const parts = [];
  let depth = 0;
  let angle = 0;
  let quote = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote && text[i - 1] !== '\\') quote = null;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === '<' && /[A-Za-z]/.test(text[i + 1] ?? '')) angle++;
    else if (c === '>' && angle > 0 && text[i - 1] !== '=') angle--;
    else if (c === ',' && depth === 0 && angle === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** The text between the parenthesis at `open` and its match. */
function enclosed(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error('unbalanced parentheses');
}

const JSON_TYPES = { num: 'number', String: 'string', bool: 'boolean', 'List<dynamic>': 'array', 'Map<String, dynamic>': 'object', List: 'array' };

/** One constructor argument of a generated decoder → the field it reads. */
function describeField(expr) {
  const key = /json\['([^']+)'\]/.exec(expr)?.[1] ?? /\(\s*json,\s*'([^']+)'/.exec(expr)?.[1];
  if (!key) return null;
  const compact = expr.replace(/\s+/g, ' ');
  const field = { key };
  // A value the decoder does not insist on: `as T?`, a `??` default, a null check, or $enumDecodeNullable.
  const directCast = new RegExp(`(?:json\\['${key}'\\]|\\(json, '${key}'\\))\\)? as ([A-Za-z<>, ]+?)(\\?)?(?:\\)|,|$| |\\.)`).exec(compact);
  const optional = /\?\s*\)?\s*\?\?/.test(compact) || / as [A-Za-z]+(<[^>]*>)?\?/.test(compact.split('.map(')[0]) || compact.includes('== null') ||
    compact.includes('$enumDecodeNullable') || (directCast && directCast[2] === '?');
  field.required = !optional;
  if (directCast && JSON_TYPES[directCast[1].trim()]) field.type = JSON_TYPES[directCast[1].trim()];
  if (compact.includes('$enumDecode')) field.enum = true;
  // Nested models: a list of them, a map of them, or one.
  const nested = /([A-Z]\w*)\.fromJson\(/.exec(compact.replace(/^[^=]*=>/, ''));
  if (nested && nested[1] !== 'DateTime' && !compact.startsWith(`${nested[1]}.fromJson(json)`)) {
    if (/\.map\(\s*\(e\)/.test(compact)) field.items = nested[1];
    else if (/\.map\(\s*\(k, e\)/.test(compact)) field.values = nested[1];
    else field.model = nested[1];
  }
  // Hand-written readers decide for themselves: `Message._reactionsFromJson(json['reactions'])`
  // still needs the key; a readValue helper `X._readY(json, 'key')` may compute the value from
  // other keys (or fall back), so its key is not checked at all.
  if (/[A-Z]\w*\._\w+\(json\['/.test(compact) && !field.type) {
    field.custom = true;
    // The helper decides whether the key may be absent (TypingEvent's recipients may); not known here.
    field.required = false;
  }
  const reader = /([A-Z]\w*\._read\w+)\(\s*json,\s*'/.exec(compact);
  if (reader) {
    field.custom = true;
    field.required = false;
    field.reader = reader[1];
    delete field.type;
  }
  return field;
}

const models = {};
for (const file of sourceDirs.flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.g.dart')).sort().map((f) => path.join(dir, f)))) {
  const source = readFileSync(file, 'utf8');
  // `X _$XFromJson(Map<String, dynamic> json) => X(...)`: the constructor call's arguments.
  for (const match of source.matchAll(/^\w+ _\$(\w+)FromJson\(\s*Map<String, dynamic> json,?\s*\)\s*=>\s*(\w+)\(/gm)) {
    const [whole, name] = match;
    const body = enclosed(source, match.index + whole.length - 1);
    const fields = splitTopLevel(body)
      .map((arg) => describeField(arg.replace(/^\w+:\s*/, '')))
      .filter(Boolean);
    models[name] = { file: path.relative(checkout, file), fields };
  }
}

const commit = (() => {
  try {
    return execFileSync('git', ['-C', checkout, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return process.env.FLUTTER_COMMIT ?? 'unknown';
  }
})();
const out = {
  description: 'Wire fields read by the decoders of zulip/zulip-flutter (lib/api/model/*.g.dart); generated by scripts/clients/flutter-models.mjs.',
  source: `zulip/zulip-flutter@${commit}`,
  models,
};
const target = path.join(repo, 'test', 'clients', 'flutter-models.json');
writeFileSync(target, JSON.stringify(out, null, 1) + '\n');
console.log(`${Object.keys(models).length} models → ${path.relative(process.cwd(), target)}`);
