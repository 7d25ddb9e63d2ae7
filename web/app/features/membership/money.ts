// Money on the membership pages: the API keeps amounts as integer minor units with an
// ISO 4217 currency (docs/membership.md), never floats. Formatting goes through a
// decimal string, and parsing a typed amount ("24.50", "£24.50") works on its digits,
// so no amount ever passes through a binary fraction.

const LOCALE = "en-GB";

/** How many minor digits the currency has (2 for GBP, 0 for JPY, 3 for BHD). */
export function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat(LOCALE, { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units as a plain decimal string: 2400 → "24.00", -5 → "-0.05". */
export function minorToDecimal(minor: number, digits: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not a whole number of minor units: ${minor}`);
  const sign = minor < 0 ? "-" : "";
  const units = String(Math.abs(minor)).padStart(digits + 1, "0");
  if (digits === 0) return sign + units;
  return `${sign}${units.slice(0, -digits)}.${units.slice(-digits)}`;
}

/** An amount in minor units for people to read: formatMoney(2400, "GBP") → "£24.00". */
export function formatMoney(minor: number, currency: string): string {
  const code = (currency || "GBP").toUpperCase();
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(LOCALE, { style: "currency", currency: code });
  } catch {
    return `${minorToDecimal(minor, 2)} ${code}`;
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  // Intl formats a decimal string exactly (ES2023); the type still says number.
  return format.format(minorToDecimal(minor, digits) as unknown as number);
}

export type ParsedMoney = { ok: true; minor: number } | { ok: false; message: string };

/**
 * A typed amount in major units ("24", "24.5", "24.50", "£1,024.50") as minor units of
 * the currency. Negative amounts, more decimals than the currency has, and anything
 * that is not a number are refused with a message to show next to the field.
 */
export function parseMoney(input: string, currency: string): ParsedMoney {
  const code = (currency || "GBP").toUpperCase();
  const digits = minorDigits(code);
  const example = formatMoney(2400 * 10 ** Math.max(0, digits - 2), code);
  let text = input.trim();
  if (text === "") return { ok: false, message: "Enter the amount received." };
  text = text.replace(/^[£$€]/, "").replace(new RegExp(`\\s*${code}$`, "i"), "").trim();
  if (/^-/.test(text)) return { ok: false, message: "The amount cannot be negative." };
  // Thousands separators only where they belong: 1,024.50 but not 10,24.
  if (text.includes(",")) {
    if (!/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(text)) return { ok: false, message: `Enter the amount as a number, such as ${example}.` };
    text = text.replace(/,/g, "");
  }
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match) return { ok: false, message: `Enter the amount as a number, such as ${example}.` };
  const whole = match[1]!;
  const fraction = match[2] ?? "";
  if (fraction.length > digits) {
    return {
      ok: false,
      message: digits === 0 ? `${code} amounts have no minor units.` : `Give at most ${digits} digits after the decimal point.`,
    };
  }
  const minorText = (whole + fraction.padEnd(digits, "0")).replace(/^0+(?=\d)/, "");
  const minor = Number(minorText);
  if (!Number.isSafeInteger(minor)) return { ok: false, message: "The amount is too large." };
  return { ok: true, minor };
}
