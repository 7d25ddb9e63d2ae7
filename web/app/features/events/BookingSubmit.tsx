// The main button of the booking forms (a visitor's booking, the editors' settings and
// message), alone in the form's actions row: a thumb's size, full width on a phone.
import type { ReactNode } from "react";
import { formStyles } from "../../components/forms/Forms";

export function BookingSubmit({ busy, children }: { busy?: boolean; children: ReactNode }) {
  return (
    <div className={formStyles.actions}>
      <button type="submit" className={`button button--primary ${formStyles.button} booking-button`} disabled={busy}>
        {children}
      </button>
    </div>
  );
}
