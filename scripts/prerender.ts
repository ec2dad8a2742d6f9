/**
 * The public pages prerendered at build time (issue 35, decision 033): a Vite plugin, used by
 * vite.config.ts, that runs after the web app's build. It builds web/prerender.tsx for Node, renders
 * each of its PRERENDERED_PATHS, and writes the page into the build as `prerendered/<name>.html`
 * (`/` -> `index.html`, `/auth` -> `auth.html`), with its brotli and gzip copies, for the server to
 * send at that path (server/app.ts). Each page is the app's index.html with:
 *
 * - the rendered HTML in `#root`, marked `data-prerendered="<path>"` so main.tsx hydrates it;
 * - the document's title of the route;
 * - its critical CSS inline instead of the render-blocking stylesheet: all of what index.html
 *   linked (Mantine's global styles and the first chunk's components), plus, from every other
 *   stylesheet of the build in the order Vite loads them, the rules whose classes are all in the
 *   page (the lazy parts the page shows, e.g. the sign-in form). Rules for other elements come with
 *   their chunk's stylesheet, as before.
 *
 * So the first paint needs one request, the page, and no JavaScript; the scripts load as before.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import postcss, { type AtRule, type Rule } from 'postcss';
import { build, type Plugin, type ResolvedConfig, type UserConfig } from 'vite';

/** What web/prerender.tsx exports (built for Node, so imported untyped). */
interface PrerenderModule {
  PRERENDERED_PATHS: readonly string[];
  prerenderPage(path: string): Promise<{ html: string; title: string }>;
}

/** Where the server finds a prerendered page, relative to the build (server/app.ts reads the same). */
export function prerenderedFileName(pagePath: string): string {
  return `prerendered/${pagePath === '/' ? 'index' : pagePath.slice(1)}.html`;
}

/** The class names used in `html` (every `class="..."` attribute). */
export function classesIn(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of match[1]!.split(/\s+/)) if (name) classes.add(name);
  }
  return classes;
}

/** The class names a selector requires of the elements it matches (not those inside `:not()`). */
function requiredClasses(selector: string): string[] {
  const withoutNot = selector.replace(/:not\((?:[^()]|\([^()]*\))*\)/g, '');
  return [...withoutNot.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((m) => m[1]!);
}

/**
 * The rules of `css` that can apply to a page using `classes`: a rule is kept when one of its
 * selectors names only classes the page has. Keyframes and other at-rules without rules are kept;
 * at-rules left empty are dropped.
 */
export function rulesForClasses(css: string, classes: ReadonlySet<string>): string {
  const root = postcss.parse(css);
  root.walkRules((rule: Rule) => {
    if (rule.parent?.type === 'atrule' && /keyframes$/i.test((rule.parent as AtRule).name)) return;
    const used = rule.selectors.some((selector) => requiredClasses(selector).every((c) => classes.has(c)));
    if (!used) rule.remove();
  });
  root.walkAtRules((atRule: AtRule) => {
    if (atRule.nodes !== undefined && atRule.nodes.length === 0) atRule.remove();
  });
  return root.toString();
}

/** The build's stylesheets in the order Vite loads them: a chunk's imports' first, then its own. */
function stylesheetsInLoadOrder(bundle: Record<string, { type: string } & Partial<ChunkInfo>>): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (fileName: string) => {
    if (seen.has(fileName)) return;
    seen.add(fileName);
    const chunk = bundle[fileName];
    if (chunk?.type !== 'chunk') return;
    for (const imported of chunk.imports ?? []) visit(imported);
    for (const css of chunk.viteMetadata?.importedCss ?? []) if (!order.includes(css)) order.push(css);
    for (const imported of chunk.dynamicImports ?? []) visit(imported);
  };
  for (const [fileName, chunk] of Object.entries(bundle)) if (chunk.isEntry) visit(fileName);
  return order;
}
interface ChunkInfo {
  isEntry: boolean;
  imports: string[];
  dynamicImports: string[];
  moduleIds: string[];
  viteMetadata: { importedCss: Set<string> };
}

/**
 * The scripts and stylesheets that the chunks holding `modules` need (those chunks and everything
 * they import), in load order. Throws when a module is in no chunk, so a renamed page fails the
 * build instead of losing its preloads.
 */
function filesOfModules(
  bundle: Record<string, { type: string } & Partial<ChunkInfo>>,
  modules: readonly string[],
): { scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  const styles: string[] = [];
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (scripts.includes(fileName) || !chunk || chunk.type !== 'chunk') return;
    scripts.push(fileName);
    for (const imported of chunk.imports ?? []) visit(imported);
    for (const css of chunk.viteMetadata?.importedCss ?? []) if (!styles.includes(css)) styles.push(css);
  };
  for (const module of modules) {
    const found = Object.entries(bundle).find(([, chunk]) => chunk.moduleIds?.includes(module));
    if (!found) throw new Error(`prerender: no chunk holds ${module}`);
    visit(found[0]);
  }
  return { scripts, styles };
}

/**
 * A route's shell: index.html with the route's chunks (`files`) preloaded, so they load with the
 * app's first script instead of after it has run; the stylesheets as preloads too (Vite's loader
 * applies them with the chunk), so nothing more blocks the first paint. Files index.html already
 * loads are left out.
 */
export function shellDocument(template: string, files: { scripts: string[]; styles: string[] }): string {
  const links = [
    ...files.scripts
      .filter((file) => !template.includes(`/${file}"`))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...files.styles
      .filter((file) => !template.includes(`/${file}"`))
      .map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ];
  return template.replace('</head>', `${links.map((link) => `  ${link}\n`).join('')}</head>`);
}

/** Writes `content` at `file` with the brotli (quality 11) and gzip (level 9) copies the build makes. */
function writeWithCopies(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
}

/**
 * The page: `template` (the built index.html) with `html` in `#root`, the title, and the linked
 * stylesheets replaced by `css` inline. The early entry's script tag (vite-plugins.ts `earlyEntry`)
 * is left out: the page paints without the session, and a request before the first paint delays it;
 * the app's entry starts the session check itself there.
 */
export function pageDocument(
  template: string,
  page: { path: string; html: string; title: string; css: string },
): string {
  const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  let document = template.replace(/<title>[^<]*<\/title>/, `<title>${escapeText(page.title)}</title>`);
  document = document.replace(/\s*<link rel="stylesheet"[^>]*>/g, '');
  document = document.replace(/\s*<script[^>]*data-early-entry[^>]*><\/script>/g, '');
  document = document.replace(
    '</head>',
    `<style>${page.css.replace(/<\/style/gi, '<\\/style')}</style>\n</head>`,
  );
  const root = /<div id="root">[\s\S]*?<\/div><\/div>|<div id="root"><\/div>/;
  if (!root.test(document)) throw new Error('index.html has no <div id="root">');
  return document.replace(root, () => `<div id="root" data-prerendered="${page.path}">${page.html}</div>`);
}

/**
 * The Vite plugin. `ssrConfig` is the part of the app's config the Node build shares (its `define`s),
 * so both builds render the same.
 */
export function prerenderPublicPages(
  ssrConfig: Pick<UserConfig, 'define'> = {},
  /**
   * The chunks to preload per route: path -> the modules (under the root) it renders. A route not
   * prerendered is sent as a shell (index.html with these preloads); a prerendered one gets the
   * preloads in its page.
   */
  shells: Record<string, readonly string[]> = {},
): Plugin {
  let config: ResolvedConfig;
  let stylesheets: string[] = [];
  const shellFiles = new Map<string, { scripts: string[]; styles: string[] }>();
  return {
    name: 'prerender-public-pages',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle(_options, bundle) {
      stylesheets = stylesheetsInLoadOrder(bundle as never);
      for (const [route, modules] of Object.entries(shells)) {
        const ids = modules.map((module) => path.resolve(config.root, module));
        shellFiles.set(route, filesOfModules(bundle as never, ids));
      }
    },
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      const templateFile = path.join(outDir, 'index.html');
      if (!fs.existsSync(templateFile)) return;
      // First, web/prerender.tsx for Node, beside node_modules so its imports resolve there.
      const ssrDir = fs.mkdtempSync(path.join(config.root, '..', 'node_modules', '.prerender-'));
      try {
        await build({
          configFile: false,
          root: config.root,
          mode: config.mode,
          logLevel: 'warn',
          define: ssrConfig.define,
          plugins: [react()],
          build: {
            ssr: 'prerender.tsx',
            outDir: ssrDir,
            emptyOutDir: true,
            sourcemap: false,
            rolldownOptions: { output: { entryFileNames: 'prerender.mjs' } },
          },
        });
        const module = (await import(
          pathToFileURL(path.join(ssrDir, 'prerender.mjs')).href
        )) as PrerenderModule;
        // Second, the stylesheets index.html links (whole) and every other one (filtered per page).
        const template = fs.readFileSync(templateFile, 'utf8');
        const linked = [...template.matchAll(/<link rel="stylesheet"[^>]*href="\/?([^"]+)"/g)].map(
          (m) => m[1]!,
        );
        const read = (file: string) => fs.readFileSync(path.join(outDir, file), 'utf8');
        const linkedCss = linked.map(read).join('\n');
        const others = stylesheets.filter((file) => !linked.includes(file)).map(read);
        // Last, each page.
        for (const pagePath of module.PRERENDERED_PATHS) {
          const { html, title } = await module.prerenderPage(pagePath);
          const classes = classesIn(html);
          const css = [linkedCss, ...others.map((sheet) => rulesForClasses(sheet, classes))]
            .filter((sheet) => sheet.trim())
            .join('\n');
          let document = pageDocument(template, { path: pagePath, html, title, css });
          // A prerendered page's lazy parts load with the document (before its load event), so the
          // hydration that makes them interactive does not wait for them: a click on the sign-in
          // page's tabs right after it loaded is not lost. Their styles are inline already.
          const lazyParts = shellFiles.get(pagePath);
          if (lazyParts) document = shellDocument(document, { scripts: lazyParts.scripts, styles: [] });
          writeWithCopies(path.join(outDir, prerenderedFileName(pagePath)), document);
        }
        for (const [route, files] of shellFiles) {
          if (module.PRERENDERED_PATHS.includes(route)) continue;
          writeWithCopies(path.join(outDir, prerenderedFileName(route)), shellDocument(template, files));
        }
      } finally {
        fs.rmSync(ssrDir, { recursive: true, force: true });
      }
    },
  };
}
