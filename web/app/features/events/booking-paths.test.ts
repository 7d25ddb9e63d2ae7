import { describe, expect, test } from "vitest";
import { bookedPath, bookingKeyOf, bookingPagePath, bookPath } from "./booking-paths";

describe("booking paths", () => {
  test("the pages of a booking, with a visitor's key when there is one", () => {
    expect(bookPath("dna-talk")).toBe("/sog-events/dna-talk/book");
    expect(bookingPagePath("B-7K3Q9")).toBe("/sog-events/bookings/B-7K3Q9");
    expect(bookingPagePath("B-7K3Q9", "a+b/c")).toBe("/sog-events/bookings/B-7K3Q9?key=a%2Bb%2Fc");
    expect(bookedPath("dna-talk", "B-7K3Q9")).toBe("/sog-events/dna-talk/booked?ref=B-7K3Q9");
  });

  test("the key is read from the booking's calendar link, where the API puts it", () => {
    expect(bookingKeyOf({ ics_url: "/api/bookings/B-7K3Q9/ics?key=k3y" })).toBe("k3y");
    expect(bookingKeyOf({ ics_url: "/api/bookings/B-7K3Q9/ics" })).toBeNull();
    expect(bookingKeyOf({})).toBeNull();
  });
});
