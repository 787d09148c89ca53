// The gateway's three periods, `day`, `week` and `month`: a schedule's `period` column, and the same words
// wherever the product counts by them (a forecast's buckets, a query's date grouping). The one list; every
// face reads it from here.

export const PERIODS = ['day', 'week', 'month'] as const;

export type Period = (typeof PERIODS)[number];

export const isPeriod = (v: unknown): v is Period => (PERIODS as readonly unknown[]).includes(v);
