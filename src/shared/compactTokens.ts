/**
 * A token count as the plan views and the CLI show it, the same in every language: exact below
 * 1,000 ("850"), one decimal below 10k ("1.2k"), whole thousands below a million ("40k", "999k"),
 * then millions with one decimal ("1.5M"). Negative or non-finite counts show as "0".
 */
export function compactTokens(count: number): string {
  if (!Number.isFinite(count) || count <= 0) return '0';
  const n = Math.round(count);
  if (n < 1_000) return String(n);
  if (n < 9_950) return `${trim((n / 1_000).toFixed(1))}k`;
  if (n < 999_500) return `${Math.round(n / 1_000)}k`;
  return `${trim((n / 1_000_000).toFixed(1))}M`;
}

/** "2.0" -> "2": a whole number needs no decimal. */
function trim(fixed: string): string {
  return fixed.endsWith('.0') ? fixed.slice(0, -2) : fixed;
}
