// How the inbox bench puts load on its lines (bench:inbox): the load spec for a set of targets,
// a figure at `connections` with the CPU each request cost by process, the load at a fixed rate
// (the open loop), and each target alone on one connection (the probes).
import { startCpuCount } from './cpu';
import { type LoadResult, type LoadSpec, type LoadTarget, runLoad } from './load';
import type { RunningProcess } from './processes';
import { failureStatuses } from './report';

export interface InboxLoadOptions {
  /** The product's servers: the lines' requests are spread over them. */
  servers: RunningProcess[];
  /** The bare server: a figure asked of its URL counts its CPU. */
  bare: RunningProcess;
  connections: number;
  durationSeconds: number;
  /** Requests of each probe. */
  probeRequests: number;
  /**
   * Seconds of the same load, thrown away, before a figure's clock and CPU count start: a
   * server that has not yet compiled a line's code and prepared its statements on every pooled
   * connection is not the server that serves all day (0 for none).
   */
  warmupSeconds: number;
  /** Headers sent with every request (an accept-encoding, to be answered as a browser is). */
  headers?: Record<string, string>;
}

/** Prints how many requests of a line failed, by status, when any did. */
export function warnFailures(label: string, result: LoadResult): void {
  if (result.failures > 0)
    console.log(`    ! ${label}: ${result.failures} failed (${failureStatuses(result)})`);
}

/** A probe's label: the target's path without the page size, its cursor cut short. */
export const pathOf = (target: LoadTarget) =>
  target.path.replace(/&pageSize=50/, '').replace(/cursor=([^&]{8})[^&]*/, 'cursor=$1…');

/** The inbox bench's ways of loading targets, on the product's servers unless told other base URLs. */
export function inboxLoad({
  servers,
  bare,
  connections,
  durationSeconds,
  probeRequests,
  warmupSeconds,
  headers: everyRequest = {},
}: InboxLoadOptions) {
  /** The load spec for some targets; a token every target shares goes in the spec's headers. */
  const specOf = (baseUrls: string[], targets: LoadTarget[], extra: Partial<LoadSpec> = {}): LoadSpec => {
    const tokens = new Set(targets.map((target) => target.headers?.authorization));
    const shared = tokens.size === 1 ? [...tokens][0] : undefined;
    const spec: LoadSpec = {
      baseUrls,
      connections,
      durationSeconds,
      warmupRequests: connections * 2,
      headers: { ...everyRequest, ...(shared ? { authorization: shared } : {}) },
      targets: shared ? targets.map(({ headers: _headers, ...target }) => target) : targets,
      ...extra,
    };
    if (JSON.stringify(spec).length > 120_000) throw new Error('the load spec is too long for one argument');
    return spec;
  };
  const apiUrls = servers.map((server) => server.url);
  /**
   * A figure at `connections`, with the CPU each request cost the servers, PostgreSQL and the
   * load; after `warmupSeconds` of the same load unless `warm` is false (writes whose side
   * effects, such as delivery jobs, would fall into the figure).
   */
  /** The load of a spec, with the CPU each request cost the servers (or the bare one), PostgreSQL and the load. */
  const counted = async (spec: LoadSpec, baseUrls: string[]) => {
    const pids = baseUrls === apiUrls ? servers.map((server) => server.pid) : [bare.pid];
    const counting = startCpuCount(pids);
    const result = await runLoad(spec);
    const used = counting.end(result.count + (spec.warmupRequests ?? 0));
    result.cpu = { ...used, loadMs: result.loadCpuMs ?? 0 };
    return result;
  };
  const measure = async (targets: LoadTarget[], baseUrls = apiUrls, warm = true) => {
    const spec = specOf(baseUrls, targets);
    if (warm && warmupSeconds > 0) {
      await runLoad({ ...spec, durationSeconds: warmupSeconds, warmupRequests: 0 });
    }
    return counted(spec, baseUrls);
  };
  /** Each target alone on one connection: which filter or keyword costs what. */
  const probe = async (targets: LoadTarget[], labelOf: (target: LoadTarget) => string) => {
    const probes: Array<{ label: string; result: LoadResult }> = [];
    for (const target of targets) {
      const result = await runLoad(
        specOf(apiUrls, [target], {
          connections: 1,
          requests: probeRequests,
          warmupRequests: 1,
        }),
      );
      probes.push({ label: labelOf(target), result });
      warnFailures(labelOf(target), result);
    }
    return probes;
  };
  /** The load at a fixed rate: requests start on the clock and are timed from when they were due. */
  const atRate = (rate: number, targets: LoadTarget[], baseUrls = apiUrls) =>
    counted(specOf(baseUrls, targets, { rate, warmupRequests: connections }), baseUrls);
  return { measure, probe, atRate };
}
