// Auth constants and texts (seed-spec §4, §8, §9; docs/auth.md). The texts are
// requirements: tests and the Go API use the same words.

/** The auth strategy when LINEAGE_AUTH_STRATEGY is not set: the Sanctum session. */
export const DEFAULT_STRATEGY = "cookie";
export const STRATEGIES = ["cookie", "token"] as const;
export type StrategyName = (typeof STRATEGIES)[number];

/** Lifetime assumed for an access token whose answer names no expiry (seconds). */
export const TOKEN_DEFAULT_MAX_AGE_S = 1800;
/** A token counts as expired this long before its expiry time. */
export const TOKEN_EXPIRY_MARGIN_MS = 500;
export const TOKEN_HEADER = "Authorization";
export const TOKEN_TYPE = "Bearer";

/** Sanctum's CSRF cookie and the header that echoes it. */
export const CSRF_COOKIE = "XSRF-TOKEN";
export const CSRF_HEADER = "X-XSRF-TOKEN";
/** The form field that carries the CSRF token in server-rendered forms. */
export const CSRF_FIELD = "_token";
/** The Go API's session cookie (docs/auth.md, Cookies). */
export const SESSION_COOKIE = "lineage_session";

/** Prefix of the cookies the web app itself writes for the token strategy. */
export const AUTH_STORAGE_PREFIX = "auth.";
export const AUTH_COOKIE_PATH = "/";
/** Token cookies live this many days (the refresh token's own expiry ends them sooner). */
export const AUTH_COOKIE_EXPIRES_DAYS = 30;

/** Pages of the sign-in flow. */
export const SIGN_IN_PATH = "/sign-in";
export const HOME_PATH = "/";
/** Where signing out leads. */
export const LOGOUT_REDIRECT = "/";
/** The query parameter that carries the wanted path to the sign-in page. */
export const REDIRECT_PARAM = "redirect";

// Error texts (seed-spec §8).
export const NO_STRATEGY_MESSAGE = "No strategy is set!";
export const STRATEGY_NOT_SUPPORTED_MESSAGE = "Strategy not supported";
export const EXPIRED_AUTH_SESSION_MESSAGE = "Both token and refresh token have expired. Your request was aborted.";
export const USER_FIELD_MISSING_PREFIX = "User Data response does not contain field";

// What visitors read when something went wrong that they cannot fix by editing a field.
export const FORM_EXPIRED_MESSAGE = "This form has expired. Please try again.";
export const SERVICE_FAILED_MESSAGE = "Sorry, that did not work. Please try again in a moment.";
export const NOT_VERIFIED_MESSAGE = "Your email address is not verified.";
