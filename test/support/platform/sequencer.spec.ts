// eslint-disable-next-line @typescript-eslint/no-require-imports
const { spread, CONTAINERS_AFTER } = require('./sequencer.js') as {
  spread: <T>(ordered: T[], isContainer: (t: T) => boolean, seconds: (t: T) => number) => T[];
  CONTAINERS_AFTER: number;
};

interface File {
  name: string;
  seconds: number;
  container?: boolean;
}

const place = (files: File[]) =>
  spread(
    files,
    (f) => f.container === true,
    (f) => f.seconds,
  ).map((f) => f.name);

describe('the sequencer spreads the container tests among the other files', () => {
  const others = (n: number, seconds: number): File[] => Array.from({ length: n }, (_, i) => ({ name: `f${i}`, seconds }));

  it('queues the first after CONTAINERS_AFTER seconds of other files, each next one after 1.5× the last one', () => {
    const files = [...others(40, 100), { name: 'c1', seconds: 140, container: true }, { name: 'c2', seconds: 60, container: true }];
    const order = place(files);
    const ahead = (name: string) => order.slice(0, order.indexOf(name)).filter((n) => n.startsWith('f')).length * 100;
    expect(ahead('c1')).toBe(CONTAINERS_AFTER);
    // 210 s (1.5 × 140) of other files after c1: three 100 s files
    expect(ahead('c2') - ahead('c1')).toBe(300);
    expect(order).toHaveLength(42);
    expect(order.filter((n) => n.startsWith('f'))).toEqual(others(40, 100).map((f) => f.name));
  });

  it('puts them last when the other files are too few to wait behind', () => {
    expect(place([...others(3, 100), { name: 'c1', seconds: 120, container: true }])).toEqual(['f0', 'f1', 'f2', 'c1']);
    expect(
      place([
        { name: 'c1', seconds: 120, container: true },
        { name: 'c2', seconds: 60, container: true },
      ]),
    ).toEqual(['c1', 'c2']);
  });
});
