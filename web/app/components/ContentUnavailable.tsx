/** A notice that some content could not be loaded; the page still renders. */
export function ContentUnavailable({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <div className="notice notice--warning" role="status">
      <p>Some content could not be loaded just now. Please try again in a few minutes.</p>
    </div>
  );
}
