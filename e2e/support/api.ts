import type { Page } from '@playwright/test';
import type { CallDef, ParamsOf, ReplyOf } from '@panelfleet/contract';

/**
 * One contract call made with the browser's session (the page's cookies), for setting up what a
 * test needs but does not test. A fail reply throws with its hhtMsg.
 */
export async function apiCall<C extends CallDef>(
  page: Page,
  origin: string,
  def: C,
  params: ParamsOf<C>,
): Promise<ReplyOf<C>> {
  const form: Record<string, string> = {};
  for (const [key, value] of Object.entries(params as Record<string, unknown>)) {
    if (value !== undefined && value !== null) form[key] = String(value);
  }
  const url = `${origin}${def.path}`;
  const headers = { Origin: origin, Accept: 'application/json' };
  const response =
    def.method === 'GET'
      ? await page.request.get(url, { params: form, headers })
      : await page.request.post(url, { form, headers });
  const body: unknown = await response.json();
  const parsed = def.reply.safeParse(body);
  if (!parsed.success)
    throw new Error(`${def.method} ${def.path} answered ${response.status()}: ${JSON.stringify(body)}`);
  return parsed.data as ReplyOf<C>;
}
