/** A timestamp as the user's locale writes date and time. */
export function formatTime(epochMs: number | undefined): string {
  if (epochMs === undefined || epochMs === 0) return '';
  return new Date(epochMs).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A file name for an exported session (ids of sub-agent sessions hold a `/`). */
export function exportFileName(id: string): string {
  return `${id.replace(/[^A-Za-z0-9._-]+/g, '_')}.jsonl`;
}

/** Offers a blob as a download with that file name (the browser's own save, no page change). */
export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
