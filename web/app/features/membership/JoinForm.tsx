// The join (or renew) form of /subscribe/{slug}: price (concessions), the other people
// of a household plan, the Gift Aid declaration (UK), marketing consent on its own
// unticked box. Field names are the API's error keys (join-form.ts), so each error
// shows next to its field and is tied to it with aria-describedby.
import { useRef, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { CsrfField, ErrorSummary, ErrorText, Field, fieldId, formStyles, SubmitButton, useFocusFirstError } from "../../components/forms/Forms";
import { firstErrorField, type FormResult } from "../../lib/form-result";
import { GIFT_AID_FIELDS, householdSlots, joinFields, offersGiftAid } from "./join-form";
import { priceText } from "./plan-text";
import type { Plan } from "./types";
import styles from "./membership.module.css";

interface JoinFormProps {
  plan: Plan;
  /** The Gift Aid declaration as the API words it (null: Gift Aid is not offered just now). */
  giftAidWording: string | null;
  cardPayments: boolean;
  returnTo: string | null;
  result: FormResult | undefined;
  renewing: boolean;
}

const GIFT_AID_LABELS: Record<(typeof GIFT_AID_FIELDS)[number], { label: string; autoComplete: string; hint?: string }> = {
  title: { label: "Title (optional)", autoComplete: "honorific-prefix", hint: "For example Mr, Mrs, Ms, Dr." },
  first_name: { label: "First name", autoComplete: "given-name" },
  last_name: { label: "Last name", autoComplete: "family-name" },
  house: { label: "House name or number", autoComplete: "address-line1" },
  postcode: { label: "Postcode", autoComplete: "postal-code" },
  address: { label: "The rest of your home address", autoComplete: "address-line2", hint: "Street and town or city." },
};

/** A checkbox with its label, an optional description and its error. */
function CheckField({ name, label, describedBy, errors, defaultChecked, autoFocus }: { name: string; label: ReactNode; describedBy?: string; errors?: string[]; defaultChecked?: boolean; autoFocus?: boolean }) {
  const id = fieldId(name);
  const errorId = errors?.length ? `${id}-error` : undefined;
  return (
    <div className={errors?.length ? formStyles.fieldError : undefined}>
      <ErrorText id={`${id}-error`} errors={errors} />
      <div className={formStyles.checkbox}>
        <input
          type="checkbox"
          id={id}
          name={name}
          defaultChecked={defaultChecked}
          aria-describedby={[describedBy, errorId].filter(Boolean).join(" ") || undefined}
          aria-invalid={errorId ? true : undefined}
          autoFocus={autoFocus}
        />
        <label htmlFor={id}>{label}</label>
      </div>
    </div>
  );
}

export function JoinForm({ plan, giftAidWording, cardPayments, returnTo, result, renewing }: JoinFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod !== undefined;
  const failed = result && !result.ok ? result : undefined;
  useFocusFirstError(formRef, failed);
  const errors = failed?.errors ?? {};
  const values = failed?.values ?? {};
  const fields = joinFields(plan);
  const first = firstErrorField(errors, fields);
  const concessionError = errors.concession;
  const concessionErrorId = concessionError?.length ? `${fieldId("concession")}-error` : undefined;
  const declarationId = "gift-aid-declaration";
  const slots = householdSlots(plan);

  return (
    <Form method="post" ref={formRef} className={formStyles.form} noValidate aria-labelledby="join-heading">
      <h2 id="join-heading">{renewing ? "Renew" : "Join"}: {plan.name}</h2>
      <ErrorSummary result={failed} fields={fields} />
      <CsrfField />
      <input type="hidden" name="intent" value="join" />
      <input type="hidden" name="return_to" value={returnTo ?? ""} />

      {plan.concessions.length ? (
        <fieldset className={styles.fieldset} aria-describedby={concessionErrorId}>
          <legend>Price</legend>
          <ErrorText id={`${fieldId("concession")}-error`} errors={concessionError} />
          <div className={styles.radio}>
            <input type="radio" id={fieldId("concession")} name="concession" value="" defaultChecked={!values.concession} autoFocus={first === "concession"} />
            <label htmlFor={fieldId("concession")}>Standard: {priceText(plan)}</label>
          </div>
          {plan.concessions.map((c) => (
            <div className={styles.radio} key={c.slug}>
              <input type="radio" id={fieldId(`concession-${c.slug}`)} name="concession" value={c.slug} defaultChecked={values.concession === c.slug} />
              <label htmlFor={fieldId(`concession-${c.slug}`)}>
                {c.name}: {priceText(plan, c.price_minor)}
              </label>
            </div>
          ))}
        </fieldset>
      ) : (
        <input type="hidden" name="concession" value="" />
      )}

      {slots > 0 ? (
        <fieldset className={styles.fieldset}>
          <legend>The other {slots === 1 ? "person" : "people"} in your household</legend>
          <p className={formStyles.hint}>
            This plan is for up to {plan.household_size} people. Each gets their own account: we email them an invitation. You can
            add them later from your account instead.
          </p>
          {Array.from({ length: slots }, (_, i) => (
            <div key={i}>
              <Field
                name={`household.${i}.name`}
                label={slots === 1 ? "Their name" : `Person ${i + 2}: name`}
                autoComplete="off"
                defaultValue={values[`household.${i}.name`]}
                errors={errors[`household.${i}.name`]}
                autoFocus={first === `household.${i}.name`}
              />
              <Field
                name={`household.${i}.email`}
                label={slots === 1 ? "Their email address" : `Person ${i + 2}: email address`}
                type="email"
                autoComplete="off"
                spellCheck={false}
                defaultValue={values[`household.${i}.email`]}
                errors={errors[`household.${i}.email`]}
                autoFocus={first === `household.${i}.email`}
              />
            </div>
          ))}
          <ErrorText id={`${fieldId("household")}-error`} errors={errors.household} />
        </fieldset>
      ) : null}

      {offersGiftAid(plan) && giftAidWording ? (
        <fieldset className={styles.fieldset}>
          <legend>Gift Aid</legend>
          <p>
            If you are a UK taxpayer, Gift Aid lets the society claim an extra 25p from HM Revenue and Customs for every £1 you pay,
            at no cost to you.
          </p>
          <p id={declarationId} className={styles.declaration}>
            {giftAidWording}
          </p>
          <input type="hidden" name="gift_aid.wording" value={giftAidWording} />
          <CheckField
            name="gift_aid"
            label="I make this Gift Aid declaration"
            describedBy={declarationId}
            errors={[...(errors.gift_aid ?? []), ...(errors["gift_aid.wording"] ?? [])]}
            defaultChecked={values.gift_aid === "on"}
            autoFocus={first === "gift_aid"}
          />
          <p className={formStyles.hint}>If you make the declaration, HMRC needs your name and home address:</p>
          {GIFT_AID_FIELDS.map((f) => (
            <Field
              key={f}
              name={`gift_aid.${f}`}
              label={GIFT_AID_LABELS[f].label}
              hint={GIFT_AID_LABELS[f].hint}
              autoComplete={GIFT_AID_LABELS[f].autoComplete}
              defaultValue={values[`gift_aid.${f}`]}
              errors={errors[`gift_aid.${f}`]}
              autoFocus={first === `gift_aid.${f}`}
            />
          ))}
        </fieldset>
      ) : null}

      <CheckField
        name="marketing_consent"
        label="Email me news of the society’s events, publications and appeals (you can stop these at any time)"
        errors={errors.marketing_consent}
        defaultChecked={values.marketing_consent === "on"}
      />

      <div className={formStyles.actions}>
        <SubmitButton busy={busy} busyLabel="Sending…">
          {cardPayments ? `${renewing ? "Renew" : "Join"} and pay by card` : renewing ? "Renew" : "Join"}
        </SubmitButton>
      </div>
    </Form>
  );
}
