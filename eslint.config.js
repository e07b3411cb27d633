// @ts-check
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = 'packages/web/src/features';
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

/** A feature may import shared code, never another feature (bulletproof-react's zones). */
const featureBoundaries = features.map((feature) => ({
  files: [`${featuresDir}/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^@/features/(?!${feature}(/|$))`,
            message:
              'Features may not import each other; move shared code to components/, hooks/ or lib/.',
          },
          {
            regex: `^(\\.\\./)+(features/)?(?!${feature}(/|$))(${features.join('|')})(/|$)`,
            message:
              'Features may not import each other; move shared code to components/, hooks/ or lib/.',
          },
          { regex: '^@/app(/|$)', message: 'Features may not import the app layer.' },
        ],
      },
    ],
  },
}));

const serverModulesDir = 'packages/server/src/modules';
const serverModules = existsSync(serverModulesDir)
  ? readdirSync(serverModulesDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];
const throughIndex =
  "Server modules talk through each other's index.ts, never their stores or internals.";

/** How deep below its module's folder a server file can sit (alerts/engine/x.ts is 1). */
const MODULE_DEPTHS = [0, 1, 2, 3];

/**
 * A server module may import another module only through its index.ts. A file `depth` folders
 * below its module's folder reaches the modules folder with depth + 1 `../`: shallower `../`
 * stay inside its own module, so the pattern is written for each depth.
 */
const serverModuleBoundaries = serverModules.flatMap((mod) =>
  MODULE_DEPTHS.map((depth) => ({
    files: [`${serverModulesDir}/${mod}/${'*/'.repeat(depth)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./){${depth + 1}}(?!${mod}/)[^/.][^/]*/(?!index\\.js$)`,
              message: throughIndex,
            },
          ],
        },
      ],
    },
  })),
);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tools/**',
      'data/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'e2e/.artifacts/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
  {
    // No promise without a handler: under Node 24 an unhandled rejection can end the process.
    // `void` does not count as a handler; attach a .catch instead.
    files: ['packages/server/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
    },
  },
  {
    // A host's engine is reached through the Engine interface (docker/engine.ts) whatever
    // carries it; only docker/ knows dockerode. A separate rule name from the module zones',
    // so neither replaces the other's options.
    files: ['packages/server/src/**/*.ts'],
    ignores: ['packages/server/src/docker/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'dockerode',
              message: 'Use the Engine from docker/index.js (Fleet.engine()), not dockerode.',
            },
            {
              name: 'docker-modem',
              message: 'Use the Engine from docker/index.js (Fleet.engine()), not docker-modem.',
            },
          ],
        },
      ],
    },
  },
  {
    // The agent loads no zod (about 20 MB of its memory): at run time it takes only the
    // contracts' zod-free agent wire; types from the rest are erased and welcome.
    files: ['packages/agent/src/**/*.ts'],
    ignores: ['packages/agent/src/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@berth/contracts(?!/agent-wire$)',
              allowTypeImports: true,
              message: 'The agent imports values only from @berth/contracts/agent-wire (no zod).',
            },
          ],
        },
      ],
    },
  },
  {
    // The composition root and the platform reach modules through their index.ts too.
    files: ['packages/server/src/*.ts', 'packages/server/src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(\\./|\\.\\./)modules/[^/]+/(?!index\\.js$)', message: throughIndex },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, '@tanstack/query': pluginQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...pluginQuery.configs['flat/recommended-strict']?.[0]?.rules,
    },
  },
  {
    files: ['packages/contracts/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!zod$|\\.)', message: 'contracts imports only zod.' }] },
      ],
    },
  },
  {
    // Tests: vitest's asymmetric matchers (expect.any) are typed any, and the inject client
    // lets a test name the body type it expects.
    files: ['**/*.test.ts', '**/*.test.tsx', 'packages/server/src/test/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
    },
  },
  ...featureBoundaries,
  ...serverModuleBoundaries,
);
