// Counts as people read them (25,165,824) for the results page: the core's one formatter, without Intl's
// number formatting, whose per-call cost showed in the grouped summary's profile (issue 40).
export { thousands } from '../core/thousands';
