/**
 * The import rules of ARCHITECTURE.md hold over the whole tree (issue 11), and the checker catches
 * each kind of break (a fixture tree with one of each).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkImports } from '../../scripts/check-imports.ts';

const root = path.resolve(import.meta.dirname, '../..');

describe('import rules', () => {
  it('hold over the repository', () => {
    const report = checkImports(root);
    expect(report.files).toBeGreaterThan(150);
    expect(report.edges).toBeGreaterThan(400);
    expect(report.violations).toEqual([]);
  });

  describe('the checker', () => {
    const fixture = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));
    afterAll(() => fs.rmSync(fixture, { recursive: true, force: true }));
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(fixture, file)), { recursive: true });
      fs.writeFileSync(path.join(fixture, file), text);
    };

    it('reports every kind of break', () => {
      write('domain/rules.ts', "import fs from 'node:fs';\nimport { x } from '../server/a/a.ts';\n");
      write('web/api.ts', "export { y } from '../server/a/a.ts';\n");
      write('web/features/one/page.tsx', "import { z } from '../two/page.tsx';\n");
      write('web/features/two/page.tsx', 'export const z = 1;\n');
      write('server/a/a.ts', "import { b } from '../b/b.ts';\nexport const x = 1; export const y = 2;\n");
      write('server/b/b.ts', "import { c } from '../a/c.ts';\nexport const b = 1;\n");
      write('server/a/c.ts', "import type { W } from '../../web/api.ts';\nexport const c = 1;\n");
      write('server/m/one.ts', "import './two.ts';\n");
      write('server/m/two.ts', "const later = await import('./one.ts');\n");
      const { violations } = checkImports(fixture);
      const rules = violations.map((v) => v.slice(0, 'rule N'.length));
      expect(violations.some((v) => v.includes('Node built-in node:fs'))).toBe(true);
      expect(violations).toContain('rule 1: domain/rules.ts imports server/a/a.ts');
      expect(violations).toContain('rule 2: web/api.ts imports server/a/a.ts');
      expect(violations).toContain('rule 2: server/a/c.ts imports web/api.ts');
      expect(violations.some((v) => v.startsWith('rule 3: web feature one imports web feature two'))).toBe(
        true,
      );
      expect(violations).toContain(
        'rule 4: module cycle server/m/one.ts -> server/m/two.ts -> server/m/one.ts',
      );
      expect(violations).toContain('rule 4: server feature cycle server/a -> server/b -> server/a');
      expect(new Set(rules)).toEqual(new Set(['rule 1', 'rule 2', 'rule 3', 'rule 4']));
    });
  });
});
