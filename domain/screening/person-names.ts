/**
 * A person's name written in one column ('LAST, FIRST MIDDLE', 'LAST FIRST MIDDLE MD', with aliases),
 * split into parts: how New York OMIG writes every name and Pennsylvania a few (issue 30 item 1; the
 * real samples are in tests/fixtures/exclusions/SOURCES.md). Pure. Moved out of exclusion-formats.ts
 * (issue 52 item 1) to keep that registry of formats short.
 */

/** Credentials and generational suffixes written after a name ('MD', 'R.Ph', 'JR'), dots ignored. */
const NAME_TAILS: ReadonlySet<string> = new Set(
  (
    'MD DO RN LPN LVN NP FNP ANP PA RPA PAC DDS DMD DPM DC OD PHD PSYD RPH PHARMD CNA HHA PCA LCSW LMSW ' +
    'CSW MSW LMT LAC CRNA PT OT RT DVM ESQ CPA JR SR II III IV V'
  ).split(' '),
);

/** Where an alias or trade name starts: `aka ...`, `A/K/A ...`, `A/KA/ "..."`, `dba ...`, `(...)`. */
const NAME_ALIAS = /\s+(?:a\/?k\/?a\/?|d\/?b\/?a\/?)(?=\s|$)|\s*\(/i;

/**
 * Words that begin a last name of several words ('DI SCENZA', 'DE LA CRUZ', 'VAN DYKE'). Not 'LE',
 * 'LO', 'DU': far more often whole surnames themselves ('LE ANH TUAN') than particles.
 */
const SURNAME_PARTICLES: ReadonlySet<string> = new Set(
  'DA DAL DE DEL DELA DELLA DELLE DEN DER DI DOS EL LA MAC MC ST SAN SANTA TEN TER VAN VANDER VON'.split(' '),
);

/**
 * A person's name written in one column, in parts: `LAST, FIRST MIDDLE` or, without a comma,
 * `LAST FIRST MIDDLE` (how New York OMIG writes most people). Credentials and suffixes after the
 * name ('MD', 'RN', 'JR') are dropped; an alias ('aka ...') is read only when the name before it is
 * not a whole name ('COSIMO AKA FAZZOLARI ELEONORA'). Without a comma, a last name starting with a
 * particle takes the next word too ('DI SCENZA RONALD' -> 'DI SCENZA', 'RONALD'); other last names
 * of two words cannot be told apart and are read as their first word. Null when no first name is left.
 */
export function splitPersonName(
  name: string,
): { lastName: string; firstName: string; middleName: string } | null {
  const alias = NAME_ALIAS.exec(name);
  if (!alias) return splitWholeName(name);
  return (
    splitWholeName(name.slice(0, alias.index)) ??
    splitWholeName(name.slice(alias.index + alias[0].length).replace(/["()]/g, ' '))
  );
}

function splitWholeName(name: string): { lastName: string; firstName: string; middleName: string } | null {
  const words = (text: string) => text.split(/[\s,]+/).filter(Boolean);
  const dropTails = (parts: string[]) => {
    const kept = [...parts];
    while (kept.length > 0 && NAME_TAILS.has(kept.at(-1)!.replace(/\./g, '').toUpperCase())) kept.pop();
    return kept;
  };
  const cleaned = name.trim();
  const comma = cleaned.indexOf(',');
  const given = comma < 0 ? [] : dropTails(words(cleaned.slice(comma + 1)));
  let lastName: string;
  let rest: string[];
  if (given.length > 0) {
    // `LAST, FIRST MIDDLE[, MD]`
    lastName = cleaned.slice(0, comma).trim().replace(/\s+/g, ' ');
    rest = given;
  } else {
    // `LAST FIRST MIDDLE MD` (or `LAST FIRST, MD`)
    const all = dropTails(words(comma < 0 ? cleaned : cleaned.slice(0, comma)));
    let take = 1;
    while (take < all.length - 1 && SURNAME_PARTICLES.has(all[take - 1]!.toUpperCase())) take += 1;
    lastName = all.slice(0, take).join(' ');
    rest = all.slice(take);
  }
  const firstName = rest[0] ?? '';
  if (!lastName || !firstName) return null;
  return { lastName, firstName, middleName: rest.slice(1).join(' ') };
}
