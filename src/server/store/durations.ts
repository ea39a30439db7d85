/** A store option in milliseconds: finite and above zero (refused by name), rounded up. */
export function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new TypeError(`${name} must be a positive number of milliseconds`);
  }
  return Math.ceil(value);
}
