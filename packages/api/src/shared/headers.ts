/** Response headers as fetch (`Headers`), the SDKs or Node (`IncomingHttpHeaders`) hold them. */
export type HeaderSource =
  | { get(name: string): string | null | undefined }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>;

/** Reads one header case-insensitively from any {@link HeaderSource}; repeated values are joined with `, `. */
export function readHeader(headers: HeaderSource | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (typeof headers.get === 'function') {
    return (headers as { get(name: string): string | null | undefined }).get(name) ?? undefined;
  }
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    return Array.isArray(value) ? value.join(', ') : String(value);
  }
  return undefined;
}
