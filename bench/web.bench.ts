/**
 * `npm run bench:web` (issue 18; issue 35 goal 3): Lighthouse (mobile preset, simulated throttling)
 * against the production web build served by the real server, on `/`, `/auth` and `/dashboard`
 * (signed in), measured against a floor page in the same run.
 *
 * 1. The web app is built with `vite build` into a private folder under .data-test/ (or, with
 *    BENCH_WEB_DIR=<dir> holding a build, that build is used as it is). The floor page
 *    (bench/floor/: React 19 and Mantine, at the project's versions, rendering only a bare sign-in
 *    form) is built beside it and served by a small HTTP server in this process the way the real
 *    server serves the app: the brotli copy, a year of `immutable` caching for the hashed assets.
 * 2. The real server, compiled as `npm start` runs it (`node dist/server/main.js`), runs in a child process with
 *    NODE_ENV=production, WEB_DIST_DIR pointing at the build, random AUTH_SECRET and
 *    FIELD_ENCRYPTION_KEYS, and SMTP_URL pointing at an SMTP receiver in this process (production
 *    requires all three). Database: a fresh one on DATABASE_URL's server (default
 *    postgres://postgres@127.0.0.1:5432/postgres), dropped afterwards; when that server cannot be
 *    reached, an embedded cluster in the bench's temporary folder (as a fresh clone has).
 * 3. One provider signs up, confirms through the mail the receiver caught, signs in and starts an
 *    application. For /dashboard only, Chromium's cookie jar holds that session cookie, and Lighthouse
 *    keeps it (no storage reset: each run is a fresh Chromium anyway), as a signed-in browser holds
 *    it: a cookie the app itself sets would replace a Cookie header given as an extra header.
 * 4. Interleaved: run k of the floor, '/', '/auth' and '/dashboard', then run k+1, BENCH_RUNS rounds
 *    (default 3; each run in a fresh Debian Chromium, CHROME_PATH or /usr/bin/chromium), so a change
 *    of the machine's load falls on every page alike. Each figure reported is the median of its runs
 *    (per figure): the four category scores, LCP, TBT, CLS, and the JavaScript and CSS the page
 *    loaded (same origin): bytes transferred (brotli when served so) and gzip size.
 *
 * BENCH_REPORT_DIR=<dir> keeps every run's full Lighthouse report (JSON) there.
 * BENCH_LANTERN=1 prints, after each run, the critical path of Lighthouse's simulated LCP (its
 * optimistic and pessimistic graphs, whose mean is the LCP reported): the chain of requests and
 * main-thread tasks, each waiting on the one before it, that ends last, with simulated times.
 * BENCH_THROTTLING=devtools applies the mobile network and CPU throttling to the real load instead of
 * simulating it from an unthrottled one (Lighthouse's default, `simulate`, whose model counts every
 * script that finished before the first paint on this fast loopback, even one the first paint did
 * not wait for): a second view, slower to run and noisier; the verdict is the default's.
 *
 * Exits 1 unless every page is near the floor (issue 35 goal 3): performance at most 3 points below
 * the floor's, LCP at most 1.3 times the floor's, '/dashboard' TBT at most twice the floor's, and
 * accessibility, best practices and SEO 100. Takes about 4-6 minutes on 2 cores (it is not in
 * `npm run bench`'s default list). Absolute scores move with the machine's load (printed beside the
 * figures); the gap to the floor measured in the same run is what counts.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { Simulator } from '@paulirish/trace_engine/models/trace/lantern/simulation/Simulator.js';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from '../server/db/embedded-postgres.ts';
import { HttpClient, linkFromOutbox, pollFor, signUpConfirmSignIn } from '../tests/http-client.ts';
import { compiledServerArgs, createDatabaseOn } from './lib.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
/** Lighthouse's throttling method: 'simulate' (its default, the verdict's) or 'devtools'. */
const THROTTLING = process.env.BENCH_THROTTLING === 'devtools' ? 'devtools' : 'simulate';
const ADMIN_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'bench provider passphrase 2026!';

/** The categories measured; all but performance must be 100 on every page. */
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
/** Issue 35 goal 3, against the floor measured in the same run. */
const NEAR_FLOOR = {
  /** Performance at most this many points below the floor's. */
  performancePoints: 3,
  /** LCP at most this multiple of the floor's. */
  lcpRatio: 1.3,
  /** TBT at most this multiple of the floor's, on these pages. */
  tbtRatio: 2,
  tbtPages: new Set(['/dashboard']),
};
const FLOOR = 'floor';

interface PageResult {
  page: string;
  scores: Record<Category, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  js: Bytes;
  css: Bytes;
  /** Audits that cost points outside performance (id: title), to say what to fix. */
  failing: string[];
}
interface Bytes {
  files: number;
  transferred: number;
  gzip: number;
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** gzip size of a built file: its precompressed .gz when the build has one, else compressed here. */
function gzipSize(webDir: string, urlPath: string): number {
  const file = path.join(webDir, decodeURIComponent(urlPath));
  if (fs.existsSync(`${file}.gz`)) return fs.statSync(`${file}.gz`).size;
  if (!fs.existsSync(file)) return 0;
  return zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/**
 * gzip size of what index.html itself loads before any page's code (its module script, module
 * preloads and stylesheets): the part every page shares, as the issue counted "initial JavaScript".
 */
function entryBytes(webDir: string): { js: number; css: number } {
  const html = fs.readFileSync(path.join(webDir, 'index.html'), 'utf8');
  const urls = (pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]!);
  const js = urls(/(?:<script[^>]+src|<link rel="modulepreload"[^>]+href)="([^"]+)"/g);
  const css = urls(/<link rel="stylesheet"[^>]+href="([^"]+)"/g);
  const sum = (list: string[]) => list.reduce((total, url) => total + gzipSize(webDir, url), 0);
  return { js: sum(js), css: sum(css) };
}

/** An SMTP server on a free loopback port that writes every message as an .eml file into `dir`. */
async function startMailReceiver(dir: string): Promise<{ port: number; close(): Promise<void> }> {
  fs.mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        count += 1;
        fs.writeFileSync(path.join(dir, `${String(count).padStart(4, '0')}.eml`), Buffer.concat(chunks));
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Puts `cookies` (name -> value) in the cookie jar of the Chromium listening on `port`, for `url`'s
 * origin, as a browser that signed in holds them (CDP `Storage.setCookies`).
 */
async function setCookies(port: number, url: string, cookies: Record<string, string>): Promise<void> {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(version.webSocketDebuggerUrl);
  try {
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = () => reject(new Error('cannot reach Chromium to set the cookies'));
    });
    const answer = new Promise<void>((resolve, reject) => {
      socket.onmessage = (event) => {
        const message = JSON.parse(String(event.data)) as { id?: number; error?: { message: string } };
        if (message.id !== 1) return;
        if (message.error) reject(new Error(`Storage.setCookies: ${message.error.message}`));
        else resolve();
      };
    });
    // A `__Secure-` cookie (the session's, in production) must say so; Chromium keeps Secure cookies
    // for http://127.0.0.1, a secure context, as the server's browsers do over HTTPS.
    const list = Object.entries(cookies).map(([name, value]) => ({
      name,
      value,
      url,
      path: '/',
      secure: /^__(Secure|Host)-/.test(name),
    }));
    socket.send(JSON.stringify({ id: 1, method: 'Storage.setCookies', params: { cookies: list } }));
    await answer;
  } finally {
    socket.close();
  }
}

/** One Lighthouse run of `url` in a fresh Chromium holding `cookies`, reported as `page`. */
async function measure(
  page: string,
  url: string,
  webDir: string,
  cookies: Record<string, string>,
): Promise<PageResult> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const signedIn = Object.keys(cookies).length > 0;
    if (signedIn) await setCookies(chrome.port, url, cookies);
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      throttlingMethod: THROTTLING,
      // A reset would clear the cookies; the fresh Chromium's cache is empty anyway.
      disableStorageReset: signedIn,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr = result.lhr;
    if (process.env.BENCH_REPORT_DIR) {
      // The whole report, for a closer look (open it in the Lighthouse viewer).
      fs.mkdirSync(process.env.BENCH_REPORT_DIR, { recursive: true });
      const name = `${page.replace(/\W+/g, '_') || '_'}-${Date.now()}.json`;
      fs.writeFileSync(path.join(process.env.BENCH_REPORT_DIR, name), JSON.stringify(lhr));
    }
    if (process.env.BENCH_LANTERN) console.log(`\n${lanternCriticalPaths(page)}`);
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const origin = new URL(url).origin;
    const requests =
      (lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? [];
    const bytesOf = (type: string): Bytes => {
      const items = requests.filter((r) => r.resourceType === type && r.url.startsWith(origin));
      return {
        files: items.length,
        transferred: items.reduce((sum, r) => sum + (r.transferSize ?? 0), 0),
        gzip: items.reduce((sum, r) => sum + gzipSize(webDir, new URL(r.url).pathname), 0),
      };
    };
    const failing: string[] = [];
    for (const id of CATEGORIES) {
      if (id === 'performance') continue;
      for (const ref of lhr.categories[id]?.auditRefs ?? []) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
          failing.push(`${id}/${ref.id}: ${audit.title}`);
        }
      }
    }
    return {
      page,
      scores: Object.fromEntries(
        CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
      ) as PageResult['scores'],
      lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
      tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
      cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
      js: bytesOf('Script'),
      css: bytesOf('Stylesheet'),
      failing,
    };
  } finally {
    chrome.kill();
  }
}
/**
 * `measure`, tried up to three times: on a loaded machine Chromium's trace sometimes misses its
 * navigation start (Lighthouse's NO_NAVSTART / NO_FCP), which says nothing about the page.
 */
/** A node of Lantern's page graph, as far as the critical path reads it. */
interface LanternNode {
  type: string;
  request?: { url: string };
  childEvents?: { name: string }[];
  getDependencies(): LanternNode[];
  getEvaluateScriptURLs?(): Set<string>;
}

/**
 * The critical path of each of the last run's LCP simulations (Lantern keeps every simulation's
 * node timings by label): from the node that ends last, back through the dependency that ended
 * last, to the document. One line per node: simulated start and end (ms) and what it is.
 */
function lanternCriticalPaths(page: string): string {
  const lines: string[] = [];
  for (const [label, timings] of Simulator.allNodeTimings as Map<
    string,
    Map<LanternNode, { startTime: number; endTime: number }>
  >) {
    if (!label.endsWith('LargestContentfulPaint')) continue;
    const endOf = (node: LanternNode) => timings.get(node)?.endTime ?? -1;
    let node = [...timings.keys()].reduce((a, b) => (endOf(b) > endOf(a) ? b : a));
    const chain: LanternNode[] = [];
    while (node) {
      chain.unshift(node);
      node = node
        .getDependencies()
        .reduce<LanternNode | undefined>(
          (latest, dependency) =>
            timings.has(dependency) && (!latest || endOf(dependency) > endOf(latest)) ? dependency : latest,
          undefined,
        ) as LanternNode;
    }
    lines.push(`  ${page} ${label}: ${Math.round(endOf(chain.at(-1)!))} ms, ${timings.size} nodes`);
    for (const step of chain) {
      const { startTime, endTime } = timings.get(step)!;
      const what =
        step.type === 'network'
          ? new URL(step.request!.url).pathname
          : `CPU ${
              [...(step.getEvaluateScriptURLs?.() ?? [])].map((u) => new URL(u).pathname).join(' ') ||
              (step.childEvents ?? [])
                .slice(0, 3)
                .map((e) => e.name)
                .join(',')
            }`;
      lines.push(
        `    ${String(Math.round(startTime)).padStart(5)} -> ${String(Math.round(endTime)).padStart(5)}  ${what}`,
      );
    }
  }
  return lines.join('\n');
}

async function measureWithRetry(page: string, url: string, webDir: string, cookies: Record<string, string>) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(page, url, webDir, cookies);
    } catch (error) {
      if (attempt >= 3 || !/NO_NAVSTART|NO_FCP|NO_LCP/.test(String(error))) throw error;
      process.stdout.write('r');
    }
  }
}

/** Content types of the files the floor's build holds. */
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/**
 * Serves the floor page's build (`dir`) on a free loopback port as the real server serves the app
 * (decision 016): the brotli (else gzip) copy made at build time when the browser accepts it, with
 * `Vary: Accept-Encoding`; the hashed files under /assets cached a year, `immutable`; the page
 * `no-cache`.
 */
async function startFloorServer(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://floor').pathname);
    const relative = pathname === '/' ? 'index.html' : pathname.slice(1);
    const file = path.join(dir, relative);
    if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = ['br', 'gzip'].find(
      (name) => accepted.includes(name) && fs.existsSync(`${file}.${name === 'br' ? 'br' : 'gz'}`),
    );
    const body = fs.readFileSync(encoding ? `${file}.${encoding === 'br' ? 'br' : 'gz'}` : file);
    response.writeHead(200, {
      'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'Accept-Encoding',
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The median of `values` (the mean of the middle two for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Every figure of one page's runs as its median; the audits that failed in any run. */
function medianResult(runs: PageResult[]): PageResult {
  const bytes = (pick: (r: PageResult) => Bytes): Bytes => ({
    files: median(runs.map((r) => pick(r).files)),
    transferred: median(runs.map((r) => pick(r).transferred)),
    gzip: median(runs.map((r) => pick(r).gzip)),
  });
  return {
    page: runs[0]!.page,
    scores: Object.fromEntries(
      CATEGORIES.map((id) => [id, median(runs.map((r) => r.scores[id]))]),
    ) as PageResult['scores'],
    lcpMs: median(runs.map((r) => r.lcpMs)),
    tbtMs: median(runs.map((r) => r.tbtMs)),
    cls: median(runs.map((r) => r.cls)),
    js: bytes((r) => r.js),
    css: bytes((r) => r.css),
    failing: [...new Set(runs.flatMap((r) => r.failing))],
  };
}

interface NetworkItem {
  url: string;
  resourceType?: string;
  transferSize?: number;
}

async function main() {
  const work = path.resolve('.data-test', `bench-web-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(work, { recursive: true });
  const children: ChildProcess[] = [];
  let database: Awaited<ReturnType<typeof createDatabaseOn>> | undefined;
  let embedded: EmbeddedDatabase | undefined;
  let mail: Awaited<ReturnType<typeof startMailReceiver>> | undefined;
  let floor: Awaited<ReturnType<typeof startFloorServer>> | undefined;
  try {
    // First, the production build.
    let webDir = process.env.BENCH_WEB_DIR ? path.resolve(process.env.BENCH_WEB_DIR) : '';
    if (!webDir) {
      webDir = path.join(work, 'web');
      process.stdout.write('Building the web app... ');
      execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', webDir, '--emptyOutDir'], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      console.log('done.');
    }
    if (!fs.existsSync(path.join(webDir, 'index.html'))) throw new Error(`no index.html in ${webDir}`);
    // The floor page, built with the same Vite, React and Mantine, and its server.
    const floorDir = path.join(work, 'floor');
    execFileSync(
      'npx',
      ['vite', 'build', '--config', 'bench/floor/vite.config.ts', '--logLevel', 'warn', '--outDir', floorDir],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    floor = await startFloorServer(floorDir);

    // Second, the real server in production mode, with a mailbox for the confirmation mail.
    try {
      database = await createDatabaseOn(ADMIN_DATABASE_URL, 'bench_web');
    } catch (error) {
      console.log(`No PostgreSQL at ${ADMIN_DATABASE_URL} (${(error as Error).message}): embedded one.`);
      embedded = await startEmbeddedPostgres(path.join(work, 'postgres'), pino({ level: 'warn' }));
    }
    const databaseUrl = database?.url ?? embedded!.url;
    mail = await startMailReceiver(path.join(work, 'mail'));
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    let output = '';
    const child = spawn(process.execPath, compiledServerArgs(), {
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        APP_URL: baseUrl,
        DATA_DIR: path.join(work, 'data'),
        DATABASE_URL: databaseUrl,
        WEB_DIST_DIR: webDir,
        SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
        AUTH_SECRET: randomBytes(32).toString('base64url'),
        FIELD_ENCRYPTION_KEYS: `k1:${randomBytes(32).toString('base64')}`,
        AUTH_IP_RATE_LIMIT: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    await pollFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
        return (
          (await fetch(`${baseUrl}/api/ready`).then(
            (r) => r.ok,
            () => false,
          )) || undefined
        );
      },
      'the server to start',
      { timeoutMs: 60_000, intervalMs: 100 },
    );

    // Third, a signed-in provider with an application, for /dashboard.
    const client = new HttpClient({ baseUrl });
    await signUpConfirmSignIn(
      client,
      {
        email: `bench-web.${randomBytes(3).toString('hex')}@bench.example`,
        password: PASSWORD,
        firstName: 'Bench',
        lastName: 'Provider',
      },
      linkFromOutbox(path.join(work, 'mail'), { timeoutMs: 30_000 }),
    );
    const created = await client.json('POST', '/api/applications', {});
    if (created.status !== 201 && created.status !== 200) {
      throw new Error(`starting an application answered ${created.status}`);
    }

    // Fourth, Lighthouse, interleaved: run k of the floor and of every page, then run k+1.
    const sessionCookies = Object.fromEntries(client.cookies());
    const pages: { page: string; url: string; dir: string; cookies: Record<string, string> }[] = [
      { page: FLOOR, url: floor.url, dir: floorDir, cookies: {} },
      { page: '/', url: `${baseUrl}/`, dir: webDir, cookies: {} },
      { page: '/auth', url: `${baseUrl}/auth`, dir: webDir, cookies: {} },
      { page: '/dashboard', url: `${baseUrl}/dashboard`, dir: webDir, cookies: sessionCookies },
    ];
    const loadBefore = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const runs = new Map<string, PageResult[]>(pages.map(({ page }) => [page, []]));
    for (let round = 1; round <= RUNS; round++) {
      process.stdout.write(`Round ${round} of ${RUNS}:`);
      for (const { page, url, dir, cookies } of pages) {
        const result = await measureWithRetry(page, url, dir, cookies);
        runs.get(page)!.push(result);
        process.stdout.write(` ${page} ${result.scores.performance}`);
      }
      console.log('');
    }
    const loadAfter = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    for (const { page } of pages) {
      const list = runs.get(page)!;
      console.log(
        `${page.padEnd(11)} performance ${list.map((r) => r.scores.performance).join(', ')}; LCP s ${list.map((r) => (r.lcpMs / 1000).toFixed(2)).join(', ')}; TBT ms ${list.map((r) => Math.round(r.tbtMs)).join(', ')}`,
      );
    }
    const results = pages.map(({ page }) => medianResult(runs.get(page)!));
    const floorResult = results[0]!;

    // Last, the table and the verdict.
    const entry = entryBytes(webDir);
    console.log(
      `\nLighthouse 12 mobile (${THROTTLING} throttling), medians of ${RUNS} interleaved runs (each figure its own median); production build served by the real server (NODE_ENV=production), floor = bench/floor (React + Mantine, a bare sign-in form; brotli, immutable assets); ${os.availableParallelism()} cores, load average ${loadBefore} before, ${loadAfter} after.`,
    );
    console.log(
      `The app's index.html (script, module preloads, stylesheets): JS ${kB(entry.js)}, CSS ${kB(entry.css)} gzip.`,
    );
    console.log(
      `${'page'.padEnd(11)} ${'perf'.padStart(4)} ${'a11y'.padStart(4)} ${'bp'.padStart(4)} ${'seo'.padStart(4)} ${'LCP s'.padStart(6)} ${'x floor'.padStart(7)} ${'TBT ms'.padStart(6)} ${'x floor'.padStart(7)} ${'CLS'.padStart(5)} ${'JS files/sent/gzip'.padStart(26)} ${'CSS files/sent/gzip'.padStart(26)}`,
    );
    for (const r of results) {
      const bytes = (b: Bytes) => `${b.files} / ${kB(b.transferred)} / ${kB(b.gzip)}`;
      const ratio = (value: number, of: number) => `${(value / of).toFixed(2)}x`;
      console.log(
        `${r.page.padEnd(11)} ${String(r.scores.performance).padStart(4)} ${String(r.scores.accessibility).padStart(4)} ${String(r.scores['best-practices']).padStart(4)} ${String(r.scores.seo).padStart(4)} ${(r.lcpMs / 1000).toFixed(2).padStart(6)} ${ratio(r.lcpMs, floorResult.lcpMs).padStart(7)} ${Math.round(r.tbtMs).toString().padStart(6)} ${ratio(r.tbtMs, floorResult.tbtMs).padStart(7)} ${r.cls.toFixed(3).padStart(5)} ${bytes(r.js).padStart(26)} ${bytes(r.css).padStart(26)}`,
      );
    }
    const misses: string[] = [];
    for (const r of results.slice(1)) {
      const minPerformance = floorResult.scores.performance - NEAR_FLOOR.performancePoints;
      if (r.scores.performance < minPerformance) {
        misses.push(
          `${r.page}: performance ${r.scores.performance} < ${minPerformance} (floor ${floorResult.scores.performance} - ${NEAR_FLOOR.performancePoints})`,
        );
      }
      if (r.lcpMs > NEAR_FLOOR.lcpRatio * floorResult.lcpMs) {
        misses.push(
          `${r.page}: LCP ${(r.lcpMs / 1000).toFixed(2)} s > ${NEAR_FLOOR.lcpRatio} x the floor's ${(floorResult.lcpMs / 1000).toFixed(2)} s`,
        );
      }
      if (NEAR_FLOOR.tbtPages.has(r.page) && r.tbtMs > NEAR_FLOOR.tbtRatio * floorResult.tbtMs) {
        misses.push(
          `${r.page}: TBT ${Math.round(r.tbtMs)} ms > ${NEAR_FLOOR.tbtRatio} x the floor's ${Math.round(floorResult.tbtMs)} ms`,
        );
      }
      for (const id of CATEGORIES) {
        if (id !== 'performance' && r.scores[id] < 100) misses.push(`${r.page}: ${id} ${r.scores[id]} < 100`);
      }
      for (const audit of r.failing) misses.push(`${r.page}: ${audit}`);
    }
    if (misses.length > 0) {
      console.log(`\nNot near the floor:\n  ${misses.join('\n  ')}`);
      process.exitCode = 1;
    } else {
      console.log('\nEvery page is near the floor (issue 35 goal 3).');
    }
  } finally {
    for (const child of children) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
    await mail?.close();
    await floor?.close();
    await database?.drop();
    await embedded?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
