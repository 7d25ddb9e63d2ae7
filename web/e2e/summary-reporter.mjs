// A node:test reporter that prints only the run's totals as TAP-style comment lines
// ("# pass N", "# fail N"), which scripts/test-all reads. The readable per-test
// output comes from the spec reporter running beside it (see the "e2e" script).
// Cancelled tests (a failed hook, a timeout) count as failed: they did not pass.
export default async function* summary(source) {
  for await (const event of source) {
    if (event.type !== "test:summary" || event.data.file !== undefined) continue;
    const c = event.data.counts;
    yield `# tests ${c.tests}\n# pass ${c.passed}\n# fail ${c.failed + c.cancelled}\n# skipped ${c.skipped}\n`;
  }
}
