/** List dates in every form the published exclusion files use (issue 30 item 3). */
import { describe, expect, it } from 'vitest';
import { parseListDate } from './list-dates.ts';

const now = new Date('2026-08-15T12:00:00Z');

describe('parseListDate', () => {
  it.each([
    ['19870203', '1987-02-03'],
    ['20240229', '2024-02-29'],
    ['2023-11-20', '2023-11-20'],
    ['11/20/2023', '2023-11-20'],
    ['1/5/2015', '2015-01-05'],
    ['09/08/87', '1987-09-08'],
    ['01/02/24', '2024-01-02'],
    ['12/31/26', '2026-12-31'],
    ['01/01/27', '1927-01-01'],
    [' 20161120 ', '2016-11-20'],
    // Pennsylvania's Medicheck writes a time after the day, and 12/31/2299 for no end.
    ['9/3/1997 0:00:00', '1997-09-03'],
    ['12/31/2299 0:00:00', '2299-12-31'],
    ['11/20/2023 12:00:00 AM', '2023-11-20'],
  ])('reads %s as %s', (value, expected) => {
    expect(parseListDate(value, now)).toBe(expected);
  });

  it.each(['', '   ', '00000000', '00/00/0000', '00/00/00', 'Indefinite', 'INDEFINITE', 'N/A'])(
    'reads %j as no date',
    (value) => {
      expect(parseListDate(value, now)).toBeNull();
    },
  );

  it.each([
    '19870231',
    '20230229',
    '19871301',
    '13/01/2020',
    '02/30/2020',
    '2020-1-32',
    '1987023',
    'soon',
    '0198-01-01',
    '31.12.2020',
  ])('refuses %j', (value) => {
    expect(parseListDate(value, now)).toBe('invalid');
  });

  it('pivots two-digit years on the year of `now`', () => {
    expect(parseListDate('06/01/30', now)).toBe('1930-06-01');
    expect(parseListDate('06/01/30', new Date('2031-01-01T00:00:00Z'))).toBe('2030-06-01');
  });
});
