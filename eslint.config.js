// Lint rules, including the layering of docs/ARCHITECTURE.md ("Dependency rules"),
// enforced here rather than remembered.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { existsSync, readdirSync } from 'node:fs';

// TypeScript files that no workspace tsconfig.json includes get a default program (keep this list short).
const TYPED_DEFAULT_PROJECT = ['vitest.config.ts'];

const serverOnly = [
  'fastify',
  'fastify-*',
  '@fastify/*',
  'drizzle-orm',
  'drizzle-orm/*',
  'pg',
  'pg-boss',
  'oidc-provider',
  '@electric-sql/*',
];
const reactOnly = ['react', 'react-dom', 'react-dom/*', 'react-router', '@mui/*', '@emotion/*', 'swr'];

const restrict = (groups, message) => ({ group: groups, message });

/** Which workspace packages each package may import (ARCHITECTURE.md "Dependency rules"); `pkg/sub`: only that subpath of it. */
const packageDependencies = {
  contracts: [],
  stats: [],
  mesh: [],
  anatomy: ['mesh', 'stats'],
  sph: ['mesh', 'contracts/csv'],
  scenarios: ['mesh', 'sph', 'anatomy', 'contracts'],
  ssm: ['mesh', 'stats'],
  measure: ['mesh', 'anatomy'],
  dicom: [],
};

const dependencyMessage = (name, allowed) =>
  `packages/${name} may import ${allowed.length ? allowed.map((d) => `@insilico/${d}`).join(', ') : 'no other package'} (docs/ARCHITECTURE.md).`;

// "A web feature reaches another feature only through that feature's index.ts": one zone per
// ordered pair of feature folders (a glob zone cannot tell a feature's own files from another's).
const featuresDir = new URL('./apps/web/src/features', import.meta.url);
const webFeatures = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];
const featureZones = webFeatures.flatMap((target) =>
  webFeatures
    .filter((from) => from !== target)
    .map((from) => ({
      target: `./apps/web/src/features/${target}`,
      from: `./apps/web/src/features/${from}`,
      except: ['./index.ts'],
      message: 'A feature reaches another feature only through its index.ts.',
    })),
);

// The workspace's own test/ and the repository's (helpers the tests of several workspaces share, test/helpers).
const testOnlyZone = (workspace) => ({
  target: `./${workspace}/src`,
  from: [`./${workspace}/test`, './test'],
  message: 'Only tests import from test/: fixtures and test helpers never ship.',
});
const packageDirs = readdirSync(new URL('./packages', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'var/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'apps/server/src/db/migrations/**',
      // AssemblyScript (built by asc, not tsc): packages/sph's WebAssembly kernels.
      'packages/sph/assembly/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Type-aware rules: a promise nobody handles is a crash waiting for its first rejection (Node ends
  // the process on an unhandled rejection), and a switch that misses a case is a silent wrong answer.
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: TYPED_DEFAULT_PROJECT },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          noWarnOnMultipleProjects: true,
          project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'],
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { maxDepth: 10 }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'Name what you export: no `export *`.' },
      ],
    },
  },
  // packages/*: pure TypeScript, and among themselves only the dependencies ARCHITECTURE lists.
  ...Object.entries(packageDependencies).map(([name, allowed]) => ({
    files: [`packages/${name}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            restrict(['@insilico/server', '@insilico/web', '**/apps/**'], 'packages/* never import an app.'),
            restrict(
              [...serverOnly, ...reactOnly],
              'packages/* are pure TypeScript: no server framework, database or React.',
            ),
            restrict(
              [
                '@insilico/*',
                `!@insilico/${name}`,
                ...allowed.map((dependency) => `!@insilico/${dependency.split('/')[0]}`),
              ],
              dependencyMessage(name, allowed),
            ),
            // A dependency allowed only through one subpath (`contracts/csv`): every other import of it is refused.
            ...allowed
              .filter((dependency) => dependency.includes('/'))
              .map((dependency) => {
                const [pkg, ...rest] = dependency.split('/');
                return {
                  regex: `^@insilico/${pkg}(?!/${rest.join('/')}$)(/.*)?$`,
                  message: dependencyMessage(name, allowed),
                };
              }),
          ],
        },
      ],
    },
  })),
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            restrict(
              ['@insilico/server', '**/apps/server/**', ...serverOnly],
              'The web app never imports server code.',
            ),
          ],
        },
      ],
      'import-x/no-restricted-paths': ['error', { zones: featureZones }],
    },
  },
  // Fixtures and test helpers live in each workspace's test/ (ARCHITECTURE "Fixtures live in test/"): code that ships
  // never imports them, so the production build cannot pick them up.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...featureZones, testOnlyZone('apps/web')] }],
    },
  },
  {
    files: ['apps/server/src/**/*.ts', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        { zones: ['apps/server', ...packageDirs.map((name) => `packages/${name}`)].map(testOnlyZone) },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            restrict(['@insilico/web', '**/apps/web/**', ...reactOnly], 'The server never imports DOM or React code.'),
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/routes/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            restrict(
              ['drizzle-orm', 'drizzle-orm/*', 'pg', 'pg-boss', '@electric-sql/*', 'oidc-provider', 'openid-client'],
              'Routes never touch the ORM, the queue or identity: call a service.',
            ),
            restrict(['**/db/**', '**/repositories/**'], 'Routes call services; only services call repositories.'),
            restrict(['@insilico/web', ...reactOnly], 'The server never imports DOM or React code.'),
          ],
        },
      ],
    },
  },
  {
    // A job's descriptor is what services import; it imports none of them (docs/decisions/jobs-cpu-work-off-event-loop.md).
    files: [
      'apps/server/src/jobs/*.job.ts',
      'apps/server/src/jobs/job-descriptor.ts',
      'apps/server/src/jobs/scheduled-job.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            restrict(
              [
                '**/services/**',
                '**/repositories/**',
                '**/db/**',
                '**/*.performer',
                '**/job-definition',
                '**/job-runner',
              ],
              'A job descriptor names the job and its data; it imports no service, repository or performer.',
            ),
            restrict(['@insilico/web', '**/apps/web/**', ...reactOnly], 'The server never imports DOM or React code.'),
          ],
        },
      ],
    },
  },
  {
    // Policies only decide who may do what; services turn a refusal into their error (services/authorize.ts).
    files: ['apps/server/src/policies/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            restrict(
              ['**/services', '**/services/**', '**/routes', '**/routes/**', '**/jobs', '**/jobs/**'],
              'A policy decides and imports nothing from services, routes or jobs: services/authorize.ts throws.',
            ),
            restrict(['@insilico/web', '**/apps/web/**', ...reactOnly], 'The server never imports DOM or React code.'),
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/services/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            restrict(
              ['drizzle-orm', 'drizzle-orm/*', 'pg', 'pg-boss', '@electric-sql/*', 'oidc-provider', 'openid-client'],
              'Only repositories touch the ORM, the queue or identity.',
            ),
            restrict(['fastify', '@fastify/*', '**/routes/**'], 'A service never parses HTTP.'),
            restrict(
              ['**/jobs/*', '!**/jobs/*.job', '!**/jobs/job-descriptor'],
              "A service enqueues with a job's descriptor (jobs/*.job.ts), never its performer or the runner: performers import services.",
            ),
            restrict(['**/db/schema', '**/db/schema/**', '**/db/client'], 'Only repositories touch the database.'),
            restrict(['@insilico/web', ...reactOnly], 'The server never imports DOM or React code.'),
          ],
        },
      ],
    },
  },
);
