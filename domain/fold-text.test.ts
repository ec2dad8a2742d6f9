/** Accent- and case-blind search text (issue 52 item 3). */
import { describe, expect, it } from 'vitest';
import { FOLD_FROM, FOLD_TO, foldText } from './fold-text.ts';

describe('foldText', () => {
  it('folds accents and case', () => {
    expect(foldText('Núñez')).toBe('nunez');
    expect(foldText('ØSTERGÅRD Łukasz')).toBe('ostergard lukasz');
    expect(foldText('nunez')).toBe('nunez');
  });

  it('maps each letter of FOLD_FROM to one ASCII letter, as foldText does', () => {
    expect([...FOLD_TO]).toHaveLength([...FOLD_FROM].length);
    expect(FOLD_TO).toMatch(/^[A-Za-z]+$/);
    [...FOLD_FROM].forEach((c, i) => {
      expect(foldText(c), c).toBe([...FOLD_TO][i]!.toLowerCase());
    });
  });
});
