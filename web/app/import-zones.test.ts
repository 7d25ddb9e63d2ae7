// The import rules of eslint.config.js, checked on snippets placed in the real tree: a
// rule whose paths stopped resolving would pass everything silently, so each zone is
// shown to refuse what it must, and to let through what it must.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const web = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: web });

async function refused(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(web, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe("import zones", () => {
  it("keeps features out of components/", async () => {
    const found = await refused("app/components/Example.tsx", 'import { AccountNav } from "../features/auth/AccountNav";\nexport const x = AccountNav;\n');
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*components\/ is shared UI/)]);
  });

  it("keeps features out of lib/", async () => {
    const found = await refused("app/lib/example.ts", 'import { linkResolver } from "../features/content";\nexport const x = linkResolver;\n');
    expect(found).toEqual([expect.stringMatching(/lib\/ holds domain-free helpers/)]);
  });

  it("lets a feature reach another only through its index.ts or index.server.ts", async () => {
    const inside = 'import { treePath } from "../trees/slug";\nexport const x = treePath;\n';
    expect(await refused("app/features/events/example.ts", inside)).toEqual([expect.stringMatching(/only through the other feature's index\.ts/)]);
    const through = 'import { treePath } from "../trees";\nimport { pedigreeSearch } from "../trees/index.server";\nexport const x = [treePath, pedigreeSearch];\n';
    expect(await refused("app/features/events/example.ts", through)).toEqual([]);
  });

  it("lets a feature use its own files, components/ and lib/", async () => {
    const code = 'import { EventList } from "./EventList";\nimport { Pagination } from "../../components/Pagination";\nimport { pageHref } from "../../lib/paging";\nexport const x = [EventList, Pagination, pageHref];\n';
    expect(await refused("app/features/events/example.ts", code)).toEqual([]);
  });

  it("keeps routes out of features", async () => {
    const found = await refused("app/features/events/example.ts", 'import { loader } from "../../routes/home";\nexport const x = loader;\n');
    expect(found).toEqual([expect.stringMatching(/A feature does not import routes or layouts/)]);
  });
});
