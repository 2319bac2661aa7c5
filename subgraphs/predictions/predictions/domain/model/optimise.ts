/**
 * Numerical optimisation shared by the models: L-BFGS for smooth objectives with an analytic
 * gradient (Dixon–Coles likelihood, ordered logit, ensemble weights) and a golden-section
 * search for one-dimensional profiles (Dixon–Coles ρ).
 */

/** Writes ∇f(x) into `grad` and returns f(x). May return Infinity/NaN for points outside the domain. */
export type Objective = (x: Float64Array, grad: Float64Array) => number;

export interface MinimizeOptions {
  maxIterations?: number;
  /** Stop when every gradient component is below this in absolute value. */
  gradientTolerance?: number;
  /** Number of correction pairs kept (the "L" in L-BFGS). */
  memory?: number;
  /**
   * Rough inverse of the Hessian's diagonal at the start (a preconditioner). Badly scaled
   * problems, such as team strengths next to a global goal level, converge much faster with it.
   */
  inverseDiagonal?: ArrayLike<number>;
}

export interface MinimizeResult {
  x: Float64Array;
  value: number;
  iterations: number;
  converged: boolean;
}

/** Minimises f with L-BFGS and a backtracking (Armijo) line search. Deterministic. */
export function minimize(f: Objective, x0: ArrayLike<number>, opts: MinimizeOptions = {}): MinimizeResult {
  const maxIterations = opts.maxIterations ?? 500;
  const tolerance = opts.gradientTolerance ?? 1e-8;
  const memory = opts.memory ?? 8;
  const n = x0.length;
  const h0 = opts.inverseDiagonal ? Float64Array.from(opts.inverseDiagonal) : new Float64Array(n).fill(1);
  let x = Float64Array.from(x0);
  let g = new Float64Array(n);
  let fx = f(x, g);
  if (!Number.isFinite(fx)) throw new Error('minimize: objective is not finite at the starting point');
  const s: Float64Array[] = [];
  const y: Float64Array[] = [];
  const rho: number[] = [];
  const alpha = new Float64Array(memory);
  const d = new Float64Array(n);
  let xNew = new Float64Array(n);
  let gNew = new Float64Array(n);

  for (let iter = 0; iter < maxIterations; iter++) {
    if (maxAbs(g) < tolerance) return { x, value: fx, iterations: iter, converged: true };

    // two-loop recursion: d = −H·g with H the L-BFGS inverse-Hessian approximation
    for (let i = 0; i < n; i++) d[i] = -g[i];
    for (let k = s.length - 1; k >= 0; k--) {
      alpha[k] = rho[k] * dot(s[k], d);
      axpy(-alpha[k], y[k], d);
    }
    const last = s.length - 1;
    const gamma = last >= 0 ? dot(s[last], y[last]) / weightedDot(y[last], h0, y[last]) : opts.inverseDiagonal ? 1 : 1 / Math.max(1, Math.sqrt(dot(g, g)));
    for (let i = 0; i < n; i++) d[i] *= gamma * h0[i];
    for (let k = 0; k < s.length; k++) axpy(alpha[k] - rho[k] * dot(y[k], d), s[k], d);

    let slope = dot(d, g);
    if (!(slope < 0)) {
      // not a descent direction (numerical trouble): restart from steepest descent
      s.length = y.length = rho.length = 0;
      for (let i = 0; i < n; i++) d[i] = -g[i] / Math.max(1, Math.sqrt(dot(g, g)));
      slope = dot(d, g);
    }

    let step = 1;
    let fNew = Infinity;
    for (let tries = 0; tries < 60; tries++) {
      for (let i = 0; i < n; i++) xNew[i] = x[i] + step * d[i];
      fNew = f(xNew, gNew);
      if (fNew <= fx + 1e-4 * step * slope) break; // also false for NaN
      step *= 0.5;
    }
    if (!(fNew <= fx)) return { x, value: fx, iterations: iter, converged: false };

    const sk = new Float64Array(n);
    const yk = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      sk[i] = xNew[i] - x[i];
      yk[i] = gNew[i] - g[i];
    }
    const sy = dot(sk, yk);
    if (sy > 1e-16) {
      s.push(sk);
      y.push(yk);
      rho.push(1 / sy);
      if (s.length > memory) {
        s.shift();
        y.shift();
        rho.shift();
      }
    }
    const improvement = fx - fNew;
    [x, xNew] = [xNew, x];
    [g, gNew] = [gNew, g];
    fx = fNew;
    // a step that no longer changes f in double precision: we are as close as we can get
    if (improvement <= 1e-15 * Math.max(1, Math.abs(fx))) {
      return { x, value: fx, iterations: iter + 1, converged: maxAbs(g) < tolerance * 100 };
    }
  }
  return { x, value: fx, iterations: maxIterations, converged: maxAbs(g) < tolerance };
}

/** Maximiser of a unimodal f on [lo, hi] by golden-section search, to within `tolerance`. */
export function goldenSectionMax(f: (x: number) => number, lo: number, hi: number, tolerance = 1e-5): number {
  const ratio = (Math.sqrt(5) - 1) / 2;
  let a = lo;
  let b = hi;
  let c = b - ratio * (b - a);
  let d = a + ratio * (b - a);
  let fc = f(c);
  let fd = f(d);
  while (b - a > tolerance) {
    if (fc >= fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - ratio * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + ratio * (b - a);
      fd = f(d);
    }
  }
  return (a + b) / 2;
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

function weightedDot(a: Float64Array, w: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * w[i] * b[i];
  return sum;
}

function axpy(alpha: number, x: Float64Array, y: Float64Array): void {
  for (let i = 0; i < x.length; i++) y[i] += alpha * x[i];
}

function maxAbs(a: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}
