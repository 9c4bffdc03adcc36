import type { FastifyRequest } from 'fastify';
import { resolveLanguage, type Language } from '@panelfleet/contract';

/** The console sends its language in Accept-Language; `lang` is accepted for device tools. */
export const requestLanguage = (request: FastifyRequest): Language =>
  resolveLanguage((request.headers['lang'] as string | undefined) ?? request.headers['accept-language']);
