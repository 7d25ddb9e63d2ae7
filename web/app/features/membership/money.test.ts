import { describe, expect, test } from "vitest";
import { formatMoney, minorDigits, minorToDecimal, parseMoney } from "./money";

describe("formatMoney", () => {
  test.each([
    [2400, "GBP", "£24.00"],
    [0, "GBP", "£0.00"],
    [5, "GBP", "£0.05"],
    [40000, "GBP", "£400.00"],
    [123456789, "GBP", "£1,234,567.89"],
    [1200, "gbp", "£12.00"],
    [1200, "JPY", "JP¥1,200"],
    [1234, "BHD", "BHD 1.234"],
    [2400, "EUR", "€24.00"],
    [-150, "GBP", "-£1.50"],
  ])("%d %s → %s", (minor, currency, want) => {
    expect(formatMoney(minor, currency).replace(/\u00a0/g, " ")).toBe(want);
  });

  test("amounts past a double's exact range keep every digit", () => {
    // 2^53 − 1 pence: as a float divided by 100 the last digits would be rounded.
    expect(formatMoney(Number.MAX_SAFE_INTEGER, "GBP")).toBe("£90,071,992,547,409.91");
  });

  test("an unknown currency code still shows the amount", () => {
    expect(formatMoney(2400, "XX")).toBe("24.00 XX");
  });

  test("minor units must be whole", () => {
    expect(() => minorToDecimal(24.5, 2)).toThrow(RangeError);
  });
});

describe("parseMoney", () => {
  test.each([
    ["24", 2400],
    ["24.5", 2450],
    ["24.50", 2450],
    ["£24.00", 2400],
    [" 24.00 ", 2400],
    ["0.07", 7],
    ["0.1", 10],
    ["1,024.50", 102450],
    ["24.", 2400],
    ["24.00 GBP", 2400],
    ["000012.30", 1230],
    // 0.1 + 0.2 style float errors: 4.35 × 100 is 434.99999999999994 as a double.
    ["4.35", 435],
    ["1.15", 115],
    ["90071992547409.91", Number.MAX_SAFE_INTEGER],
  ])("%j → %d", (input, want) => {
    expect(parseMoney(input, "GBP")).toEqual({ ok: true, minor: want });
  });

  test.each([
    ["", "Enter the amount received."],
    ["   ", "Enter the amount received."],
    ["-5", "The amount cannot be negative."],
    ["24.005", "Give at most 2 digits after the decimal point."],
    ["twenty", "Enter the amount as a number, such as £24.00."],
    ["24,00", "Enter the amount as a number, such as £24.00."],
    ["1e3", "Enter the amount as a number, such as £24.00."],
    ["0x10", "Enter the amount as a number, such as £24.00."],
    [".50", "Enter the amount as a number, such as £24.00."],
    ["12 34", "Enter the amount as a number, such as £24.00."],
    ["90071992547409.92", "The amount is too large."],
  ])("%j is refused: %s", (input, message) => {
    expect(parseMoney(input, "GBP")).toEqual({ ok: false, message });
  });

  test("the currency's minor digits decide the decimals", () => {
    expect(minorDigits("JPY")).toBe(0);
    expect(parseMoney("1200", "JPY")).toEqual({ ok: true, minor: 1200 });
    expect(parseMoney("12.5", "JPY")).toEqual({ ok: false, message: "JPY amounts have no minor units." });
    expect(parseMoney("1.234", "BHD")).toEqual({ ok: true, minor: 1234 });
  });

  test("what it parses, formatMoney shows back", () => {
    for (const text of ["0.01", "1.10", "24.00", "999.99", "12345.67"]) {
      const parsed = parseMoney(text, "GBP");
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(formatMoney(parsed.minor, "GBP").replace(/[£,]/g, "")).toBe(text);
    }
  });
});
