import type { KeyTextField, RichTextField, SharedSlice, SharedSliceVariation } from "@prismicio/client";
import type { SliceComponentProps } from "@prismicio/react";
import { NewsletterSignup } from "../../newsletter";
import { RichText } from "../RichText";

/** The newsletter's sign-up form in a page: an optional heading and introduction of the editor's. */
export type NewsletterSignupSliceType = SharedSlice<
  "newsletter_signup",
  SharedSliceVariation<"default", { title: KeyTextField; text: RichTextField }, Record<string, never>>
>;

export function NewsletterSignupSlice({ slice }: SliceComponentProps<NewsletterSignupSliceType>) {
  const { title, text } = slice.primary;
  const key = slice.id ? slice.id.replace(/[^A-Za-z0-9_-]/g, "") : "page";
  return (
    <div className="slice slice--newsletter-signup">
      <NewsletterSignup
        idPrefix={`newsletter-${key}`}
        heading={title || "Sign up for our newsletter"}
        intro={text?.length ? <RichText field={text} /> : undefined}
      />
    </div>
  );
}
