// One plan as a card on /subscribe: name, price and period, who it is for, benefits,
// concessions, and the link to its page.
import { Link } from "react-router";
import { subscribePath } from "./subscribe";
import { formatMoney } from "./money";
import { householdText, periodText, priceText } from "./plan-text";
import type { Plan } from "./types";
import styles from "./membership.module.css";

export function PlanCard({ plan, returnTo }: { plan: Plan; returnTo: string | null }) {
  const headingId = `plan-${plan.slug}`;
  const household = householdText(plan);
  return (
    <li className={styles.plan}>
      <h2 id={headingId} className={styles.planName}>
        {plan.name}
      </h2>
      <p className={styles.price}>
        <span className={styles.amount}>{formatMoney(plan.price_minor, plan.currency)}</span> {periodText(plan)}
      </p>
      {household ? <p>{household}.</p> : null}
      <p>{plan.benefits}</p>
      {plan.concessions.length ? (
        <>
          <h3 className={styles.subheading}>Concessions</h3>
          <ul className={styles.concessions}>
            {plan.concessions.map((c) => (
              <li key={c.slug}>
                {c.name}: {priceText(plan, c.price_minor)}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p className={styles.planAction}>
        <Link to={subscribePath(returnTo, `/subscribe/${plan.slug}`)} className="button button--primary">
          Choose {plan.name}
        </Link>
      </p>
    </li>
  );
}

/** How to pay when cards are not taken online (the API's text). */
export function OtherWays({ text, cardPayments }: { text: string; cardPayments: boolean }) {
  if (cardPayments && !text) return null;
  return (
    <section className={styles.otherWays} aria-labelledby="other-ways">
      <h2 id="other-ways">{cardPayments ? "Other ways to pay" : "How to pay"}</h2>
      {cardPayments ? null : <p>Card payments are not taken online at the moment.</p>}
      {text ? <p>{text}</p> : null}
    </section>
  );
}
