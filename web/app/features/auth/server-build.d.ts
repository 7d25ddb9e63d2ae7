// The React Router server build, as route-access.server.ts imports it at run time.
declare module "virtual:react-router/server-build" {
  import type { ServerBuild } from "react-router";
  export const routes: ServerBuild["routes"];
}
