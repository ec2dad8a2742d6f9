/**
 * The side-by-side view of a screening finding (issue 30 item 4): the provider's fields next to the
 * list row's, each marked 'same', 'different' or 'unknown' (one side has no value). Names compare
 * folded (accents, case, spacing, hyphens: `normaliseName`); a licence agrees when any of the
 * provider's licence numbers does; a state when the provider lives or holds a licence there.
 */
import type { ComparisonLine } from '../api/screening.ts';
import { normaliseName } from './matching.ts';

/** What the comparison reads of the provider (from the application's newest snapshot). */
export interface ProviderSide {
  lastName: string;
  firstName: string;
  middleName: string;
  npi: string;
  dob: string;
  /** Home state (personal information). */
  state: string;
  /** The licences' numbers and issuing states. */
  licenses: { number: string; state: string }[];
}

/** What the comparison reads of the list row. */
export interface ListSide {
  lastName: string;
  firstName: string;
  middleName: string;
  npi: string | null;
  dob: string | null;
  state: string;
  licenseNumber: string;
}

const fold = (value: string) => normaliseName(value);
const digitsAndLetters = (value: string) => value.toUpperCase().replace(/[^A-Z0-9]/g, '');

function line(
  label: string,
  provider: string,
  list: string,
  same: (a: string, b: string) => boolean,
): ComparisonLine {
  const p = provider.trim();
  const l = list.trim();
  return {
    label,
    provider: p,
    list: l,
    agreement: !p || !l ? 'unknown' : same(p, l) ? 'same' : 'different',
  };
}

/** The comparison lines of `provider` against `list` (issue 30 item 4). */
export function compareFinding(provider: ProviderSide, list: ListSide): ComparisonLine[] {
  const equalFolded = (a: string, b: string) => fold(a) === fold(b);
  const states = [provider.state, ...provider.licenses.map((l) => l.state)].filter(Boolean);
  const numbers = provider.licenses.map((l) => l.number).filter(Boolean);
  return [
    line('Last name', provider.lastName, list.lastName, equalFolded),
    line('First name', provider.firstName, list.firstName, equalFolded),
    line('Middle name', provider.middleName, list.middleName, (a, b) => {
      // An initial agrees with the name it begins.
      const [x, y] = [fold(a), fold(b)];
      return x === y || (x.length === 1 && y.startsWith(x)) || (y.length === 1 && x.startsWith(y));
    }),
    line('Date of birth', provider.dob, list.dob ?? '', (a, b) => a === b),
    line('NPI', provider.npi, list.npi ?? '', (a, b) => a === b),
    line('State', [...new Set(states.map((s) => s.toUpperCase()))].join(', '), list.state, (_a, b) =>
      states.some((s) => s.toUpperCase() === b.toUpperCase()),
    ),
    line('License number', numbers.join(', '), list.licenseNumber, (_a, b) =>
      numbers.some((n) => digitsAndLetters(n) === digitsAndLetters(b)),
    ),
  ];
}
