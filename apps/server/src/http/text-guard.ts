import { finished } from 'node:stream/promises';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './app-error.js';

const NUL = '\u0000';

/**
 * The first place in a parsed query or body where U+0000 appears, in a value or a key, as a
 * dotted path (`rows.0.name`); null when there is none. Walks without recursion, so a deeply
 * nested body cannot exhaust the stack.
 */
export function findNul(value: unknown, root: string): string | null {
  const pending: Array<{ value: unknown; path: string }> = [{ value, path: root }];
  while (pending.length) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes(NUL)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) =>
        pending.push({ value: item, path: path ? `${path}.${index}` : String(index) }),
      );
    } else if (current !== null && typeof current === 'object' && !Buffer.isBuffer(current)) {
      for (const [key, item] of Object.entries(current)) {
        const child = path ? `${path}.${key}` : key;
        if (key.includes(NUL)) return child.replaceAll(NUL, '\\u0000');
        pending.push({ value: item, path: child });
      }
    }
  }
  return null;
}

/** The first field of a multipart file part (its name, file name or the fields before it) with U+0000. */
function findNulInPart(part: MultipartFile): string | null {
  if (part.fieldname.includes(NUL) || part.filename.includes(NUL))
    return part.fieldname.replaceAll(NUL, '\\u0000');
  for (const [name, field] of Object.entries(part.fields)) {
    const fields = Array.isArray(field) ? field : [field];
    for (const item of fields) {
      if (
        name.includes(NUL) ||
        (item && 'value' in item && typeof item.value === 'string' && item.value.includes(NUL))
      ) {
        return name.replaceAll(NUL, '\\u0000');
      }
    }
  }
  return null;
}

/**
 * Multipart bodies are read by the route itself (`request.file()`), after this guard's hook:
 * the file part it hands out is checked first, and a refused one is read to its end so the
 * browser, still sending, receives the reply.
 */
function guardMultipart(request: FastifyRequest) {
  const readFile = request.file.bind(request);
  request.file = (async (...args: Parameters<typeof readFile>) => {
    const part = await readFile(...args);
    const field = part ? findNulInPart(part) : null;
    if (part && field !== null) {
      part.file.resume();
      await finished(part.file);
      throw new AppError('common.nulCharacter', 400, { field });
    }
    return part;
  }) as typeof request.file;
}

/**
 * Refuses any request whose query or body carries U+0000 in its text, before any route runs:
 * PostgreSQL cannot store the character in text, SQLite would store it silently, and no field of
 * the spec has a use for it. The reply names the field, in the caller's language.
 */
export function installTextGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    const field = findNul(request.query, '') ?? findNul(request.body, '');
    if (field !== null) throw new AppError('common.nulCharacter', 400, { field: field || 'body' });
    if (request.isMultipart()) guardMultipart(request);
  });
}
