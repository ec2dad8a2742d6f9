import { describe, expect, it } from 'vitest';
import { sections } from './registry.ts';
import { sectionSlugs } from './section-slugs.ts';

describe('sectionSlugs', () => {
  it('holds exactly the slug of every registry section', () => {
    expect(sectionSlugs).toEqual(Object.fromEntries(sections.map((s) => [s.key, s.slug])));
  });
});
