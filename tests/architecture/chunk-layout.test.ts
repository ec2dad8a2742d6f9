/**
 * The web build's chunk layout (issue 35 goal 3, decision 033): `/dashboard` loads its first screen
 * in a handful of files, and the prerendered public pages never load a signed-in route's code.
 * Builds the real app (vite.config.ts) into a temporary directory, as `npm run build` does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chunk-layout-'));
const assets = path.join(outDir, 'assets');

/** The files a document loads before its first paint: its scripts, module preloads and stylesheets. */
function filesOf(document: string): { scripts: string[]; styles: string[] } {
  const scripts = [
    ...document.matchAll(/<script type="module"[^>]*src="\/(assets\/[^"]+)"/g),
    ...document.matchAll(/<link rel="modulepreload"[^>]*href="\/(assets\/[^"]+)"/g),
  ].map((m) => m[1] as string);
  const styles = [
    ...document.matchAll(/<link rel="(?:stylesheet|preload)"[^>]*href="\/(assets\/[^"]+\.css)"/g),
  ].map((m) => m[1] as string);
  return { scripts, styles };
}

/** A chunk and every chunk it imports statically (`from"./x.js"` in the minified output). */
function staticClosure(file: string): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const code = fs.readFileSync(path.join(assets, name), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) visit(m[1] as string);
  };
  visit(file);
  return seen;
}

function chunkNamed(prefix: string): string {
  const found = fs
    .readdirSync(assets)
    .filter((f) => f.startsWith(prefix) && /^-[\w-]{8}\.js$/.test(f.slice(prefix.length)));
  expect(found, `one chunk ${prefix}-<hash>.js`).toHaveLength(1);
  return found[0] as string;
}

describe('the web build', () => {
  beforeAll(async () => {
    await build({
      configFile: path.join(root, 'vite.config.ts'),
      root: path.join(root, 'web'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true },
    });
  }, 180_000);
  afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

  it("sends /dashboard's first screen in at most six scripts and three stylesheets", () => {
    const document = fs.readFileSync(path.join(outDir, 'prerendered/dashboard.html'), 'utf8');
    const { scripts, styles } = filesOf(document);
    const names = scripts.map((file) => path.basename(file).replace(/-[\w-]{8}\.js$/, ''));
    // early, index, rolldown-runtime, vendor, route-dashboard, route-dashboard-shared
    expect(names).toEqual(expect.arrayContaining(['early', 'index', 'vendor', 'route-dashboard']));
    expect(scripts.length).toBeLessThanOrEqual(6);
    expect(styles.length).toBeLessThanOrEqual(3);
    // Everything those chunks import is among them: no request is found only once a chunk has run.
    const preloaded = new Set(scripts.map((file) => path.basename(file)));
    for (const file of preloaded)
      for (const needed of staticClosure(file)) expect(preloaded).toContain(needed);
  });

  it('puts the app shell and the dashboard page in the route chunk', () => {
    const chunk = fs.readFileSync(path.join(assets, chunkNamed('route-dashboard')), 'utf8');
    // A text of each: the shell's short product name, the dashboard's status card.
    expect(chunk).toContain('`Credentialing`');
    expect(chunk).toContain('Complete all sections');
  });

  it("never loads a signed-in route's own chunk for the prerendered pages' lazy parts", () => {
    const routeChunk = chunkNamed('route-dashboard');
    for (const part of ['auth-page', 'landing-details']) {
      const closure = staticClosure(chunkNamed(part));
      expect(closure.size).toBeGreaterThan(1);
      expect([...closure], part).not.toContain(routeChunk);
    }
    for (const page of ['index.html', 'auth.html']) {
      const { scripts } = filesOf(fs.readFileSync(path.join(outDir, 'prerendered', page), 'utf8'));
      for (const file of scripts)
        expect([...staticClosure(path.basename(file))], page).not.toContain(routeChunk);
    }
  });
});
