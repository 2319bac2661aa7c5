import { goldenSectionMax, minimize } from './optimise';

describe('minimize (L-BFGS)', () => {
  it('finds the minimum of the Rosenbrock function', () => {
    const rosenbrock = (x: Float64Array, g: Float64Array) => {
      const [a, b] = x;
      g[0] = -2 * (1 - a) - 400 * a * (b - a * a);
      g[1] = 200 * (b - a * a);
      return (1 - a) ** 2 + 100 * (b - a * a) ** 2;
    };
    const r = minimize(rosenbrock, [-1.2, 1]);
    expect(r.converged).toBe(true);
    expect(r.x[0]).toBeCloseTo(1, 5);
    expect(r.x[1]).toBeCloseTo(1, 5);
  });

  it('solves a badly scaled quadratic, faster with a diagonal preconditioner', () => {
    const scales = [1, 1e3, 1e-2];
    const quad = (x: Float64Array, g: Float64Array) => {
      let f = 0;
      for (let i = 0; i < 3; i++) {
        g[i] = scales[i] * (x[i] - i);
        f += 0.5 * scales[i] * (x[i] - i) ** 2;
      }
      return f;
    };
    const plain = minimize(quad, [5, 5, 5], { gradientTolerance: 1e-10 });
    const pre = minimize(quad, [5, 5, 5], { gradientTolerance: 1e-10, inverseDiagonal: scales.map((s) => 1 / s) });
    for (const r of [plain, pre]) [0, 1, 2].forEach((i) => expect(r.x[i]).toBeCloseTo(i, 6));
    expect(pre.iterations).toBeLessThan(plain.iterations);
  });
});

describe('goldenSectionMax', () => {
  it('finds the maximiser of a unimodal function', () => {
    expect(goldenSectionMax((x) => -((x - 0.3) ** 2), -1, 1, 1e-8)).toBeCloseTo(0.3, 6);
    expect(goldenSectionMax((x) => x, -0.25, 0.1, 1e-8)).toBeCloseTo(0.1, 6); // boundary
  });
});
