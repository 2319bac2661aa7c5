/** The administrator key every test database starts with (seeded from ADMIN_API_KEY, stored hashed). */
export const TEMPLATE_ADMIN_KEY = 'test_admin_key_0123456789abcdefghijklmnop';
