import type { Config } from "@react-router/dev/config";

export default {
  // Every page is rendered on the server and hydrated in the browser.
  ssr: true,
  appDirectory: "app",
  buildDirectory: "build",
} satisfies Config;
