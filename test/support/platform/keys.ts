/** The administrator key every test database starts with (seeded from ADMIN_API_KEY, stored hashed). */
export const TEMPLATE_ADMIN_KEY = 'test_admin_7c2f9e41b8d35a06c1e4f7a92b5d8e3f';

/**
 * The master key of every test system (secrets at rest, lib/secret-box.ts): the template database's
 * sealed values (the registry's signing key, licence keys) open in every clone.
 */
export const TEST_MASTER_KEY = 'dGVzdC1tYXN0ZXIta2V5LTAxMjM0NTY3ODlhYmNkZWY=';
