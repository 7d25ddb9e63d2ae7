// A membership's facts: number, plan, status, paid-until, how it is paid.
import { formatMoney } from "./money";
import { dateText, periodText, statusText } from "./plan-text";
import type { Membership, Receipt } from "./types";
import styles from "./membership.module.css";

export function MembershipFacts({ m }: { m: Membership }) {
  const concession = m.plan.concessions?.find((c) => c.slug === m.concession);
  const price = concession?.price_minor ?? m.plan.price_minor;
  return (
    <dl className={styles.facts}>
      <dt>Status</dt>
      <dd>{statusText(m.status)}</dd>
      <dt>Membership number</dt>
      <dd>{m.number}</dd>
      <dt>Plan</dt>
      <dd>
        {m.plan.name}
        {concession ? ` (${concession.name})` : ""}, {formatMoney(price, m.plan.currency)} {periodText(m.plan)}
      </dd>
      <dt>Member since</dt>
      <dd>{dateText(m.started_at)}</dd>
      <dt>Paid until</dt>
      <dd>{m.paid_until ? dateText(m.paid_until) : m.status === "lifetime" ? "For life" : m.status === "complimentary" ? "No end date" : "Not paid yet"}</dd>
      <dt>Payment</dt>
      <dd>
        {m.method === "stripe" ? "By card" : m.method === "complimentary" ? "Complimentary" : "Cheque, bank transfer or cash"}
        {m.method === "stripe" ? (m.auto_renew ? ", renews automatically" : ", does not renew automatically") : ""}
      </dd>
    </dl>
  );
}

/** A receipt's amount as a table cell, with what has been refunded of it. */
export function AmountCell({ receipt: r }: { receipt: Receipt }) {
  return (
    <td>
      {formatMoney(r.amount_minor, r.currency)}
      {r.refunded_minor ? ` (${formatMoney(r.refunded_minor, r.currency)} refunded)` : ""}
    </td>
  );
}
