// What other features may use of membership: the paywall's link to /subscribe.
export { JOIN_OR_RENEW, subscribePath } from "./subscribe";
