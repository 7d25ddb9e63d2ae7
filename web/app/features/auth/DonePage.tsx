// The page an account form shows once it has done its part (a link mailed, a password
// changed, an address confirmed): a heading, what the server said, and what to do next.
import type { ReactNode } from "react";
import { Link } from "react-router";
import { FormStatus } from "../../components/forms/Forms";
import type { FormResult } from "../../lib/form-result";
import { signInAsPath } from "./access";
import styles from "./auth.module.css";

export function DonePage({ title, result, children }: { title: string; result: FormResult; children: ReactNode }) {
  return (
    <div className={styles.page}>
      <h1>{title}</h1>
      <FormStatus result={result} />
      {children}
    </div>
  );
}

/** The way on to the sign-in page, with the address filled in. */
export function SignInButton({ email }: { email: string }) {
  return (
    <p>
      <Link to={signInAsPath(email)} className="button button--primary">
        Sign in
      </Link>
    </p>
  );
}
