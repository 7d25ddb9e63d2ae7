import type { LinkProps } from "@prismicio/react";
import { Link } from "react-router";

/**
 * The component @prismicio/react renders for internal links: a React Router
 * <Link>, so following a content link is a client-side navigation.
 */
export function AppLink({ href, rel, target, children, ...rest }: LinkProps & { className?: string }) {
  return (
    <Link to={href} rel={rel} target={target} {...rest}>
      {children}
    </Link>
  );
}
