import type { Fault } from './standIn';

// The fault model of docs/submissions.md ("What each fault does"), as the suite checks it: for each
// fault of the gateway or the way to it, the exit codes `paygate submit` may end with, the outcome it
// names, and whether a plain re-run of the same file is sent (true), refused (false), or either (the
// client cannot know whether the last byte left: 'either').

export interface Expected {
  exits: number[];
  outcome: RegExp;
  rerunSends: boolean | 'either';
}

export const MODEL: Record<Fault, Expected> = {
  ok: { exits: [0], outcome: /^Accepted/, rerunSends: false },
  'ok-gzip': { exits: [0], outcome: /^Accepted/, rerunSends: false },
  'slow-ok': { exits: [0], outcome: /^Accepted/, rerunSends: false },
  'typed-500-success': { exits: [1], outcome: /^Unrecognised answer \(HTTP 500/, rerunSends: false },
  'typed-500-error': { exits: [1], outcome: /^Server error \(HTTP 500, error ID e-1\)/, rerunSends: true },
  'typed-503-error': { exits: [1], outcome: /^Server error \(HTTP 503/, rerunSends: true },
  'proxy-502-empty': { exits: [5], outcome: /^OUTCOME UNKNOWN \(gateway-unavailable\)/, rerunSends: false },
  'proxy-504-html': { exits: [5], outcome: /^OUTCOME UNKNOWN \(gateway-unavailable\)/, rerunSends: false },
  'proxy-503-text': { exits: [5], outcome: /^OUTCOME UNKNOWN \(gateway-unavailable\)/, rerunSends: false },
  'html-500': { exits: [5], outcome: /^OUTCOME UNKNOWN \(gateway-unavailable\)/, rerunSends: false },
  'reset-before': { exits: [4, 5], outcome: /^(Not delivered|OUTCOME UNKNOWN \(connection-lost\))/, rerunSends: 'either' },
  'reset-after': { exits: [5], outcome: /^OUTCOME UNKNOWN \(connection-lost\)/, rerunSends: false },
  trickle: { exits: [5], outcome: /^OUTCOME UNKNOWN \(timeout\)/, rerunSends: false },
  truncate: { exits: [5], outcome: /^OUTCOME UNKNOWN \(truncated\)/, rerunSends: false },
  silent: { exits: [5], outcome: /^OUTCOME UNKNOWN \(timeout\)/, rerunSends: false },
  'untyped-500-error-id': { exits: [1], outcome: /^Server error \(HTTP 500, error ID e-2\)/, rerunSends: true },
  'over-1mib': { exits: [5], outcome: /^OUTCOME UNKNOWN \(truncated\)/, rerunSends: false },
  'bad-gzip': { exits: [5], outcome: /^OUTCOME UNKNOWN \(truncated\)/, rerunSends: false },
  'ok-deflate': { exits: [0], outcome: /^Accepted/, rerunSends: false },
  'ok-br': { exits: [0], outcome: /^Accepted/, rerunSends: false },
  'too-large-413-text': { exits: [1], outcome: /^Rejected as too large \(HTTP 413\)/, rerunSends: true },
  'too-large-413-html': { exits: [1], outcome: /^Rejected as too large \(HTTP 413\)/, rerunSends: true },
};
