// ESLint flat config: TypeScript rules for every project, and Nx module boundaries by tag, with
// no list that grows per app:
// - type:lib imports only libs; type:app (gateway, sso, every type:subgraph) imports only libs;
// - a type:subgraph never imports another subgraph (it reads another domain through the
//   contract that domain publishes, and loads another's test fixture through its manifest);
// - tools (type:tool) and cross-service tests (type:e2e) are composition roots: they may import
//   apps (Nx refuses application imports unless allowed, hence the @fleetgraph/* allowance for
//   files under tools/ only);
// - application code does not import the test kits (@fleetgraph/testing,
//   @fleetgraph/subgraph-kit/testing) outside test files.
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '.data/**', '.nx/**', 'dist/**', 'supergraph.graphql'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
            { sourceTag: 'type:subgraph', notDependOnLibsWithTags: ['type:subgraph', 'type:app'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app', 'type:tool'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:app', 'type:tool'] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-control-regex': 'off',
    },
  },
  {
    // Tools are composition roots (start, seed, e2e, bench): they may import apps and each other.
    files: ['tools/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: ['@fleetgraph/**'],
          depConstraints: [
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app', 'type:tool'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:app', 'type:tool'] },
          ],
        },
      ],
    },
  },
  {
    // Test kits stay out of application code.
    files: ['apps/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*test-support.ts', '**/test-harness.ts', '**/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: '@fleetgraph/testing', message: 'test kit: import it from test files only' },
            { name: '@fleetgraph/subgraph-kit/testing', message: 'test kit: import it from test files only' },
          ],
        },
      ],
    },
  },
  {
    // The engine wall: Apollo's internals are reached from apps/gateway/src/engine only, and the
    // engine from the rest of the gateway through its index.
    files: ['apps/gateway/src/**/*.ts'],
    ignores: ['apps/gateway/src/engine/**', '**/*.test.ts', '**/*test-support.ts', '**/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@apollo/*/dist/*'],
              message: "Apollo's internals: port them in apps/gateway/src/engine",
            },
            {
              group: ['**/engine/*', '!**/engine/index'],
              message: 'import the engine through apps/gateway/src/engine/index.ts',
            },
          ],
        },
      ],
    },
  },
  {
    // CommonJS shims Nx loads with require() (the generator's entry point).
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: {
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        __filename: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);
