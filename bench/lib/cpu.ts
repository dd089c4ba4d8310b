// CPU time by process, read from /proc: on a machine whose cores the server, PostgreSQL and
// the load generator share, a figure is the sum of everybody's CPU per request, so the benches
// say whose it is.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times (USER_HZ, 100 on Linux). */
const ticksPerSecond = 100;

/**
 * The fields of a process's or thread's `stat` after its name (which may hold spaces and
 * parentheses): [0] is the state, [1] the parent, [11] and [12] the user and system ticks.
 */
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
}

/** CPU time (user + system) in ms, from a `stat`'s fields. */
function cpuMsOfFields(fields: string[]): number {
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** CPU time (user + system) the processes have used, in ms. */
export function cpuMsOf(pids: number[]): number {
  let ms = 0;
  for (const pid of pids) ms += cpuMsOfFields(statFields(readFileSync(`/proc/${pid}/stat`, 'utf8')));
  return ms;
}

/** Every running PostgreSQL process (the bench's database is on this machine). */
export function postgresPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim().startsWith('postgres')) pids.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/**
 * CPU time of processes that come and go (PostgreSQL backends), by pid: a backend that starts
 * during the run counts whole, one that ends during it is lost (the pool keeps its own open).
 */
export function cpuMsByPid(pids: number[]): Map<number, number> {
  const used = new Map<number, number>();
  for (const pid of pids) {
    try {
      used.set(pid, cpuMsOf([pid]));
    } catch {
      // ended
    }
  }
  return used;
}

/** PostgreSQL's CPU time since `before` (a `cpuMsByPid(postgresPids())`). */
export function postgresCpuMsSince(before: Map<number, number>): number {
  let total = 0;
  for (const [pid, now] of cpuMsByPid(postgresPids())) total += now - (before.get(pid) ?? 0);
  return total;
}

/**
 * The machine's cores as /proc/stat counts them, in ticks: `busy` is every tick not idle (the
 * kernel's work for the loopback's packets too, which no process's own times hold), `all`
 * every tick of every core.
 */
function machineTicks(): { busy: number; all: number } {
  const fields = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]
    .trim()
    .split(/\s+/)
    .slice(1, 9)
    .map(Number);
  const all = fields.reduce((sum, ticks) => sum + ticks, 0);
  // user nice system idle iowait irq softirq steal: idle and iowait are the cores' waiting.
  return { busy: all - fields[3] - fields[4], all };
}

/** CPU per request of one measured stretch, by process, and how busy the machine's cores were. */
export interface CpuSplit {
  serverMs: number;
  databaseMs: number;
  loadMs: number;
  /**
   * The share of all the machine's cores that was busy during the stretch (0–1), whoever used
   * it: when it is near 1, no process more on this machine could have added capacity.
   */
  machineBusy?: number;
}

/** `CPU a request: server 0.41, PostgreSQL 0.62, load 0.18 ms; the cores 97% busy`. */
export function formatCpuSplit(split: CpuSplit): string {
  const busy =
    split.machineBusy === undefined ? '' : `; the cores ${(split.machineBusy * 100).toFixed(0)}% busy`;
  return `CPU a request: server ${split.serverMs.toFixed(2)}, PostgreSQL ${split.databaseMs.toFixed(2)}, load ${split.loadMs.toFixed(2)} ms${busy}`;
}

/**
 * Starts counting the servers' and PostgreSQL's CPU; `end(requests)` gives each per request
 * since the start. The load's own CPU is counted by the load process itself (`loadCpuMs`).
 */
export function startCpuCount(serverPids: number[]): { end(requests: number): Omit<CpuSplit, 'loadMs'> } {
  const server = cpuMsOf(serverPids);
  const database = cpuMsByPid(postgresPids());
  const machine = machineTicks();
  return {
    end(requests) {
      const per = Math.max(1, requests);
      const now = machineTicks();
      return {
        serverMs: (cpuMsOf(serverPids) - server) / per,
        databaseMs: postgresCpuMsSince(database) / per,
        machineBusy: (now.busy - machine.busy) / Math.max(1, now.all - machine.all),
      };
    },
  };
}

/** The processes below `root` (its children, theirs, and so on), read from /proc. */
export function descendantPids(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(statFields(readFileSync(`/proc/${entry}/stat`, 'utf8'))[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // ended
    }
  }
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** CPU time (ms) of each thread of the processes, keyed `pid/tid`, with the thread's name. */
function threadTimes(pids: number[]): Map<string, { pid: number; name: string; ms: number }> {
  const times = new Map<string, { pid: number; name: string; ms: number }>();
  for (const pid of pids) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        times.set(`${pid}/${tid}`, { pid, name, ms: cpuMsOfFields(statFields(stat)) });
      } catch {
        // ended
      }
    }
  }
  return times;
}

/**
 * The threads of the processes that used CPU during `ms`, busiest first: each with its process's
 * kind (Chromium's `--type=`, or the command's name) and its share of one core.
 */
export async function busyThreads(
  pids: number[],
  ms: number,
): Promise<Array<{ process: string; thread: string; coreShare: number }>> {
  const kindOf = (pid: number) => {
    try {
      // Chromium rewrites its command line as one string; its processes other than the browser
      // name their kind with --type=.
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const type = /--type=(\S+)/.exec(command)?.[1];
      return `${type ?? readFileSync(`/proc/${pid}/comm`, 'utf8').trim()} ${pid}`;
    } catch {
      return `? ${pid}`;
    }
  };
  const before = threadTimes(pids);
  await new Promise((resolve) => setTimeout(resolve, ms));
  const busy: Array<{ process: string; thread: string; coreShare: number }> = [];
  for (const [key, after] of threadTimes(pids)) {
    const used = after.ms - (before.get(key)?.ms ?? 0);
    if (used > 0) busy.push({ process: kindOf(after.pid), thread: after.name, coreShare: used / ms });
  }
  return busy.sort((a, b) => b.coreShare - a.coreShare).slice(0, 12);
}
