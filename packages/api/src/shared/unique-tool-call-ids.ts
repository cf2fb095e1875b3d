/**
 * Tool-call ids within one message: a missing id becomes `call_<index>` and a repeated one gets
 * `_2`, `_3`… appended, so every call of a message has its own id (a broken server can send the same
 * id twice or none at all) and the same input always gets the same ids.
 */
export class UniqueToolCallIds {
  private readonly used = new Set<string>();

  /** A unique id for the call at `index`, keeping the vendor's id when it is usable. */
  next(vendorId: string | undefined, index: number): string {
    const base = vendorId === undefined || vendorId.trim() === '' ? `call_${index}` : vendorId;
    let id = base;
    for (let copy = 2; this.used.has(id); copy += 1) id = `${base}_${copy}`;
    this.used.add(id);
    return id;
  }
}
