// What other features may use of membership: the paywall's link to /subscribe, and
// money in minor units (events' ticket prices are formatted and typed the same way).
export { formatMoney, minorToDecimal, parseMoney } from "./money";
export { JOIN_OR_RENEW, subscribePath } from "./subscribe";
