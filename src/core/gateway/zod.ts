// The core's one door to zod: the mini build, imported by name so the bundle keeps only what the schemas
// use (the whole classic API was ~430 KB of dist/extension.js). Mini loads no locale; the English one is
// where every message a user reads comes from ("Too small: expected string…"), as in classic zod.
import { config, globalRegistry } from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import type { GlobalMeta } from 'zod/v4/core';
import en from 'zod/v4/locales/en.js';

config(en());

/** Attaches JSON Schema metadata (description, examples, title), as classic zod's `.meta()` does. */
export function described<T extends ZodMiniType>(schema: T, meta: GlobalMeta): T {
  globalRegistry.add(schema, meta);
  return schema;
}

export {
  _default,
  array,
  boolean,
  enum as oneOf,
  length,
  looseObject,
  minLength,
  number,
  object,
  optional,
  positive,
  refine,
  string,
  strictObject,
  superRefine,
  nullable,
  toJSONSchema,
  unknown,
  type output,
} from 'zod/mini';
export type { $ZodError } from 'zod/v4/core';
