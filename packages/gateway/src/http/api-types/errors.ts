/** Every refused request's body: `reason` is stable, `message` says what to change, `issues` names bad fields. */
export interface ApiErrorBody {
  error: { reason: string; message: string; issues: readonly unknown[] };
}
