export const PROGRAM_ROLE_KEY = 'program_role';

/** The legacy server sends the role as text and may send nothing useful; 0 (creator) is the default. */
export function normalizeProgramRole(value: unknown): string {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  return text === '' || text === 'null' || text === 'undefined' ? '0' : text;
}

export const storeProgramRole = (storage: Pick<Storage, 'setItem'>, value: unknown): void =>
  storage.setItem(PROGRAM_ROLE_KEY, normalizeProgramRole(value));
