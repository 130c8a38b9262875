// The flags of the chaos check, its CI size (--small), and the seeded random streams a run draws from.
import { parseArgs } from '../../../bench/lib/stats.mjs';

const HELP = `npm run chaos -- [--small] [--executors 4] [--jobs 100] [--tasks 1500] [--duration 90] [--kill-every 3]
  [--leader-share 0.25] [--stall-share 0.15] [--work-ms 20-300] [--delayed-share 0.3] [--fail-share 0.1]
  [--settle 120] [--seed N]
  [--env K=V,K=V] [--keep] [--db mysql://root@127.0.0.1:3306/test] [--redis redis://127.0.0.1:6379]
npm run chaos -- --kill-latency 20 [--executors 3] [--parallel 1] [--target 20] [--env K=V] [--seed N]`;

const DEFAULTS = {
  small: false,
  executors: 4,
  jobs: 100,
  tasks: 1500,
  duration: 90,
  'kill-every': 3,
  'leader-share': 0.25,
  'stall-share': 0.15,
  'work-ms': '20-300',
  'delayed-share': 0.3,
  'fail-share': 0.1,
  settle: 120,
  seed: 0,
  env: '',
  keep: false,
  help: false,
  'kill-latency': 0,
  parallel: 1,
  target: 20,
  db: process.env.CHAOS_DB_URL ?? 'mysql://root@127.0.0.1:3306/test',
  redis: process.env.CHAOS_REDIS_URL ?? 'redis://127.0.0.1:6379',
};
/** `--small`: the CI size (about a minute in all on a 2-core machine). Explicit flags still win. */
const SMALL = { executors: 3, jobs: 24, tasks: 240, duration: 25, 'kill-every': 2.5, settle: 60 };

/**
 * The run's options from the command line `argv` (DEFAULTS, then --small, then the flags given; a random seed
 * unless --seed). Prints the usage and exits: 2 on a bad flag (on stderr, after the reason), 0 on --help.
 */
export function readOptions(argv) {
  let args;
  try {
    args = parseArgs(DEFAULTS, argv);
  } catch (err) {
    console.error(`chaos: ${err.message}\n${HELP}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(HELP);
    process.exit(0);
  }
  if (args.small) {
    const given = new Set(argv.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')[0]));
    for (const [k, v] of Object.entries(SMALL)) if (!given.has(k)) args[k] = v;
  }
  if (!args.seed) args.seed = Math.floor(Math.random() * 2 ** 31);
  return args;
}

/** Seeded PRNG (mulberry32), so a failing run can be replayed with --seed. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
