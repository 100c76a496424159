/** One verified statement about a release: what was checked and whether it holds. */
export interface VerifyCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  /** Not checked (it needs what verify was not given, e.g. --original): no failure, and not an "ok" either. */
  readonly notChecked?: true;
}

export interface VerifyResult {
  readonly ok: boolean;
  readonly dir: string;
  readonly method?: string;
  readonly checks: readonly VerifyCheck[];
}

/** Collects checks; a check that throws is recorded as failed, never aborts the rest. */
export class CheckList {
  readonly checks: VerifyCheck[] = [];
  add(name: string, ok: boolean, detail: string): void {
    this.checks.push({ name, ok, detail });
  }
  /** A check that could not be made: printed as "not checked", with what it needs. */
  notChecked(name: string, needs: string): void {
    this.checks.push({ name, ok: true, detail: `not checked (needs ${needs})`, notChecked: true });
  }
  run(name: string, body: () => string | { ok: boolean; detail: string }): void {
    try {
      const result = body();
      if (typeof result === 'string') this.add(name, true, result);
      else this.add(name, result.ok, result.detail);
    } catch (error) {
      this.add(name, false, error instanceof Error ? error.message : String(error));
    }
  }
}
