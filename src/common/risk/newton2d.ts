/** A point (x, y) and a system of two equations in it. */
export type Vector2 = readonly [number, number];
export type System2 = (point: Vector2) => Vector2;
/** The Jacobian [[∂g₁/∂x, ∂g₁/∂y], [∂g₂/∂x, ∂g₂/∂y]] at a point. */
export type Jacobian2 = (point: Vector2) => readonly [number, number, number, number];

export interface NewtonOptions {
  /** A root is accepted when both equations are within this of zero (ARX's default accuracy is 1e-6). */
  readonly accuracy: number;
  readonly maxIterations: number;
  /** A point outside the feasible region ends the attempt. */
  readonly feasible?: (point: Vector2) => boolean;
}

/**
 * Newton–Raphson in two unknowns from one start. Once within `accuracy` it keeps stepping while the
 * residual still shrinks (up to 8 more steps), so the root is as close as double arithmetic allows,
 * not merely within the stopping rule. Returns null when it does not converge, leaves the feasible
 * region, or meets a singular Jacobian or a non-finite value.
 */
export function newton2d(system: System2, jacobian: Jacobian2, start: Vector2, options: NewtonOptions): Vector2 | null {
  let point: Vector2 = start;
  let value = system(point);
  let residual = Math.max(Math.abs(value[0]), Math.abs(value[1]));
  let polishing = 0;
  for (let iteration = 0; iteration < options.maxIterations; iteration++) {
    if (!Number.isFinite(residual)) return null;
    if (residual <= options.accuracy) {
      if (polishing >= 8 || residual === 0) return point;
      polishing++;
    }
    const [a, b, c, d] = jacobian(point);
    const determinant = a * d - b * c;
    if (!Number.isFinite(determinant) || determinant === 0) return residual <= options.accuracy ? point : null;
    const dx = (d * value[0] - b * value[1]) / determinant;
    const dy = (a * value[1] - c * value[0]) / determinant;
    const next: Vector2 = [point[0] - dx, point[1] - dy];
    if (options.feasible && !options.feasible(next)) return residual <= options.accuracy ? point : null;
    const nextValue = system(next);
    const nextResidual = Math.max(Math.abs(nextValue[0]), Math.abs(nextValue[1]));
    // While polishing, stop at the first step that no longer improves the root.
    if (residual <= options.accuracy && !(nextResidual < residual)) return point;
    point = next;
    value = nextValue;
    residual = nextResidual;
  }
  return residual <= options.accuracy ? point : null;
}

/** Central differences, for systems whose analytic Jacobian is not worth its risk of error. */
export function numericJacobian(system: System2): Jacobian2 {
  return (point) => {
    const hx = 1e-7 * Math.max(1, Math.abs(point[0]));
    const hy = 1e-7 * Math.max(1, Math.abs(point[1]));
    const xPlus = system([point[0] + hx, point[1]]);
    const xMinus = system([point[0] - hx, point[1]]);
    const yPlus = system([point[0], point[1] + hy]);
    const yMinus = system([point[0], point[1] - hy]);
    return [
      (xPlus[0] - xMinus[0]) / (2 * hx),
      (yPlus[0] - yMinus[0]) / (2 * hy),
      (xPlus[1] - xMinus[1]) / (2 * hx),
      (yPlus[1] - yMinus[1]) / (2 * hy),
    ];
  };
}
