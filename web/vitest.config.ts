import { defineConfig } from "vitest/config";

// Unit tests only; the browser end-to-end suite in e2e/ has its own runner.
export default defineConfig({
  esbuild: { jsx: "automatic" },
  test: {
    include: ["app/**/*.test.{ts,tsx}"],
    exclude: ["e2e/**", "node_modules/**", "build/**"],
    environment: "node",
  },
});
