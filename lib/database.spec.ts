import { nestedConnectionsChecked } from './database';

it('checks nested connections in development and tests, not in production unless asked (the check costs every promise its hooks)', () => {
  expect(nestedConnectionsChecked({ NODE_ENV: 'development' })).toBe(true);
  expect(nestedConnectionsChecked({ NODE_ENV: 'test', DB_NESTED_CONNECTIONS: 'fail' })).toBe(true);
  expect(nestedConnectionsChecked({ NODE_ENV: 'production' })).toBe(false);
  expect(nestedConnectionsChecked({ NODE_ENV: 'production', DB_NESTED_CONNECTIONS: 'report' })).toBe(true);
  expect(nestedConnectionsChecked({ NODE_ENV: 'development', DB_NESTED_CONNECTIONS: 'off' })).toBe(false);
});
