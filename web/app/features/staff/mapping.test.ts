import { describe, expect, it } from "vitest";
import { columnName, KEEP, keptName, mappingFromForm, mappingRows, valueName } from "./mapping";
import type { CanonicalField, Mapping, UploadColumn } from "./types";
import { formData as form } from "../../lib/form-data.test-support";

const canonical: CanonicalField[] = [
  { name: "record_id", required: true, label: "Record number" },
  { name: "record_type", required: true, label: "Kind of record" },
  { name: "transcript", required: false, label: "Transcript" },
  { name: "surname", required: true, label: "Surname" },
];
const columns: UploadColumn[] = [
  { name: "Ref", samples: ["R1", "R2"] },
  { name: "Surname", samples: ["Smith"] },
  { name: "Notes", samples: [] },
];

describe("mappingRows", () => {
  it("reads a column name, a {column}, a {value} and keeps what the editor cannot show", () => {
    const mapping: Mapping = {
      fields: { record_id: "Ref", surname: { column: "Surname" }, record_type: { value: "baptism" }, transcript: { columns: ["Notes", "Ref"], join: " " } },
    };
    const rows = mappingRows(canonical, mapping);
    expect(rows.map((r) => [r.field.name, r.column, r.value])).toEqual([
      ["record_id", "Ref", ""],
      ["record_type", "", "baptism"],
      ["transcript", KEEP, ""],
      ["surname", "Surname", ""],
    ]);
    expect(JSON.parse(rows[2].kept)).toEqual({ columns: ["Notes", "Ref"], join: " " });
  });

  it("leaves out the person fields when each line is a whole record (persons)", () => {
    const rows = mappingRows(canonical, { fields: { record_id: "Ref" }, persons: [{ surname: "Surname" }] });
    expect(rows.map((r) => r.field.name)).toEqual(["record_id", "record_type", "transcript"]);
  });

  it("shows the form as it was sent when there are values", () => {
    const rows = mappingRows(canonical, { fields: { record_id: "Ref" } }, { [columnName("record_id")]: "Surname", [valueName("record_type")]: "burial" });
    expect(rows[0].column).toBe("Surname");
    expect(rows[1].value).toBe("burial");
  });
});

describe("mappingFromForm", () => {
  it("builds the mapping; a value wins over a column; the delimiter and persons are kept", () => {
    const { mapping, errors } = mappingFromForm(
      form({ [columnName("record_id")]: "Ref", [columnName("record_type")]: "Ref", [valueName("record_type")]: " baptism ", [columnName("surname")]: "Surname" }),
      canonical,
      columns,
      { delimiter: ";" },
    );
    expect(errors).toEqual({});
    expect(mapping).toEqual({ delimiter: ";", fields: { record_id: "Ref", record_type: { value: "baptism" }, surname: "Surname" } });
  });

  it("refuses a required field without a column or value, and a column the file does not have", () => {
    const { errors } = mappingFromForm(form({ [columnName("record_id")]: "Nope", [columnName("surname")]: "Surname" }), canonical, columns, {});
    expect(errors[columnName("record_id")]).toEqual(["The file has no column called “Nope”."]);
    expect(errors[columnName("record_type")]?.[0]).toMatch(/Choose the column that holds “Kind of record”/);
    expect(errors[columnName("transcript")]).toBeUndefined();
  });

  it("puts back a kept setting, and refuses one that is not JSON", () => {
    const good = mappingFromForm(
      form({ [columnName("record_id")]: "Ref", [valueName("record_type")]: "x", [columnName("surname")]: "Surname", [columnName("transcript")]: KEEP, [keptName("transcript")]: '{"columns":["Notes","Ref"]}' }),
      canonical,
      columns,
      {},
    );
    expect(good.mapping.fields?.transcript).toEqual({ columns: ["Notes", "Ref"] });
    const bad = mappingFromForm(
      form({ [columnName("record_id")]: "Ref", [valueName("record_type")]: "x", [columnName("surname")]: "Surname", [columnName("transcript")]: KEEP, [keptName("transcript")]: "{" }),
      canonical,
      columns,
      {},
    );
    expect(bad.errors[columnName("transcript")]).toBeDefined();
  });

  it("does not ask for person fields when persons are given", () => {
    const { errors, mapping } = mappingFromForm(form({ [columnName("record_id")]: "Ref", [valueName("record_type")]: "x" }), canonical, columns, { persons: [{ surname: "Surname" }] });
    expect(errors).toEqual({});
    expect(mapping.persons).toEqual([{ surname: "Surname" }]);
  });
});
