// ESLint checks one thing here: where code may import from (docs/web.md, "Where things
// are"; docs/decisions/014-web-features-own-their-code.md). Formatting and style are
// left to the reviewers; type errors to `npm run typecheck`.
//
//   routes/, layouts/, root.tsx   may import anything below them
//   features/<domain>/            its own files, components/, lib/, and another
//                                 feature only through its index.ts or index.server.ts
//   components/                   shared UI: components/ and lib/ only
//   lib/                          domain-free helpers: lib/ and components/ only
import { readdirSync } from "node:fs";
import path from "node:path";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

const here = import.meta.dirname;
const features = readdirSync(path.join(here, "app/features"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const pages = ["./app/routes", "./app/layouts", "./app/root.tsx", "./app/entry.server.tsx"];

const zones = [
  {
    target: "./app/components",
    from: ["./app/features", ...pages],
    message: "components/ is shared UI and imports no feature: move the component into its feature, or pass what it needs as props.",
  },
  {
    target: "./app/lib",
    from: ["./app/features", ...pages],
    message: "lib/ holds domain-free helpers: code that knows a domain belongs in features/<domain>/.",
  },
  {
    target: "./app/features",
    from: pages,
    message: "A feature does not import routes or layouts: they import it.",
  },
  ...features.map((feature) => ({
    target: `./app/features/${feature}`,
    from: "./app/features",
    except: [
      `./${feature}`,
      ...features.filter((other) => other !== feature).flatMap((other) => [`./${other}/index.ts`, `./${other}/index.server.ts`]),
      // Tests of another feature may use auth's in-process fake Go API and content's
      // answers of the content API.
      "./auth/fake-go-api.test-support.ts",
      "./content/content-api.test-support.ts",
    ],
    message: "Features import each other only through the other feature's index.ts (or index.server.ts): add what you need there.",
  })),
];

export default [
  { ignores: ["build/**", "node_modules/**", ".react-router/**", "bench/**", "e2e/**"] },
  {
    files: ["app/**/*.{ts,tsx}"],
    languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".d.ts", ".js"] })],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { basePath: here, zones }],
    },
  },
];
