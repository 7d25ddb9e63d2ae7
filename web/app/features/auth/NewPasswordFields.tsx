// A new password typed twice, as registration, the reset link and the account page
// ask for it: the browser's password manager may offer a strong one for both.
import { Field } from "../../components/forms/Forms";
import type { FieldErrors } from "../../lib/form-result";

export function NewPasswordFields({
  label,
  hint,
  errors,
  first,
  idPrefix,
}: {
  /** "Password" where the account is new, "New password" where one is replaced; the second field asks for it again. */
  label: string;
  hint: string;
  errors?: FieldErrors;
  /** The form's first field in error, which takes focus. */
  first?: string;
  /** Prefix of the controls' ids, for pages with several forms. */
  idPrefix?: string;
}) {
  return (
    <>
      <Field
        name="password"
        idPrefix={idPrefix}
        label={label}
        type="password"
        autoComplete="new-password"
        hint={hint}
        errors={errors?.password}
        autoFocus={first === "password"}
      />
      <Field
        name="password_confirmation"
        idPrefix={idPrefix}
        label={`Type the ${label.toLowerCase()} again`}
        type="password"
        autoComplete="new-password"
        errors={errors?.password_confirmation}
        autoFocus={first === "password_confirmation"}
      />
    </>
  );
}
