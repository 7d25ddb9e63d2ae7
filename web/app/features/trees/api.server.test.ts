import { describe, expect, it } from "vitest";
import { readTreeUpload } from "./api.server";
import { formData as form } from "../../lib/form-data.test-support";

const gedcom = () => new File(["0 HEAD\n0 TRLR\n"], "smith.ged");

const refused: { name: string; fields: Record<string, string | File>; errors: Record<string, string[]> }[] = [
  { name: "no file", fields: { title: "Smiths" }, errors: { file: ["Choose a GEDCOM file (.ged or .gdz) to upload."] } },
  { name: "an empty file", fields: { file: new File([], "empty.ged"), title: "Smiths" }, errors: { file: ["Choose a GEDCOM file (.ged or .gdz) to upload."] } },
  { name: "text where the file should be", fields: { file: "smith.ged", title: "Smiths" }, errors: { file: ["Choose a GEDCOM file (.ged or .gdz) to upload."] } },
  { name: "a blank title", fields: { file: gedcom(), title: "   " }, errors: { title: ["Enter a title for the tree."] } },
  {
    name: "nothing at all",
    fields: {},
    errors: { file: ["Choose a GEDCOM file (.ged or .gdz) to upload."], title: ["Enter a title for the tree."] },
  },
];

describe("readTreeUpload", () => {
  it.each(refused)("refuses $name, keeping what was typed", ({ fields, errors }) => {
    const got = readTreeUpload(form({ ...fields, description: " Lancashire " }));
    expect(got.ok).toBe(false);
    expect(got.ok ? null : got.errors).toEqual(errors);
    expect(got.values.description).toBe("Lancashire");
  });

  it("builds the API's body from the file, the trimmed title and a description only when given", () => {
    const got = readTreeUpload(form({ file: gedcom(), title: " The Smiths ", description: "" }));
    if (!got.ok) throw new Error("refused a good upload");
    expect(got.values).toEqual({ title: "The Smiths", description: "" });
    expect((got.body.get("file") as File).name).toBe("smith.ged");
    expect(got.body.get("title")).toBe("The Smiths");
    expect(got.body.has("description")).toBe(false);
    const described = readTreeUpload(form({ file: gedcom(), title: "Smiths", description: " From Rochdale " }));
    expect(described.ok && described.body.get("description")).toBe("From Rochdale");
  });
});
