/**
 * Downloads a GET call's file with the console's language (a plain link would send the browser's
 * Accept-Language instead) and saves it under the server's file name. Resolves with the server's
 * message when it answered with a refusal instead of a file.
 */
export async function downloadFile(
  path: string,
  params: Record<string, string | number>,
  language: string,
  fallbackName: string,
): Promise<string | undefined> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const response = await fetch(query.size ? `${path}?${query}` : path, {
    credentials: 'same-origin',
    headers: { 'Accept-Language': language },
  });
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || type.includes('application/json')) {
    const body = (await response.json().catch(() => ({}))) as { hhtMsg?: string };
    return body.hhtMsg ?? `HTTP ${response.status}`;
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const plain = /filename="?([^";]+)"?/i.exec(disposition)?.[1];
  const name = encoded ? decodeURIComponent(encoded) : (plain ?? fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
  return undefined;
}
