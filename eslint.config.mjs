// One lint configuration for the whole repository: typescript-eslint's type-checked recommendations.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.data/**',
      '.cache/**',
      '**/build/**',
      'schema/**',
      'data/**',
      'coverage/**',
      'clients/finance-web/src/api/schema.d.ts',
      // written by `npm run compose` (bin/operation-types.ts) and drift-checked by `npm run compose:check`
      'rest-adapter/*/operations/types.generated.ts',
      '**/*.mjs',
      '**/*.js',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // reports assertions on `let` variables assigned inside loops that tsc itself then requires
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Apollo Server's plugin hooks and context functions are async by signature, with or without an await
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read JSON bodies of real HTTP responses: their shape is what the assertions check, so
    // typing each one first would only restate the assertion.
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Product and platform code: a function over 80 lines does too much. Today's exceptions are listed
    // in eslint-suppressions.json (ESLint's bulk suppressions): that list only shrinks
    // (`npx eslint --prune-suppressions` after a split), and a new long function fails lint.
    files: ['lib/**/*.ts', 'subgraphs/**/*.ts', 'rest-adapter/**/*.ts', 'gateway/**/*.ts', 'bot/**/*.ts', 'clients/**/*.ts', 'clients/**/*.tsx', 'bin/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/store/migrations/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Passwords: one set of argon2 parameters and one bound on the hashes running at once per process
    // (lib/passwords.ts); the bench's hand-written baseline is the only other reader of the library.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['lib/passwords.ts', 'bench/servers/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: '@node-rs/argon2', message: 'Hash and verify passwords with lib/passwords.ts (hashPassword, verifyPassword).' }] },
      ],
    },
  },
  {
    // A route's data is its persisted operation's generated result (route({ operation, respond: (data) => … }),
    // rest-adapter/core/route.ts): a hand-written shape of it would go stale with the schema unnoticed. So is
    // the data a page helper is handed: a `data` parameter of any function here takes a generated type.
    files: ['rest-adapter/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='respond'] > :function > :first-child.params > TSTypeAnnotation > TSTypeLiteral",
          message: "Type a route's data from its operation (route() from rest-adapter/<product>/operation.ts, ResultOf<'Name'>), not by hand.",
        },
        {
          // the same for a page helper that is handed the data (`function usersPage(data: { … })`)
          selector: ['TSTypeLiteral', 'TSUnionType > TSTypeLiteral', 'TSArrayType > TSTypeLiteral']
            .map((shape) => `:function > Identifier.params[name='data'] > TSTypeAnnotation > ${shape}`)
            .join(', '),
          message:
            "Type a page's data from its operation (ResultOf<'Name'> from rest-adapter/<product>/operation.ts, or a fragment's generated type), not by hand.",
        },
        {
          // a named result shape (…Data, …Row, …View, …Info) is an alias of the generated one, never a restatement of its fields
          selector: ['TSInterfaceDeclaration', 'TSTypeAliasDeclaration:not(:has(TSTypeReference > Identifier.typeName[name=/^ResultOf$|Fragment$/]))']
            .map((declaration) => `${declaration}[id.name=/(Data|Row|View|Info)$/]`)
            .join(', '),
          message:
            "Name an operation's result by its generated type (ResultOf<'Name'>[…] from rest-adapter/<product>/operation.ts, or a fragment's generated type), not by restating its fields.",
        },
      ],
    },
  },
);
