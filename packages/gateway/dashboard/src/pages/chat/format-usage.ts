/** A token count as the user's locale writes numbers. */
export function formatTokens(count: number): string {
  return count.toLocaleString();
}

/** A USD cost with enough digits for the fractions of a cent one model call costs. */
export function formatCost(costUsd: number | undefined): string {
  if (costUsd === undefined) return 'cost unknown';
  if (costUsd === 0) return '$0';
  return costUsd < 0.01 ? `$${costUsd.toFixed(4)}` : `$${costUsd.toFixed(2)}`;
}
