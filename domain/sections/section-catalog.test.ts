import { describe, expect, it } from 'vitest';
import { APPLICATION_SECTION_COUNT, sections } from './registry.ts';
import { catalogSections, sectionSlugs } from './section-catalog.ts';

describe('sectionCatalog', () => {
  it('lists every registry section, in the registry order, with its slug, title, description and card', () => {
    expect(catalogSections).toEqual(
      sections.map((s, index) => ({
        key: s.key,
        slug: s.slug,
        title: s.title,
        description: s.description,
        // Issue 31 item 3: the spec's eleven on 'Application Sections', the five after them on
        // 'Additional Information'.
        group: index < APPLICATION_SECTION_COUNT ? 'application' : 'additional',
      })),
    );
  });

  it('gives every section its slug by key', () => {
    expect(sectionSlugs).toEqual(Object.fromEntries(sections.map((s) => [s.key, s.slug])));
  });
});
