import { describe, expect, it } from 'vitest';
import { sections } from './registry.ts';
import { catalogSections, sectionSlugs } from './section-catalog.ts';

describe('sectionCatalog', () => {
  it('lists every registry section, in the registry order, with its slug, title and description', () => {
    expect(catalogSections).toEqual(
      sections.map((s) => ({ key: s.key, slug: s.slug, title: s.title, description: s.description })),
    );
  });

  it('gives every section its slug by key', () => {
    expect(sectionSlugs).toEqual(Object.fromEntries(sections.map((s) => [s.key, s.slug])));
  });
});
