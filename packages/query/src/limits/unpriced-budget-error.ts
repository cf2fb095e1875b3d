const MARKER = Symbol.for('boxagnts.query.UnpricedBudgetError');

/**
 * A run (or sub-agent) has a USD budget but its model has no price in the catalogue, so the budget
 * could not hold: the run refuses to start rather than count every call as $0.
 */
export class UnpricedBudgetError extends Error {
  readonly [MARKER] = true;
  override readonly name = 'UnpricedBudgetError';

  constructor(
    /** The model without a price. */
    readonly model: string,
    /** The provider it would run on. */
    readonly providerId: string,
    /** The budget that could not be enforced. */
    readonly budgetUsd: number,
  ) {
    super(
      `A USD budget ($${budgetUsd}) is set but model "${model}" on provider "${providerId}" has no price in the ` +
        'model catalogue, so the budget could not be enforced. Give it a price (pass `catalogue` with a row for the ' +
        'model, e.g. one from buildCatalogue or parseCatalogue of @boxagnts/api, or call setActiveCatalogue), or opt in ' +
        'to run unpriced calls as $0 with `config.allowUnpricedBudget: true`.',
    );
  }
}

/** Whether `error` is an {@link UnpricedBudgetError}, across copies of the package. */
export function isUnpricedBudgetError(error: unknown): error is UnpricedBudgetError {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[MARKER] === true;
}
