/** Shown while a content preview cookie is set. */
export function PreviewBar() {
  return (
    <div className="preview-bar" role="region" aria-label="Preview">
      <p>
        You are viewing a content preview. <a href="/preview?exit=1">Exit preview</a>
      </p>
    </div>
  );
}
