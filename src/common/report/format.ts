/** Escapes text for HTML element content and attribute values. */
export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** An ISO time as people read it: 2026-11-25 10:12 UTC (the JSON keeps the ISO form). */
export function readableTime(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}).*Z$/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}
