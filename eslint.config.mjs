// ESLint flat config: TypeScript rules for every project, and Nx module boundaries that really
// restrict: an app imports only libs (never another app), a lib imports only libs, a subgraph
// app only the shared libs; tools and cross-service tests may import apps.
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
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app', 'type:tool'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:app', 'type:tool'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['*'] },
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
    // Nx forbids importing an application project outright, so the exceptions are listed here,
    // for files under tools/ only; apps and libs keep the strict rules above.
    files: ['tools/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [
            '@fleetgraph/sso',
            '@fleetgraph/gateway',
            '@fleetgraph/fleet-core',
            '@fleetgraph/geodecode',
            '@fleetgraph/vehicle-data',
            '@fleetgraph/vehicle-data/testing',
            '@fleetgraph/vehicle-data/vin',
            '@fleetgraph/seed',
            '@fleetgraph/start',
            '@fleetgraph/compose',
          ],
          depConstraints: [
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib', 'type:app', 'type:tool'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:app', 'type:tool'] },
          ],
        },
      ],
    },
  },
  prettier,
);
