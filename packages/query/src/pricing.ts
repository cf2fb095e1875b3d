import { type Catalogue, type CatalogueModel, findModel, type Usage } from '@boxagnts/api';
import { callCost } from './usage-totals.js';

/**
 * Prices the model calls of one run from the catalogue, remembering the row of the last model
 * priced (a run mostly calls one model; `findModel` also remembers its own answers).
 */
export class CallPricer {
  private lastModel: string | undefined;
  private lastProvider: string | undefined;
  private lastRow: CatalogueModel | string = '';

  constructor(private readonly catalogue: Catalogue | undefined) {}

  /** The USD cost of one call, or undefined when the catalogue has no price for the model. */
  cost(model: string, providerId: string, usage: Usage): number | undefined {
    if (model !== this.lastModel || providerId !== this.lastProvider) {
      this.lastModel = model;
      this.lastProvider = providerId;
      this.lastRow = this.row(model, providerId) ?? model;
    }
    return callCost(this.lastRow, providerId, usage, this.catalogue);
  }

  /** Whether the catalogue has a price for `model` on `providerId`. */
  isPriced(model: string, providerId: string): boolean {
    return this.row(model, providerId)?.price !== undefined;
  }

  private row(model: string, providerId: string): CatalogueModel | undefined {
    return findModel(model, { provider: providerId, ...(this.catalogue ? { catalogue: this.catalogue } : {}) });
  }
}
