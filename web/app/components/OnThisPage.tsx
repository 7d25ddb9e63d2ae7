// A page's own table of contents: links to its sections, in a navigation landmark
// named "On this page" (the site's main navigation is another landmark).
export function OnThisPage({ links, className }: { links: readonly { href: string; label: string }[]; className?: string }) {
  return (
    <nav aria-label="On this page" className={className}>
      <ul role="list">
        {links.map((l) => (
          <li key={l.href}>
            <a href={l.href}>{l.label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
