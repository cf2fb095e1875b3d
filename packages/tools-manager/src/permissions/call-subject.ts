/**
 * The input fields a call's subjects are read from, in order: every one holding a string is a
 * candidate a rule's input pattern is matched against (see {@link callSubjects}); the first is
 * the call's main subject, the one rule suggestions name.
 */
export const SUBJECT_FIELDS = [
  'command',
  'file_path',
  'path',
  'notebook_path',
  'url',
  'pattern',
  'query',
  'skill',
  'name',
] as const;

/** One of {@link SUBJECT_FIELDS}. */
export type SubjectField = (typeof SUBJECT_FIELDS)[number];

/** How a subject is matched: as a shell command, a path under the root, or a plain string. */
export type SubjectKind = 'command' | 'path' | 'text';

/** What a rule's input pattern is matched against for one call. */
export interface CallSubject {
  field: SubjectField;
  kind: SubjectKind;
  value: string;
}

/**
 * Finds the subject of a call: the first string among {@link SUBJECT_FIELDS}. Odd input (not an
 * object, missing fields, non-string values) gives `undefined`, never an exception.
 */
export function callSubject(input: unknown): CallSubject | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const record = input as Record<string, unknown>;
  for (const field of SUBJECT_FIELDS) {
    if (!Object.hasOwn(record, field)) continue;
    const value = record[field];
    if (typeof value === 'string') return { field, kind: subjectKind(field), value };
  }
  return undefined;
}

/**
 * Every candidate subject of a call: each of {@link SUBJECT_FIELDS} that holds a string, in that
 * order (the first is {@link callSubject}). Deny and ask rules match when any of them matches, so
 * adding a field a rule does not look at cannot hide the one the tool acts on.
 */
export function callSubjects(input: unknown): CallSubject[] {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return [];
  const record = input as Record<string, unknown>;
  const subjects: CallSubject[] = [];
  for (const field of SUBJECT_FIELDS) {
    if (!Object.hasOwn(record, field)) continue;
    const value = record[field];
    if (typeof value === 'string') subjects.push({ field, kind: subjectKind(field), value });
  }
  return subjects;
}

/** The `url` field when it is a string, else the subject: what `domain:` patterns read. */
export function urlSubject(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
  const url = (input as Record<string, unknown>).url;
  if (Object.hasOwn(input, 'url') && typeof url === 'string') return url;
  return callSubject(input)?.value;
}

function subjectKind(field: SubjectField): SubjectKind {
  if (field === 'command') return 'command';
  if (field === 'file_path' || field === 'path' || field === 'notebook_path') return 'path';
  return 'text';
}
