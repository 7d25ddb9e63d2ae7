import { useFetchers, useNavigation, useRouteLoaderData } from "react-router";
import { DEFAULT_STRATEGY, SIGN_IN_PATH, type StrategyName } from "./constants";
import type { AuthState } from "./user";

/** Form actions that sign in or out: while one is under way the state is busy. */
const AUTH_ACTIONS = [SIGN_IN_PATH, "/sign-out", "/veryconnect-auth"];

/** The auth state (seed-spec §4) in components: from the root loader, busy while signing in or out. */
export function useAuth(): AuthState {
  const root = useRouteLoaderData("root") as { auth?: AuthState } | undefined;
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = [navigation, ...fetchers].some(
    (s) => s.state !== "idle" && s.formMethod !== undefined && AUTH_ACTIONS.some((a) => s.formAction?.startsWith(a)),
  );
  const state = root?.auth ?? { loggedIn: false, user: null, busy: false, strategy: DEFAULT_STRATEGY as StrategyName };
  return busy ? { ...state, busy } : state;
}
