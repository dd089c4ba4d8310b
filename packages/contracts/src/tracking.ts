import { z } from 'zod';

/** Longest page name a visit may carry (a route path). */
export const pageVisitNameMaxLength = 200;
/** Longest value of each extra field data_1..data_5. */
export const pageVisitDataMaxLength = 500;

const extraData = z
  .string()
  .max(pageVisitDataMaxLength, `must be at most ${pageVisitDataMaxLength} characters`)
  .optional();

/**
 * The tracker's page-visit post (core-inbox §7 Commerce: POST tracker/page-visitation):
 * the page's name and up to five free fields the client fills as it likes.
 */
export const pageVisitBody = z.object({
  pageName: z
    .string()
    .trim()
    .min(1, 'pageName is required')
    .max(pageVisitNameMaxLength, `pageName must be at most ${pageVisitNameMaxLength} characters`),
  data_1: extraData,
  data_2: extraData,
  data_3: extraData,
  data_4: extraData,
  data_5: extraData,
});
export type PageVisitBody = z.infer<typeof pageVisitBody>;

/** Whether the visit was kept: false for a client the tracker is off for (nothing written). */
export const pageVisitResponse = z.object({ recorded: z.boolean() });
export type PageVisitResponse = z.infer<typeof pageVisitResponse>;

/**
 * Whether tracking (page visits and the client log post) is on for the caller's client;
 * the spec turns it on only for configured client ids (core-inbox §9).
 */
export const trackerConfigResponse = z.object({ enabled: z.boolean() });
export type TrackerConfigResponse = z.infer<typeof trackerConfigResponse>;

/** Type of the client log post that carries the request timing log. */
export const requestTimingLogType = 'REQUEST_TIMING';
/** The timing window: one entry per 60 s of calls (core-inbox §7 Request timing log). */
export const requestTimingWindowMs = 60_000;
/** An average above 10 s is reported as an error. */
export const requestTimingErrorAverageMs = 10_000;
/** How many entries the client keeps. */
export const requestTimingMaxEntries = 100;

/**
 * One closed window of the request timing log: average time, success and error counts and
 * the slowest path (ids replaced by `:id`, no query).
 */
export const requestTimingEntry = z.object({
  at: z.string(),
  averageMs: z.number().nonnegative(),
  successCount: z.number().int().nonnegative(),
  errorCount: z.number().int().nonnegative(),
  slowestPath: z.string(),
  slowestMs: z.number().nonnegative(),
  level: z.enum(['info', 'error']),
});
export type RequestTimingEntry = z.infer<typeof requestTimingEntry>;
